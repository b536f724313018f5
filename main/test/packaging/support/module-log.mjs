// Loaded with `node --import` (NODE_OPTIONS) by start-modules.test.ts: registers a loader hook
// that appends the URL of every ES module the process loads to the file MODULE_LOG names.
import { register } from 'node:module';

register(new URL('./module-log-hooks.mjs', import.meta.url), { data: { file: process.env.MODULE_LOG } });
