#!/usr/bin/env node
// `npm run build:bridge`: builds the Proton and Wine bridge (bridge/src/*.c, docs/proton-bridge.md)
// with mingw-w64 into out/bridge/companion-bridge.exe: 64-bit, statically linked, stripped.
// Prints the exe's path and size; without the compiler it says in one line how to get it.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const COMPILER = 'x86_64-w64-mingw32-gcc';
const INSTALL = 'sudo apt-get install -y gcc-mingw-w64-x86-64 (Debian/Ubuntu; Fedora: mingw64-gcc; Arch: mingw-w64-gcc)';
const root = fileURLToPath(new URL('..', import.meta.url));
const sourceDir = path.join(root, 'bridge', 'src');
const out = path.join(root, 'out', 'bridge', 'companion-bridge.exe');

function onPath(name) {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (dir !== '' && existsSync(path.join(dir, name))) return path.join(dir, name);
  }
  return undefined;
}

const compiler = onPath(COMPILER);
if (compiler === undefined) {
  process.stderr.write(`build:bridge: ${COMPILER} not found; install mingw-w64: ${INSTALL}\n`);
  process.exit(1);
}
const sources = readdirSync(sourceDir).filter((name) => name.endsWith('.c')).sort().map((name) => path.join(sourceDir, name));
mkdirSync(path.dirname(out), { recursive: true });
const args = ['-municode', '-std=c11', '-O2', '-Wall', '-Wextra', '-Werror', '-static', '-s', '-o', out, ...sources];
const result = spawnSync(compiler, args, { encoding: 'utf8', stdio: ['ignore', 'inherit', 'inherit'] });
if (result.status !== 0) {
  process.stderr.write(`build:bridge: ${COMPILER} failed (${result.status ?? result.signal ?? result.error?.message})\n`);
  process.exit(1);
}
process.stdout.write(`${path.relative(root, out)} (${(statSync(out).size / 1024).toFixed(0)} KiB)\n`);
