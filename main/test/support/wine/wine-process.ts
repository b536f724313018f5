/**
 * A Windows program running under Wine as a child process of the test: `wine EXE ARGS...`,
 * its stdout and stderr in files (read back while it runs), its stdin a pipe the test may
 * write to or end. The Linux process is the Windows one (Wine's loader becomes the program),
 * so a Linux SIGINT reaches it as Ctrl+C, and SIGKILL or SIGTERM end it at once, as
 * TerminateProcess does on Windows.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';

export interface WineRunOptions {
  /** Where stdout and stderr go (created or truncated). */
  readonly stdout: string;
  readonly stderr: string;
  /**
   * 'pipe': the test writes to stdin (input()). Default 'ignore' (/dev/null): Node under Wine 8
   * fails (EBADF) on a pipe as stdin as soon as the program touches process.stdin.
   */
  readonly stdin?: 'pipe' | 'ignore';
  /** More environment for the program (Wine passes the Linux environment on). */
  readonly env?: Readonly<Record<string, string>>;
}

export class WineProcess {
  /** With the exit code ('close': after the output files were written for the last time). */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private done = false;

  private constructor(
    readonly child: ChildProcess,
    readonly files: { readonly stdout: string; readonly stderr: string },
  ) {
    this.exited = new Promise((resolve) =>
      child.on('close', (code, signal) => {
        this.done = true;
        resolve({ code, signal });
      }),
    );
  }

  static start(wine: string, exe: string, args: readonly string[], env: Record<string, string>, options: WineRunOptions): WineProcess {
    const out = openSync(options.stdout, 'w');
    const err = openSync(options.stderr, 'w');
    try {
      const child = spawn(wine, [exe, ...args], { env, stdio: [options.stdin ?? 'ignore', out, err] });
      return new WineProcess(child, options);
    } finally {
      closeSync(out);
      closeSync(err);
    }
  }

  get stdout(): string {
    return readFileSync(this.files.stdout, 'utf8');
  }

  get stderr(): string {
    return readFileSync(this.files.stderr, 'utf8');
  }

  get running(): boolean {
    return !this.done;
  }

  /** The first match of `pattern` in stdout; throws with both outputs if the program ends first or on timeout. */
  async waitForStdout(pattern: RegExp, timeoutMs = 30_000): Promise<RegExpMatchArray> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const match = this.stdout.match(pattern);
      if (match !== null) return match;
      if (this.done || Date.now() > deadline) {
        throw new Error(`${this.done ? 'ended' : 'timed out'} before printing ${pattern}; stdout: ${this.stdout} stderr: ${this.stderr}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Runs to its end, or is killed after `timeoutMs`; the exit code. */
  async finish(timeoutMs = 30_000): Promise<number | null> {
    const timer = setTimeout(() => this.kill('SIGKILL'), timeoutMs);
    try {
      return (await this.exited).code;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Writes a line to its stdin, or ends stdin when `line` is undefined. */
  input(line?: string): void {
    if (line === undefined) this.child.stdin?.end();
    else this.child.stdin?.write(`${line}\n`);
  }

  kill(signal: NodeJS.Signals): void {
    if (!this.done) this.child.kill(signal);
  }
}
