// Recording alone: `node bench/frame-log-record.mjs <repo root>` (after `npx tsc -b` there) records
// N (env, default 1,000,000) SET_ACTIVITY frames and their replies over 100 connections into the
// inspector's rings, the rings full, and prints the CPU per frame (docs/performance.md, "The
// inspector's rings on the hot path"). Add --trace-gc to count the collector's passes.
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(process.argv[2] ?? '.');
const { FrameLog } = await import(pathToFileURL(path.join(root, 'out/main/src/host/ui-bridge/frame-log.js')).href);
const log = new FrameLog(undefined, { applicationOf: () => '1', lint: () => [] });
const frames = [];
for (let c = 0; c < 100; c++) {
  const activity = { state: `state ${c}`, details: 'Bench details', timestamps: { start: 1_700_000_000_000 }, assets: { large_image: 'img', large_text: 'text' } };
  const command = { cmd: 'SET_ACTIVITY', args: { pid: 1000 + c, activity }, nonce: `n-${c}` };
  const reply = { cmd: 'SET_ACTIVITY', data: activity, evt: null, nonce: command.nonce };
  const trace = (direction, payload) => ({ connectionId: `ipc-${c}`, direction, opcode: 1, payload, at: 0, json: Buffer.from(JSON.stringify(payload)) });
  frames.push([trace('in', command), trace('out', reply)]);
}
const run = (n) => {
  for (let i = 0; i < n; i++) {
    const [command, reply] = frames[i % 100];
    log.record(command);
    log.record(reply);
  }
};
const n = Number(process.env.N ?? 1_000_000);
run(50_000);
const start = process.cpuUsage();
run(n);
const cpu = process.cpuUsage(start);
console.log(JSON.stringify({ cpuUsPerFrame: +((cpu.user + cpu.system) / (2 * n)).toFixed(3), kept: log.kept, rssMiB: Math.round(process.memoryUsage().rss / 1048576) }));
