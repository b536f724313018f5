import { mkdir, readdir, readFile, rename } from 'node:fs/promises';
import path from 'node:path';
import * as v from 'valibot';
import { writeFileAtomic } from '../../../common/src/node/atomic-file.js';

/** What `readJsonStateFile` found. */
export type JsonStateFileRead<T> =
  | { readonly kind: 'missing' }
  | { readonly kind: 'valid'; readonly value: T }
  /** `problem`: `was not valid JSON`, or `did not hold <what> (<path>: <issue>)`. */
  | { readonly kind: 'invalid'; readonly problem: string };

/**
 * Reads a state file the host keeps as JSON (grants, presence settings, web origins) and
 * checks it against `schema`; `what` names its content in the problem. A missing file is
 * `missing`; other read errors (e.g. EACCES) reject, leaving the file alone.
 */
export async function readJsonStateFile<TSchema extends v.GenericSchema>(file: string, schema: TSchema, what: string): Promise<JsonStateFileRead<v.InferOutput<TSchema>>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text) as unknown;
  } catch {
    return { kind: 'invalid', problem: 'was not valid JSON' };
  }
  const result = v.safeParse(schema, parsed);
  if (result.success) return { kind: 'valid', value: result.output };
  return { kind: 'invalid', problem: `did not hold ${what} (${v.getDotPath(result.issues[0]) ?? 'top level'}: ${result.issues[0].message})` };
}

/**
 * Writes a state file the host keeps as JSON: its folder made private (0700) if missing, the
 * value as indented JSON with a final newline, replaced atomically (a reader sees the old file
 * or the new one, never part of either).
 */
export async function writeJsonStateFile(file: string, value: unknown): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  await writeFileAtomic(file, `${JSON.stringify(value, null, 2)}\n`);
}

/**
 * Renames a state file that could not be read to `<file>.corrupt-<stamp>` (with a counter if
 * that exists), so it is kept, never dropped; returns the new path.
 */
export async function moveAside(file: string, stamp: string): Promise<string> {
  const base = `${file}.corrupt-${stamp}`;
  const existing = new Set(await readdir(path.dirname(file)));
  let target = base;
  for (let n = 1; existing.has(path.basename(target)); n++) target = `${base}-${n}`;
  await rename(file, target);
  return target;
}

/** A filesystem-friendly UTC timestamp: `2025-01-02T03-04-05-678Z`. */
export function fileTimestamp(ms: number): string {
  return new Date(ms).toISOString().replace(/[:.]/g, '-');
}
