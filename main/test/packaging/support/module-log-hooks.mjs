// The loader hooks module-log.mjs registers: one line per module loaded, its URL.
import { appendFileSync } from 'node:fs';

let file;

export function initialize(data) {
  file = data.file;
}

export async function load(url, context, next) {
  if (file !== undefined) appendFileSync(file, `${url}\n`);
  return next(url, context);
}
