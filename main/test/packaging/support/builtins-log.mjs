// Loaded with `node --import` (NODE_OPTIONS) by node-versions.test.ts: writes the Node built-ins
// this process has loaded (process.moduleLoadList) to the file BUILTINS_LOG names, every 100 ms.
// Written beside it and renamed over it, so the test never reads a file half written: a read
// between writeFileSync's truncate and its write finds no list at all (CI once failed on a list
// without node:net, after the game had already connected).
import { renameSync, writeFileSync } from 'node:fs';

const file = process.env.BUILTINS_LOG;
if (file !== undefined) {
  const next = `${file}.${process.pid}.next`;
  setInterval(() => {
    writeFileSync(next, process.moduleLoadList.join('\n'));
    renameSync(next, file);
  }, 100).unref();
}
