/**
 * One Wine session for a test file: its own WINEPREFIX (in a temp dir), set up once to say
 * Windows 10 (Node refuses Wine's default, Windows 7), headless (no DISPLAY: console programs
 * need none), quiet (WINEDEBUG=-all). Programs run in it with WineProcess; end() ends every
 * process of the session (`wineserver -k`) and waits for the server to go.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { WineTools } from './wine-tools.js';
import { WineProcess, type WineRunOptions } from './wine-process.js';

/** The Windows path of a Linux path: Wine maps / to drive Z:. */
export function windowsPath(linuxPath: string): string {
  return `Z:${path.resolve(linuxPath).replace(/\//g, '\\')}`;
}

export class WinePrefix {
  private readonly processes: WineProcess[] = [];

  private constructor(
    readonly dir: string,
    readonly tools: WineTools,
  ) {}

  /** Creates the prefix in `dir` (wineboot) and sets it to Windows 10; about 5 to 15 s. */
  static async create(dir: string, tools: WineTools): Promise<WinePrefix> {
    await mkdir(dir, { recursive: true });
    const prefix = new WinePrefix(dir, tools);
    // No Mono or Gecko installer (they would ask, with a window): console programs need neither.
    prefix.runToEnd(tools.wine, ['wineboot', '--init'], { WINEDLLOVERRIDES: 'mscoree,mshtml=' });
    prefix.runToEnd(tools.wine, ['winecfg', '/v', 'win10']);
    return prefix;
  }

  /** The environment of every program of the session: nothing of the caller's beyond PATH, HOME and the locale. */
  env(extra: Readonly<Record<string, string>> = {}): Record<string, string> {
    const keep = ['PATH', 'HOME', 'LANG', 'USER'].flatMap((name) => (process.env[name] === undefined ? [] : [[name, process.env[name]!]]));
    return { ...Object.fromEntries(keep), WINEPREFIX: this.dir, WINEDEBUG: '-all', ...extra };
  }

  /**
   * Starts `exe` (a Linux path to a Windows program) with `args` as it sees them (Windows
   * paths: windowsPath). Its stdout and stderr go to files: under Wine 8 Node cannot write
   * to a pipe (EBADF).
   */
  run(exe: string, args: readonly string[], options: WineRunOptions): WineProcess {
    const proc = WineProcess.start(this.tools.wine, exe, args, this.env(options.env), options);
    this.processes.push(proc);
    return proc;
  }

  /** Ends every program of the session and the session's wineserver; the prefix stays. */
  async end(): Promise<void> {
    spawnSync(this.tools.wineserver, ['-k'], { env: this.env(), timeout: 30_000 });
    await Promise.all(this.processes.splice(0).map((proc) => proc.exited));
    await new Promise<void>((resolve) => spawn(this.tools.wineserver, ['-w'], { env: this.env(), stdio: 'ignore' }).on('close', () => resolve()));
  }

  /** end(), then the prefix is removed. */
  async remove(): Promise<void> {
    await this.end();
    await rm(this.dir, { recursive: true, force: true });
  }

  private runToEnd(command: string, args: readonly string[], extra: Readonly<Record<string, string>> = {}): void {
    const result = spawnSync(command, args, { env: this.env(extra), encoding: 'utf8', timeout: 120_000 });
    if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed in ${this.dir}: ${(result.stderr || result.error?.message || `exit ${result.status}`).trim()}`);
  }
}
