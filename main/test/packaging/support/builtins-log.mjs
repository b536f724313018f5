// Loaded with `node --import` (NODE_OPTIONS) by node-versions.test.ts: writes the Node built-ins
// this process has loaded (process.moduleLoadList) to the file BUILTINS_LOG names, every 100 ms.
import { writeFileSync } from 'node:fs';

const file = process.env.BUILTINS_LOG;
if (file !== undefined) setInterval(() => writeFileSync(file, process.moduleLoadList.join('\n')), 100).unref();
