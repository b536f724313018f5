#!/usr/bin/env node
// `npm install` (the prepare script): fetch the Electron binary for `npm start` and e2e/electron.
// Since Electron 42 the electron package has no postinstall: its installer (`install-electron`,
// the package's install.js) downloads the binary from Electron's release host into
// node_modules/electron/dist and writes path.txt. This runs that installer once, and never fails
// the install: where the binary cannot be had (no access to the release host, as on our build
// machines), it says so in one line and `npm start` runs the headless host.
// ELECTRON_SKIP_BINARY_DOWNLOAD=1 skips it, as it skipped electron's own postinstall.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const TIMEOUT_MS = 10 * 60_000;

function electronPackage() {
  try {
    return dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  } catch {
    return null;
  }
}

function hasBinary(dir) {
  const pathFile = join(dir, 'path.txt');
  return existsSync(pathFile) && existsSync(join(dir, 'dist', readFileSync(pathFile, 'utf8').trim()));
}

/** The first line of what the installer printed (an error and its stack), kept short. */
function firstError(stderr) {
  const line = stderr.split('\n').map((text) => text.trim()).find((text) => text !== '' && !text.startsWith('at ')) ?? 'no message';
  return line.length > 160 ? `${line.slice(0, 159)}…` : line;
}

function main() {
  const skip = process.env.ELECTRON_SKIP_BINARY_DOWNLOAD;
  if (skip !== undefined && skip !== '' && skip !== '0') {
    process.stdout.write('Electron binary not downloaded (ELECTRON_SKIP_BINARY_DOWNLOAD is set); npm start will run the headless host.\n');
    return;
  }
  const dir = electronPackage();
  if (dir === null || hasBinary(dir)) return;
  const { version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  process.stdout.write(`Downloading the Electron ${version} binary into node_modules/electron/dist...\n`);
  const result = spawnSync(process.execPath, [join(dir, 'install.js')], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'], timeout: TIMEOUT_MS });
  if (result.status === 0 && hasBinary(dir)) {
    process.stdout.write(`Electron ${version} is ready: npm start runs the desktop app.\n`);
    return;
  }
  const why = result.error !== undefined ? result.error.message : firstError(result.stderr ?? '');
  process.stdout.write(`Electron ${version} binary not downloaded (${why}); npm start will run the headless host. \`npx install-electron\` retries.\n`);
}

main();
