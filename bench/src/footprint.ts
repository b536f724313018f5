/**
 * What an always-on server costs while nothing happens (issue 27 §4), for the arrpc phase:
 * how soon after its spawn a game can connect, and over an idle window how often its threads
 * woke up, how much CPU they used and what stays resident. Linux only (/proc).
 */
import { statSync, readdirSync, readFileSync } from 'node:fs';
import net from 'node:net';
import { cpuSample, memorySample } from './proc.js';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** One connect() to a socket path: whether it was accepted. */
function accepts(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(socketPath);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

function exists(file: string): boolean {
  try {
    statSync(file);
    return true;
  } catch {
    return false;
  }
}

/**
 * Milliseconds from `spawnedAt` (performance.now()) until a connect() to `socketPath` is
 * accepted: the file is looked for every millisecond (no connection is made before it is
 * there, so the server sees one probe, not hundreds), then connect() is tried until it is
 * accepted. Rejects after `timeoutMs`.
 */
export async function msUntilConnectable(socketPath: string, spawnedAt: number, timeoutMs = 20_000): Promise<number> {
  while (performance.now() - spawnedAt < timeoutMs) {
    if (exists(socketPath) && (await accepts(socketPath))) return performance.now() - spawnedAt;
    await sleep(1);
  }
  throw new Error(`${socketPath}: not connectable within ${timeoutMs} ms of the spawn`);
}

/**
 * Context switches of every thread of a process (voluntary and not): each is a thread that
 * went to sleep or was put off the CPU, so over an idle window it counts the wake-ups.
 */
export function contextSwitches(pid: number): number {
  let total = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let status: string;
    try {
      status = readFileSync(`/proc/${pid}/task/${tid}/status`, 'utf8');
    } catch {
      continue; // A thread that ended meanwhile.
    }
    for (const match of status.matchAll(/^(?:non)?voluntary_ctxt_switches:\s+(\d+)$/gm)) total += Number(match[1]);
  }
  return total;
}

export interface IdleFigures {
  /** Context switches of all threads over the window. */
  readonly wakeups: number;
  /** CPU time (utime+stime, all threads) over the window. */
  readonly cpuMs: number;
  /** RSS at the end of the window. */
  readonly rssMiB: number;
}

/** Watches the processes side by side for `seconds` while nothing is asked of them. */
export async function idleWindow(pids: readonly number[], seconds: number): Promise<IdleFigures[]> {
  const before = pids.map((pid) => ({ switches: contextSwitches(pid), cpu: cpuSample(pid).ms }));
  await sleep(seconds * 1000);
  return pids.map((pid, i) => ({
    wakeups: contextSwitches(pid) - (before[i]?.switches ?? 0),
    cpuMs: cpuSample(pid).ms - (before[i]?.cpu ?? 0),
    rssMiB: memorySample(pid).rssMiB,
  }));
}
