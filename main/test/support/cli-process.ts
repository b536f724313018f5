import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import { afterEach } from 'vitest';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** The built `companion` command (or `npm start`'s launcher) running as a real process. */
export class CliProcess {
  stdout = '';
  stderr = '';
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  private constructor(readonly child: ChildProcessWithoutNullStreams) {
    child.stdout.setEncoding('utf8').on('data', (text: string) => (this.stdout += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (this.stderr += text));
    // 'close', not 'exit': it comes after stdout and stderr have been read to the end.
    this.exited = new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
  }

  static run(args: readonly string[], env: Record<string, string | undefined> = {}, script = 'bin/companion.js'): CliProcess {
    const child = spawn(process.execPath, [path.join(REPO_ROOT, script), ...args], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    });
    return new CliProcess(child);
  }

  /** Resolves with the first stdout match; rejects if the process exits first or on timeout. */
  async waitForStdout(pattern: RegExp, timeoutMs = 10_000): Promise<RegExpMatchArray> {
    const deadline = Date.now() + timeoutMs;
    let exited = false;
    void this.exited.then(() => (exited = true));
    for (;;) {
      const match = this.stdout.match(pattern);
      if (match !== null) return match;
      if (exited) throw new Error(`process exited before printing ${pattern}; stdout: ${this.stdout} stderr: ${this.stderr}`);
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${pattern}; stdout: ${this.stdout} stderr: ${this.stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /** Runs to completion and returns the exit code. */
  static async complete(args: readonly string[], env: Record<string, string | undefined> = {}): Promise<CliProcess & { code: number | null }> {
    const proc = CliProcess.run(args, env);
    const { code } = await proc.exited;
    return Object.assign(proc, { code });
  }

  kill(signal: NodeJS.Signals = 'SIGTERM'): void {
    if (this.child.exitCode === null) this.child.kill(signal);
  }
}

/**
 * Per-file cleanup for tests that start CLI processes and make temp dirs: registers an
 * afterEach that kills every tracked process and removes every dir made through `dir()`.
 */
export function cliCleanup(prefix: string): { track(proc: CliProcess): CliProcess; dir(): Promise<string> } {
  const procs: CliProcess[] = [];
  const dirs: string[] = [];
  afterEach(async () => {
    for (const proc of procs.splice(0)) {
      proc.kill('SIGKILL');
      await proc.exited;
    }
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  });
  return {
    track(proc) {
      procs.push(proc);
      return proc;
    },
    async dir() {
      const made = await mkdtemp(path.join(os.tmpdir(), prefix));
      dirs.push(made);
      return made;
    },
  };
}

/**
 * A seeded user's token from a running emulator (its dev login), for tests that need one: the
 * emulator's state is a database now, not a JSON file to read.
 */
export async function devLoginToken(platformUrl: string, username: string): Promise<string> {
  return (await devLogin(platformUrl, username)).token;
}

/** A seeded user's id and token from a running emulator (its dev login). */
export async function devLogin(platformUrl: string, username: string): Promise<{ id: string; token: string }> {
  const response = await fetch(`${platformUrl}/api/v10/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ login: username }) });
  if (!response.ok) throw new Error(`dev login of ${username}: ${response.status}`);
  const body = (await response.json()) as { user_id: string; token: string };
  return { id: body.user_id, token: body.token };
}

/** The emulator's apps as its admin API shows them (client secrets included). */
export async function adminApps(platformUrl: string, adminToken: string): Promise<{ id: string; client_secret: string }[]> {
  const response = await fetch(`${platformUrl}/_emulator/apps`, { headers: { authorization: `Admin ${adminToken}` } });
  if (!response.ok) throw new Error(`GET /_emulator/apps: ${response.status}`);
  return (await response.json()) as { id: string; client_secret: string }[];
}
