/* eslint-disable @typescript-eslint/no-explicit-any -- control API bodies are checked by the tests' own expectations */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { PlatformLimitsInput } from '../../../../platform/src/index.js';
import { CliProcess } from '../../support/cli-process.js';
import { controlGet, type ControlApi } from '../../soak/control-get.js';
import { within } from '../../../../rpc/test/compat/helpers.js';
import { connectGame, DEMO_APP_ID, type Game } from './world.js';

/** One pino record of a process's stderr. */
export interface LogRecord {
  readonly level: number;
  readonly msg: string;
  readonly [field: string]: unknown;
}

/** pino's number for warn. */
export const WARN = 40;

/** The JSON log lines a process has written to stderr so far (other lines are skipped). */
export function logRecords(proc: CliProcess): LogRecord[] {
  const records: LogRecord[] = [];
  for (const line of proc.stderr.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      records.push(JSON.parse(line) as LogRecord);
    } catch {
      // A line still being written.
    }
  }
  return records;
}

/** Polls an async condition (a control API call) until it holds; throws after `timeoutMs`. */
export async function until<T>(probe: () => Promise<T | undefined | false>, what: string, timeoutMs: number, everyMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last instanceof Error ? ` (last error: ${last.message})` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** Waits for a process to end, killing it if it does not within `graceMs` of `signal`. */
async function stopProcess(proc: CliProcess, signal: NodeJS.Signals, graceMs: number): Promise<void> {
  if (proc.child.exitCode !== null || proc.child.signalCode !== null) return;
  proc.kill(signal);
  const timer = setTimeout(() => proc.kill('SIGKILL'), graceMs);
  await proc.exited;
  clearTimeout(timer);
}

/** `companion platform serve` as a real process, in a data dir that outlives restarts. */
export class EmulatorProcess {
  private constructor(
    readonly proc: CliProcess,
    readonly url: string,
  ) {}

  static async start(dataDir: string, port: number, limits: PlatformLimitsInput, track: (proc: CliProcess) => void): Promise<EmulatorProcess> {
    const proc = CliProcess.run(['platform', 'serve', '--port', String(port), '--data', dataDir, '--limits', JSON.stringify(limits)]);
    track(proc);
    const [, url] = await proc.waitForStdout(/listening on (http:\/\/127\.0\.0\.1:\d+)\n/, 20_000);
    return new EmulatorProcess(proc, url as string);
  }

  get pid(): number {
    return this.proc.child.pid as number;
  }

  get port(): number {
    return Number(new URL(this.url).port);
  }

  /** Freezes the whole process: its sockets stay open, nothing is read or answered. */
  pause(): void {
    process.kill(this.pid, 'SIGSTOP');
  }

  resume(): void {
    process.kill(this.pid, 'SIGCONT');
  }

  /** kill -9: no close frames, no state flush, platform.json left behind. */
  async killHard(): Promise<void> {
    this.proc.kill('SIGKILL');
    await this.proc.exited;
  }

  async close(): Promise<void> {
    if (this.proc.child.exitCode === null && this.proc.child.signalCode === null) this.resume(); // a stopped process acts on SIGTERM only once continued
    await stopProcess(this.proc, 'SIGTERM', 3000);
  }
}

interface HostRuntimeFile {
  readonly control: ControlApi;
}

/** The friend as a host's control API shows it. */
export interface FriendSeen {
  readonly user: { readonly id: string; readonly username: string };
  readonly presence: { readonly status: string; readonly activities: readonly any[] };
}

/** `companion serve` as a real process, signed in to `platformUrl` as a demo user. */
export class HostProcess {
  private constructor(
    readonly user: string,
    readonly proc: CliProcess,
    readonly runtimeDir: string,
    readonly ipcPath: string,
    readonly control: ControlApi,
  ) {}

  static async start(user: string, platformUrl: string, dirs: { runtime: string; data: string; config: string }, track: (proc: CliProcess) => void): Promise<HostProcess> {
    const proc = CliProcess.run(
      ['serve', '--platform', platformUrl, '--user', user, '--runtime-dir', dirs.runtime, '--data-dir', dirs.data, '--consent', 'approve'],
      { XDG_CONFIG_HOME: dirs.config },
    );
    track(proc);
    const [, ipcPath] = await proc.waitForStdout(/listening on (\S+)\n/, 20_000);
    await proc.waitForStdout(/Signed in as \S+\n/, 20_000);
    const info = JSON.parse(await readFile(path.join(dirs.runtime, 'companion', 'host.json'), 'utf8')) as HostRuntimeFile;
    const host = new HostProcess(user, proc, dirs.runtime, ipcPath as string, info.control);
    await until(async () => (await host.gateway()).status === 'ready', `${user}'s gateway READY`, 20_000);
    return host;
  }

  /** The gateway's status and detail, from the control API. */
  async gateway(): Promise<{ status: string; detail: string }> {
    const { body } = await controlGet(this.control, '/v1/status');
    return body.gateway as { status: string; detail: string };
  }

  async friends(): Promise<FriendSeen[]> {
    const { body } = await controlGet(this.control, '/v1/friends');
    return body.friends as FriendSeen[];
  }

  /** The state of `friend`'s activity of `applicationId`, as this host sees it. */
  async friendState(friend: string, applicationId = DEMO_APP_ID): Promise<string | undefined> {
    const seen = (await this.friends()).find((candidate) => candidate.user.username === friend);
    return seen?.presence.activities.find((activity) => activity.application_id === applicationId)?.state as string | undefined;
  }

  /** This host's log records with message `msg`. */
  logged(msg: string): LogRecord[] {
    return logRecords(this.proc).filter((record) => record.msg === msg);
  }

  async close(): Promise<void> {
    await stopProcess(this.proc, 'SIGTERM', 3000);
  }
}

/**
 * A standalone emulator and `companion serve` hosts as real processes, in temp dirs. close()
 * ends every process (a paused emulator is continued first) and removes the dirs, also after
 * a failed start.
 */
export class ProcessWorld {
  private readonly procs: CliProcess[] = [];
  private readonly hosts: HostProcess[] = [];
  private readonly games: Game[] = [];
  private readonly dirs: string[] = [];
  private emulator_: EmulatorProcess | undefined;
  private platformDir: string | undefined;

  constructor(private readonly limits: PlatformLimitsInput) {}

  get emulator(): EmulatorProcess {
    if (this.emulator_ === undefined) throw new Error('no emulator started');
    return this.emulator_;
  }

  async startEmulator(): Promise<EmulatorProcess> {
    this.platformDir ??= await this.tempDir('companion-platform-');
    this.emulator_ = await EmulatorProcess.start(this.platformDir, this.emulator_?.port ?? 0, this.limits, (proc) => this.procs.push(proc));
    return this.emulator_;
  }

  /** Starts the emulator again on the same port and data dir (after killHard()). */
  async restartEmulator(): Promise<EmulatorProcess> {
    return this.startEmulator();
  }

  async host(user: string): Promise<HostProcess> {
    const dirs = { runtime: await this.tempDir('companion-rt-'), data: await this.tempDir('companion-data-'), config: await this.tempDir('companion-config-') };
    const host = await HostProcess.start(user, this.emulator.url, dirs, (proc) => this.procs.push(proc));
    this.hosts.push(host);
    return host;
  }

  /** A game (the xhayper client) connected to `host`. */
  async game(host: HostProcess, applicationId = DEMO_APP_ID): Promise<Game> {
    const game = await connectGame(host.runtimeDir, applicationId);
    this.games.push(game);
    return game;
  }

  private async tempDir(prefix: string): Promise<string> {
    const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
    this.dirs.push(dir);
    return dir;
  }

  async close(): Promise<void> {
    await Promise.all(this.games.splice(0).map((game) => within(game.client.destroy(), 2000, 'xhayper destroy()').catch(() => undefined)));
    // Continued first: the hosts' close handshakes need an emulator that answers.
    if (this.emulator_ !== undefined && this.emulator_.proc.child.exitCode === null && this.emulator_.proc.child.signalCode === null) this.emulator_.resume();
    await Promise.all(this.hosts.splice(0).map((host) => host.close()));
    await this.emulator_?.close();
    // Anything left (a start that failed half way): killed.
    await Promise.all(this.procs.splice(0).map((proc) => stopProcess(proc, 'SIGKILL', 1000)));
    await Promise.all(this.dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  }
}
