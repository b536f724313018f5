#!/usr/bin/env node
// Socket bound at start, measured per Node version (docs/performance.md, "Socket bound at
// start"). For each Node binary, ROUNDS times one after another: spawn `companion serve`
// (embedded emulator, fresh directories), try connect() on its discord-ipc-0 every 2 ms, and
// note the time from spawn to the first accepted connection, the CPU time (user + system, in
// the kernel's 10 ms ticks) the process had used by then, and the time to its "listening"
// line (the host up). Prints per Node the median (min-max) of each.
//
//   node scripts/measure-bind.mjs [--rounds N] [--root DIR] [NODE_BINARY ...]
//
// --root: the checkout to measure (default this one), e.g. a worktree of an older commit.
// Without binaries: this Node and the cached Node 22 and 24 of scripts/test-nodes.mjs.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { ensureNode, OTHER_NODE_MAJORS } from './test-nodes.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  if (at === -1) return fallback;
  const [, value] = args.splice(at, 2);
  return value;
};
const ROUNDS = Number(option('--rounds', '10'));
const root = path.resolve(option('--root', fileURLToPath(new URL('..', import.meta.url))));
const nodes = args.length > 0 ? args : [process.execPath, ...OTHER_NODE_MAJORS.map((major) => ensureNode(major).path).filter(Boolean)];

/** utime + stime of a process, in ms (clock ticks of 10 ms). */
const cpuMs = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
};
const connects = (socketPath) =>
  new Promise((resolve) => {
    const socket = net.connect(socketPath);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/** One `companion serve`: ms to a connectable socket, CPU ms used by then, ms to "listening". */
async function startOnce(node) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'companion-bind-'));
  const socketPath = path.join(dir, 'r', 'discord-ipc-0');
  const started = performance.now();
  const child = spawn(node, [path.join(root, 'bin/companion.js'), 'serve', '--runtime-dir', path.join(dir, 'r'), '--data-dir', path.join(dir, 'd')], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME },
  });
  let stdout = '';
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (text) => (stderr += text));
  const listening = new Promise((resolve) =>
    child.stdout.setEncoding('utf8').on('data', (text) => {
      stdout += text;
      if (/listening on /.test(stdout)) resolve(performance.now() - started);
    }),
  );
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let bound;
  while (bound === undefined) {
    if (child.exitCode !== null) throw new Error(`${node} serve exited (${child.exitCode}): ${stderr}`);
    if (await connects(socketPath)) bound = { boundMs: performance.now() - started, cpuMs: cpuMs(child.pid) };
    else await new Promise((resolve) => setTimeout(resolve, 2));
  }
  const listeningMs = await listening;
  child.kill('SIGTERM');
  await exited;
  rmSync(dir, { recursive: true, force: true });
  return { ...bound, listeningMs, stderr };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const summary = (xs) => `${median(xs).toFixed(0)} (${Math.min(...xs).toFixed(0)}-${Math.max(...xs).toFixed(0)})`;

for (const node of nodes) {
  const version = await new Promise((resolve) => {
    const child = spawn(node, ['--version']);
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('close', () => resolve(out.trim()));
  });
  const runs = [];
  for (let i = 0; i < ROUNDS; i += 1) runs.push(await startOnce(node));
  const stderr = runs.map((r) => r.stderr).filter((text) => text !== '');
  process.stdout.write(
    `${version}: connectable ${summary(runs.map((r) => r.boundMs))} ms, CPU by then ${summary(runs.map((r) => r.cpuMs))} ms, ` +
      `listening line ${summary(runs.map((r) => r.listeningMs))} ms (${ROUNDS} rounds)${stderr.length > 0 ? `; stderr: ${stderr[0].split('\n')[0]}` : ''}\n`,
  );
}
