#!/usr/bin/env node
// Socket bound at start, measured per Node version (docs/performance.md, "Socket bound at
// start"). For each Node binary, ROUNDS times one after another: spawn `companion serve`
// (embedded emulator, fresh directories), try connect() on its discord-ipc-0 every 2 ms, and
// note the time from spawn to the first accepted connection, the CPU time (user + system, in
// the kernel's 10 ms ticks) the process had used by then, and the time to its "listening"
// line (the host up). Prints per Node the median (min-max) of each.
//
//   node scripts/measure-bind.mjs [--rounds N] [--root DIR] [--arrpc DIR] [NODE_BINARY ...]
//
// --root: the checkout to measure (default this one), e.g. a worktree of an older commit.
// --arrpc: also arRPC from that checkout (as the bench's arrpc phase runs it: process scanning
// and the bridge off), each round right after Companion's, on the same Node.
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
const arrpc = option('--arrpc', undefined);
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

/** Spawns `argv` with `env` and waits until `socketPath` accepts: ms from spawn, CPU ms used by then, and the child. */
async function spawnUntilConnectable(node, argv, env, socketPath) {
  const started = performance.now();
  const child = spawn(node, argv, { env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env } });
  const out = { stdout: '', stderr: '' };
  child.stdout.setEncoding('utf8').on('data', (text) => (out.stdout += text));
  child.stderr.setEncoding('utf8').on('data', (text) => (out.stderr += text));
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${node} ${argv.join(' ')} exited (${child.exitCode}): ${out.stderr}`);
    if (await connects(socketPath)) return { boundMs: performance.now() - started, cpuMs: cpuMs(child.pid), child, out, started };
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

async function stop(child) {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** One `companion serve`: ms to a connectable socket, CPU ms used by then, ms to "listening". */
async function startOnce(node) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'companion-bind-'));
  const argv = [path.join(root, 'bin/companion.js'), 'serve', '--runtime-dir', path.join(dir, 'r'), '--data-dir', path.join(dir, 'd')];
  const run = await spawnUntilConnectable(node, argv, {}, path.join(dir, 'r', 'discord-ipc-0'));
  while (!/listening on /.test(run.out.stdout)) await new Promise((resolve) => setTimeout(resolve, 2));
  const listeningMs = performance.now() - run.started;
  await stop(run.child);
  rmSync(dir, { recursive: true, force: true });
  return { boundMs: run.boundMs, cpuMs: run.cpuMs, listeningMs, stderr: run.out.stderr };
}

/** One arRPC: ms to a connectable socket and CPU ms used by then. */
async function arrpcOnce(node) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'arrpc-bind-'));
  const env = { XDG_RUNTIME_DIR: dir, ARRPC_NO_PROCESS_SCANNING: '1', ARRPC_BRIDGE_PORT: '0' };
  const run = await spawnUntilConnectable(node, [path.join(arrpc, 'src', 'index.js')], env, path.join(dir, 'discord-ipc-0'));
  await stop(run.child);
  rmSync(dir, { recursive: true, force: true });
  return { boundMs: run.boundMs, cpuMs: run.cpuMs };
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
  const peers = [];
  for (let i = 0; i < ROUNDS; i += 1) {
    runs.push(await startOnce(node));
    if (arrpc !== undefined) peers.push(await arrpcOnce(node));
  }
  const stderr = runs.map((r) => r.stderr).filter((text) => text !== '');
  process.stdout.write(
    `${version}: connectable ${summary(runs.map((r) => r.boundMs))} ms, CPU by then ${summary(runs.map((r) => r.cpuMs))} ms, ` +
      `listening line ${summary(runs.map((r) => r.listeningMs))} ms (${ROUNDS} rounds)${stderr.length > 0 ? `; stderr: ${stderr[0].split('\n')[0]}` : ''}\n`,
  );
  if (arrpc !== undefined) {
    process.stdout.write(`${version} arRPC: connectable ${summary(peers.map((r) => r.boundMs))} ms, CPU by then ${summary(peers.map((r) => r.cpuMs))} ms\n`);
  }
}
