import { closeSync, openSync, readdirSync, readlinkSync, readSync } from 'node:fs';

/** USER_HZ: the unit of /proc/PID/stat's times (sysconf(_SC_CLK_TCK)), 100 on every Linux architecture. */
export const CLOCK_TICKS_PER_SECOND = 100;

/**
 * The few `/proc` reads the Linux scanner makes, synchronous and into one reused buffer: a
 * procfs file is generated on read, so `open`+`read`+`close` is all it takes (no `fstat`, no
 * promise, no trip through libuv's thread pool), and a scan reads only the processes it has not
 * seen before. Every read of a process that may have gone returns null rather than throwing.
 */
export class ProcFiles {
  private buffer = Buffer.allocUnsafe(16 * 1024);

  constructor(private readonly root = '/proc') {}

  /** The PIDs of the running processes (the numeric entries of /proc). */
  pids(): number[] {
    const pids: number[] = [];
    for (const name of readdirSync(this.root)) {
      const first = name.charCodeAt(0);
      if (first < 48 || first > 57) continue;
      const pid = Number(name);
      if (Number.isInteger(pid)) pids.push(pid);
    }
    return pids;
  }

  /** The last PID the kernel handed out (the last field of /proc/loadavg), null if unreadable. */
  lastPid(): number | null {
    const text = this.read(`${this.root}/loadavg`, 256);
    if (text === null) return null;
    const value = Number(text.slice(text.lastIndexOf(' ') + 1));
    return Number.isInteger(value) ? value : null;
  }

  /** Time since boot in clock ticks (USER_HZ, 100 a second on every Linux architecture), null if unreadable. */
  uptimeTicks(): number | null {
    const text = this.read(`${this.root}/uptime`, 256);
    const seconds = text === null ? Number.NaN : Number(text.slice(0, text.indexOf(' ')));
    return Number.isFinite(seconds) ? Math.round(seconds * CLOCK_TICKS_PER_SECOND) : null;
  }

  /** When the process started (`/proc/PID/stat` field 22, clock ticks since boot), null if gone. */
  startTime(pid: number): number | null {
    const stat = this.read(`${this.root}/${pid}/stat`, 4096);
    if (stat === null) return null;
    // The fields after the command name, which is in parentheses and may hold anything.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ', 20);
    const value = Number(fields[19]);
    return Number.isFinite(value) ? value : null;
  }

  /** argv, split at NULs; empty for a kernel thread, a zombie or a process gone. */
  argv(pid: number): string[] {
    const text = this.read(`${this.root}/${pid}/cmdline`, 1024 * 1024);
    if (text === null || text === '') return [];
    return (text.endsWith('\0') ? text.slice(0, -1) : text).split('\0');
  }

  link(pid: number, name: 'exe' | 'cwd'): string | null {
    try {
      return readlinkSync(`${this.root}/${pid}/${name}`);
    } catch {
      return null;
    }
  }

  /** The `.exe` files of a folder (the working directory of a Wine process), at most `max`. */
  exeFiles(folder: string, max: number): string[] {
    try {
      return readdirSync(folder)
        .filter((name) => name.toLowerCase().endsWith('.exe'))
        .slice(0, max);
    } catch {
      return [];
    }
  }

  /** A whole procfs file as UTF-8, at most `limit` bytes; null when it cannot be opened or read. */
  private read(path: string, limit: number): string | null {
    let fd: number;
    try {
      fd = openSync(path, 'r');
    } catch {
      return null;
    }
    try {
      let length = 0;
      for (;;) {
        if (length === this.buffer.length) {
          if (length >= limit) break;
          const bigger = Buffer.allocUnsafe(Math.min(limit, length * 2));
          this.buffer.copy(bigger, 0, 0, length);
          this.buffer = bigger;
        }
        const n = readSync(fd, this.buffer, length, this.buffer.length - length, null);
        if (n === 0) break;
        length += n;
      }
      return this.buffer.toString('utf8', 0, Math.min(length, limit));
    } catch {
      return null;
    } finally {
      closeSync(fd);
      // One huge command line (a Java classpath) must not keep a megabyte for good.
      if (this.buffer.length > 64 * 1024) this.buffer = Buffer.allocUnsafe(16 * 1024);
    }
  }
}
