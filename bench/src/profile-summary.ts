/**
 * Summarises a V8 .cpuprofile (from `BENCH_CPU_PROF=<dir> npm run bench`, which runs the
 * Companion child under --cpu-prof): self time by function, self time by file, and inclusive
 * time of selected functions.
 *
 * Usage: node out/bench/src/profile-summary.js <file.cpuprofile> [top=30] [inclusive-name ...]
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

interface CallFrame {
  readonly functionName: string;
  readonly url: string;
  readonly lineNumber: number;
}

interface ProfileNode {
  readonly id: number;
  readonly callFrame: CallFrame;
  readonly children?: readonly number[];
}

interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
  readonly startTime: number;
  readonly endTime: number;
}

const [file, topArg, ...inclusiveNames] = process.argv.slice(2);
if (file === undefined) {
  process.stderr.write('usage: profile-summary <file.cpuprofile> [top] [function-name ...]\n');
  process.exit(2);
}
const top = Number(topArg ?? 30);
const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;

const byId = new Map<number, ProfileNode>();
const parent = new Map<number, number>();
for (const node of profile.nodes) {
  byId.set(node.id, node);
  for (const child of node.children ?? []) parent.set(child, node.id);
}

const selfUs = new Map<number, number>();
profile.samples.forEach((id, i) => {
  selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
});
const totalUs = [...selfUs.values()].reduce((a, b) => a + b, 0);
const idleIds = new Set(profile.nodes.filter((n) => n.callFrame.functionName === '(idle)').map((n) => n.id));
const idleUs = [...idleIds].reduce((s, id) => s + (selfUs.get(id) ?? 0), 0);
const busyUs = totalUs - idleUs;

function where(frame: CallFrame): string {
  const url = frame.url.replace(/^file:\/\//, '');
  const short = url === '' ? '' : url.includes('node_modules') ? url.slice(url.lastIndexOf('node_modules')) : path.relative(process.cwd(), url);
  return short === '' ? '' : `${short}:${frame.lineNumber + 1}`;
}

function label(frame: CallFrame): string {
  return `${frame.functionName || '(anonymous)'} ${where(frame)}`.trim();
}

const pct = (us: number): string => `${((us / busyUs) * 100).toFixed(1).padStart(5)}%`;
const ms = (us: number): string => `${(us / 1000).toFixed(0).padStart(7)} ms`;

const selfByFunction = new Map<string, number>();
const selfByFile = new Map<string, number>();
for (const [id, us] of selfUs) {
  if (idleIds.has(id)) continue;
  const frame = (byId.get(id) as ProfileNode).callFrame;
  const key = label(frame);
  selfByFunction.set(key, (selfByFunction.get(key) ?? 0) + us);
  const fileKey = frame.url === '' ? `(${frame.functionName})` : where(frame).replace(/:\d+$/, '');
  selfByFile.set(fileKey, (selfByFile.get(fileKey) ?? 0) + us);
}

const lines: string[] = [];
lines.push(`profile: ${file}`);
lines.push(`wall ${ms(profile.endTime - profile.startTime)}, busy ${ms(busyUs)}, idle ${ms(idleUs)}`);
lines.push('', `self time by function (top ${top}, % of busy):`);
for (const [key, us] of [...selfByFunction].sort((a, b) => b[1] - a[1]).slice(0, top)) lines.push(`${pct(us)} ${ms(us)}  ${key}`);
lines.push('', 'self time by file:');
for (const [key, us] of [...selfByFile].sort((a, b) => b[1] - a[1]).slice(0, 20)) lines.push(`${pct(us)} ${ms(us)}  ${key}`);

// Inclusive time: a sample counts for a function if the function is anywhere on its stack.
if (inclusiveNames.length > 0) {
  lines.push('', 'inclusive time:');
  for (const name of inclusiveNames) {
    let us = 0;
    for (const [id, self] of selfUs) {
      for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
        if ((byId.get(cur) as ProfileNode).callFrame.functionName === name) {
          us += self;
          break;
        }
      }
    }
    lines.push(`${pct(us)} ${ms(us)}  ${name}`);
  }
}
process.stdout.write(`${lines.join('\n')}\n`);
