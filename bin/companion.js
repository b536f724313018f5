#!/usr/bin/env node
// Entry of the `companion` command. The TypeScript build (npm install runs it) lives in out/.
import { existsSync } from 'node:fs';

const entry = new URL('../out/main/src/cli.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write("companion: not built yet. Run 'npm install' (or 'npm run build') in the project folder.\n");
  process.exit(1);
}
// `serve` starts node again, in this process and before anything else, with what can only be set
// at start: one malloc arena, and on Node 22 the collector on the main thread
// (main/src/host/compose/serve-exec.ts says why).
if (process.argv[2] === 'serve') (await import(new URL('../out/main/src/host/compose/serve-exec.js', import.meta.url).href)).startServeTuned();
// `serve` starts with V8's compilers held back and lets them go once it has started
// (main/src/host/compose/startup-tiering.ts says why).
if (process.argv[2] === 'serve') (await import(new URL('../out/main/src/host/compose/startup-tiering.js', import.meta.url).href)).holdCompilersForStartup();
// `serve` answers games on the main thread: V8's background threads yield to it
// (main/src/host/compose/background-priority.ts says why).
if (process.argv[2] === 'serve') (await import(new URL('../out/main/src/host/compose/background-priority.js', import.meta.url).href)).backgroundThreadsYield();
// `serve` binds the game-facing sockets first; the host serves them once it is up
// (main/src/shells/cli/serve-early.ts says why).
if (process.argv[2] === 'serve') await (await import(new URL('../out/main/src/shells/cli/serve-early.js', import.meta.url).href)).bindBeforeServe(process.argv.slice(3), process.env);
const { main } = await import(entry.href);
await main();
