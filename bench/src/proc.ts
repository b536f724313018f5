/**
 * Process figures from /proc (Linux only): CPU time as utime+stime of /proc/<pid>/stat (all
 * threads, GC helpers included) and resident memory from /proc/<pid>/status.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

let cachedTicks: number | undefined;

/** Clock ticks per second (`getconf CLK_TCK`), 100 if getconf is unavailable. */
export function clockTicks(): number {
  if (cachedTicks !== undefined) return cachedTicks;
  try {
    const value = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
    cachedTicks = Number.isFinite(value) && value > 0 ? value : 100;
  } catch {
    cachedTicks = 100;
  }
  return cachedTicks;
}

export interface CpuSample {
  /** utime+stime in milliseconds, at clock-tick resolution. */
  readonly ms: number;
  /** The kernel part (stime) of `ms`. */
  readonly sysMs: number;
}

export function cpuSample(pid: number): CpuSample {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name, which is in parentheses and may contain spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return { ms: ((utime + stime) * 1000) / clockTicks(), sysMs: (stime * 1000) / clockTicks() };
}

export interface MachineSample {
  /** Busy time of all CPUs (everything but idle and iowait), in ms. */
  readonly busyMs: number;
}

/** Whole-machine CPU use from /proc/stat, to tell how much other processes took in a window. */
export function machineSample(): MachineSample {
  const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0] ?? '';
  const values = line.trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal (guest time is already in user).
  const total = values.slice(0, 8).reduce((a, b) => a + b, 0);
  const idle = (values[3] ?? 0) + (values[4] ?? 0);
  return { busyMs: ((total - idle) * 1000) / clockTicks() };
}

export interface MemorySample {
  readonly rssMiB: number;
  readonly hwmMiB: number;
  readonly threads: number;
}

export function memorySample(pid: number): MemorySample {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string): number => {
    const match = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status);
    return match?.[1] === undefined ? NaN : Number(match[1]);
  };
  const threads = /^Threads:\s+(\d+)/m.exec(status)?.[1];
  return {
    rssMiB: round2(kb('VmRSS') / 1024),
    hwmMiB: round2(kb('VmHWM') / 1024),
    threads: threads === undefined ? 0 : Number(threads),
  };
}

/** Direct children of a process (to notice a server that forks its real work elsewhere). */
export function childPids(pid: number): number[] {
  try {
    const pids: number[] = [];
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const text = readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim();
      if (text.length > 0) pids.push(...text.split(/\s+/).map(Number));
    }
    return pids;
  } catch {
    return [];
  }
}

export function round2(value: number): number {
  return Math.round(value * 100) / 100;
}
