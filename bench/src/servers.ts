/** Server child processes: start, wait for "listening on <path>", stop, and never leak. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';

export interface ExitInfo {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

export interface StopResult extends ExitInfo {
  readonly ms: number;
  /** SIGTERM was not enough: SIGKILL after the grace period. */
  readonly killed: boolean;
}

export class ServerProcess {
  exit: ExitInfo | null = null;
  private readonly exited: Promise<ExitInfo>;

  constructor(
    readonly name: string,
    readonly child: ChildProcess,
    readonly pid: number,
    readonly socketPath: string,
    readonly argv: readonly string[],
    readonly logFile: string,
    exited: Promise<ExitInfo>,
  ) {
    this.exited = exited.then((info) => (this.exit = info));
  }

  get alive(): boolean {
    return this.exit === null;
  }

  async stop(graceMs = 5000): Promise<StopResult> {
    const t0 = Date.now();
    if (this.exit !== null) return { ...this.exit, ms: 0, killed: false };
    this.child.kill('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), graceMs);
    });
    const first = await Promise.race([this.exited, timedOut]);
    clearTimeout(timer);
    if (first !== null) return { ...first, ms: Date.now() - t0, killed: false };
    this.child.kill('SIGKILL');
    const info = await this.exited;
    return { ...info, ms: Date.now() - t0, killed: true };
  }
}

const live = new Set<ChildProcess>();

/** Last resort: whatever happens to the bench, its servers die with it. */
export function killAllNow(): void {
  for (const child of live) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}
process.on('exit', killAllNow);

/** The line a server prints once it accepts connections; group 1 is its socket path (or URL). */
const LISTENING = /listening on (\S.*?)\s*$/m;

/**
 * Spawns `node ...argv` (pinned to `cpus` with taskset when given) and resolves once a stdout line contains `listening on <path>`
 * (or matches `ready`, whose first group is the path). stdout and stderr go to `logFile` (they must be drained so the child never blocks).
 */
export function startServer(
  name: string,
  argv: readonly string[],
  logFile: string,
  options: {
    readonly cpus?: string | undefined;
    readonly timeoutMs?: number;
    /** Extra environment variables (e.g. a temp XDG_CONFIG_HOME), merged over the bench's own. */
    readonly env?: Readonly<Record<string, string>>;
    /** A server that announces itself otherwise (a peer such as arRPC): the line to wait for, group 1 the socket path. */
    readonly ready?: RegExp;
  } = {},
): Promise<ServerProcess> {
  const timeoutMs = options.timeoutMs ?? 20_000;
  return new Promise((resolve, reject) => {
    // taskset execs node in place, so the pid is the server's own.
    const spawnOptions = { stdio: ['ignore', 'pipe', 'pipe'] as ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...options.env } };
    const child =
      options.cpus === undefined
        ? spawn(process.execPath, argv, spawnOptions)
        : spawn('taskset', ['-c', options.cpus, process.execPath, ...argv], spawnOptions);
    live.add(child);
    const log: WriteStream = createWriteStream(logFile);
    let stdoutText = '';
    let tail = '';
    let settled = false;
    const exited = new Promise<ExitInfo>((resolveExit) => {
      child.once('exit', (code, signal) => {
        live.delete(child);
        resolveExit({ code, signal });
      });
    });
    const fail = (why: string): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      reject(new Error(`${name}: ${why}\n--- output ---\n${tail.slice(-2000)}`));
    };
    const timer = setTimeout(() => fail(`no "listening on" line within ${timeoutMs} ms`), timeoutMs);
    const keepTail = (chunk: Buffer): void => {
      log.write(chunk);
      if (!settled) tail = (tail + chunk.toString('utf8')).slice(-8000);
    };
    child.stderr?.on('data', keepTail);
    child.stdout?.on('data', (chunk: Buffer) => {
      keepTail(chunk);
      if (settled) return;
      stdoutText += chunk.toString('utf8');
      const match = (options.ready ?? LISTENING).exec(stdoutText);
      if (match?.[1] === undefined || !stdoutText.slice(match.index).includes('\n')) return;
      settled = true;
      clearTimeout(timer);
      resolve(new ServerProcess(name, child, child.pid as number, match[1], argv, logFile, exited));
    });
    child.once('error', (error) => fail(`spawn failed: ${error.message}`));
    void exited.then((info) => {
      log.end();
      fail(`exited before listening (code ${String(info.code)}, signal ${String(info.signal)})`);
    });
  });
}
