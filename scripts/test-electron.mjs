#!/usr/bin/env node
// `npm run test:electron`: the desktop shell's end-to-end tests (e2e/electron, Playwright's
// `_electron` driving the built shell) wherever an Electron binary exists: the one `npm start`
// would run (node_modules/electron's download, or ELECTRON_PATH). Where there is none, or no
// display to open its windows on, one line says why and it exits 0 (skipped).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

const START = new URL('../out/main/src/start.js', import.meta.url);
const CONFIG = 'e2e/electron/playwright.electron.config.ts';

function skip(reason) {
  process.stdout.write(`e2e/electron: skipped, ${reason}\n`);
  process.exit(0);
}

function run(command, args, env = process.env) {
  const result = spawnSync(command, args, { stdio: 'inherit', env });
  if (result.error !== undefined) process.stderr.write(`e2e/electron: ${command} did not run: ${result.error.message}\n`);
  return result.status ?? 1;
}

function onPath(name) {
  return (process.env.PATH ?? '').split(delimiter).some((dir) => dir !== '' && existsSync(join(dir, name)));
}

/** npm start's choice, without COMPANION_HEADLESS (it turns Electron off for npm start only). */
async function choose() {
  const { chooseElectron, systemProbe } = await import(START.href);
  const probe = systemProbe();
  const env = { ...probe.env };
  delete env.COMPANION_HEADLESS;
  return chooseElectron({ ...probe, env });
}

if (!existsSync(START)) {
  process.stderr.write("e2e/electron: not built yet; run 'npm install' (or 'npm run build') first.\n");
  process.exit(1);
}
let choice = await choose();
if (choice.kind === 'headless' && choice.binary === undefined) skip(`no Electron binary (${choice.reason})`);
if (choice.kind === 'headless') {
  // A binary, but the shell, its preload or the UI is not built.
  if (run('npm', ['run', 'build']) !== 0) process.exit(1);
  choice = await choose();
  if (choice.kind === 'headless') {
    process.stderr.write(`e2e/electron: ${choice.reason}\n`);
    process.exit(1);
  }
}
const env = { ...process.env, ELECTRON_PATH: choice.binary };
const playwright = ['node_modules/.bin/playwright', 'test', '-c', CONFIG, ...process.argv.slice(2)];
const headlessLinux = process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY;
if (headlessLinux && !onPath('xvfb-run')) skip(`no display for Electron's windows (DISPLAY and WAYLAND_DISPLAY unset, xvfb-run not found; Electron at ${choice.binary})`);
process.exit(headlessLinux ? run('xvfb-run', ['--auto-servernum', ...playwright], env) : run(playwright[0], playwright.slice(1), env));
