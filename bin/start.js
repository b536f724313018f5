#!/usr/bin/env node
// `npm start`: Electron where its binary exists, otherwise the headless host.
import { existsSync } from 'node:fs';

const entry = new URL('../out/main/src/start.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write("companion: not built yet. Run 'npm install' (or 'npm run build') in the project folder.\n");
  process.exit(1);
}
const { start } = await import(entry.href);
await start(process.argv.slice(2));
