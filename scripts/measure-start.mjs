#!/usr/bin/env node
// Start-up tiering, measured per Node version (docs/performance.md, "Start-up tiering per Node
// version"). For each Node binary, PAIRS rounds start two `companion serve` side by side
// (embedded emulator, no game, fresh directories): one as users start it (compilers held
// during start-up: main/src/host/compose/startup-tiering.ts) and one with `node --opt` (the
// same V8 defaults, but user-set, so nothing is held). Prints per Node and variant the median
// (min-max) of the time from spawn to the "listening" line, of VmRSS 5 s after it, and of the
// CPU time used over the 10 s that follow (idle: no game).
//
//   node scripts/measure-start.mjs [--pairs N] [NODE_BINARY ...]
//
// Without binaries: this Node and the cached Node 22 and 24 of scripts/test-nodes.mjs.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { ensureNode, OTHER_NODE_MAJORS } from './test-nodes.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const pairsAt = args.indexOf('--pairs');
const PAIRS = pairsAt === -1 ? 5 : Number(args[pairsAt + 1]);
const given = args.filter((a, i) => i !== pairsAt && i !== pairsAt + 1);
const nodes = given.length > 0 ? given : [process.execPath, ...OTHER_NODE_MAJORS.map((major) => ensureNode(major).path).filter(Boolean)];
const SETTLE_MS = 5000;
const IDLE_MS = 10_000;
/** utime + stime of a process, in ms (clock ticks of 10 ms). */
const cpuMs = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
};

/** One `companion serve`: ms to "listening", VmRSS (MiB) SETTLE_MS later, and its stderr. */
function startOnce(node, extraArgs) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'companion-measure-'));
  const started = performance.now();
  const child = spawn(node, [...extraArgs, path.join(root, 'bin/companion.js'), 'serve', '--runtime-dir', path.join(dir, 'r'), '--data-dir', path.join(dir, 'd')], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME },
  });
  let stdout = '';
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (text) => (stderr += text));
  return new Promise((resolve, reject) => {
    child.on('exit', (code) => reject(new Error(`${node} serve exited (${code}): ${stderr}`)));
    child.stdout.setEncoding('utf8').on('data', (text) => {
      stdout += text;
      if (!/listening on /.test(stdout) || stdout.includes('\u0000')) return;
      stdout += '\u0000';
      const startMs = performance.now() - started;
      setTimeout(() => {
        const rss = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1]) / 1024;
        const cpuBefore = cpuMs(child.pid);
        setTimeout(() => {
          const idleCpuMs = cpuMs(child.pid) - cpuBefore;
          child.removeAllListeners('exit');
          child.once('exit', () => {
            rmSync(dir, { recursive: true, force: true });
            resolve({ startMs, rss, idleCpuMs, stderr });
          });
          child.kill('SIGTERM');
        }, IDLE_MS);
      }, SETTLE_MS);
    });
  });
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const summary = (xs, digits) => `${median(xs).toFixed(digits)} (${Math.min(...xs).toFixed(digits)}-${Math.max(...xs).toFixed(digits)})`;

for (const node of nodes) {
  const version = (await new Promise((resolve) => {
    const child = spawn(node, ['--version']);
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('close', () => resolve(out.trim()));
  }));
  const held = [];
  const free = [];
  for (let i = 0; i < PAIRS; i += 1) {
    const [a, b] = await Promise.all([startOnce(node, []), startOnce(node, ['--opt'])]);
    if (a.stderr !== '' || b.stderr !== '') process.stdout.write(`${version}: stderr: ${a.stderr}${b.stderr}\n`);
    held.push(a);
    free.push(b);
  }
  const diff = held.map((h, i) => free[i].rss - h.rss);
  process.stdout.write(
    `${version} held:     start ${summary(held.map((r) => r.startMs), 0)} ms, RSS ${summary(held.map((r) => r.rss), 1)} MiB, idle CPU ${summary(held.map((r) => r.idleCpuMs), 0)} ms / 10 s\n` +
      `${version} not held: start ${summary(free.map((r) => r.startMs), 0)} ms, RSS ${summary(free.map((r) => r.rss), 1)} MiB, idle CPU ${summary(free.map((r) => r.idleCpuMs), 0)} ms / 10 s\n` +
      `${version} RSS saved by holding, per pair: ${summary(diff, 1)} MiB (${PAIRS} pairs)\n`,
  );
}
