import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { knownProcessesFile, ProcessListError } from './windows-process-list.js';
import { PROCESS_LIST_SCRIPT } from './windows-process-list-script.js';

/** What a run of the script printed, and the PID of the process that ran it (not a process to report). */
export interface ProcessListOutput {
  readonly output: string;
  readonly pid?: number | undefined;
}

/** Runs the process-list script: `known` null for every process in full. */
export interface ProcessListRunner {
  list(known: ReadonlyMap<number, string> | null): Promise<ProcessListOutput>;
  close?(): void;
}

/** A scan that takes longer is cut short (the scan fails; the next one is still scheduled). */
const LIST_TIMEOUT_MS = 30_000;
/** After the script exited without its end line, how long its output may still take to arrive. */
const OUTPUT_GRACE_MS = 1000;

/** The script's output is whole once its end line is in. */
function whole(output: string): boolean {
  return output.endsWith('\n.\r\n') || output === '.\r\n' || output.endsWith('\n.\n') || output === '.\n';
}

/**
 * Runs `command` to its end, its stdout the result (Latin-1: the script writes ASCII). Settles on
 * the exit once the end line is in, not on the pipe's close: under Wine 8 the close of a child's
 * stdout is sometimes never reported to node.exe, though the output and the exit are.
 */
function runForOutput(command: string, args: readonly string[], timeoutMs: number): Promise<ProcessListOutput> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'ignore'], windowsHide: true });
    let output = '';
    let exited = false;
    let settled = false;
    const timers: NodeJS.Timeout[] = [];
    const settle = (error: Error | null): void => {
      if (settled) return;
      settled = true;
      for (const timer of timers) clearTimeout(timer);
      child.stdout.destroy();
      if (error === null) resolve({ output, pid: child.pid });
      else reject(error);
    };
    timers.push(
      setTimeout(() => {
        child.kill();
        settle(new ProcessListError(`process list: cscript took over ${timeoutMs} ms`));
      }, timeoutMs),
    );
    child.stdout.setEncoding('latin1');
    child.stdout.on('data', (chunk: string) => {
      output += chunk;
      if (exited && whole(output)) settle(null);
    });
    child.on('error', (error) => settle(new ProcessListError(`process list: cscript failed to start: ${error.message}`)));
    child.on('exit', () => {
      exited = true;
      if (whole(output)) settle(null);
      else timers.push(setTimeout(() => settle(null), OUTPUT_GRACE_MS));
    });
    child.on('close', () => settle(null));
  });
}

/** `cscript.exe` from the system folder (not from PATH, which another program may have put one first on). */
function systemCscript(env: NodeJS.ProcessEnv = process.env): string {
  return path.win32.join(env['SystemRoot'] ?? env['windir'] ?? 'C:\\Windows', 'System32', 'cscript.exe');
}

/** The script run by cscript.exe, from a private temp folder (the script and the known-processes file), removed by close() and at exit. */
export class CscriptProcessList implements ProcessListRunner {
  private dir: string | null = null;
  private readonly removeAtExit = (): void => this.close();

  constructor(
    private readonly options: { readonly cscript?: string; readonly tempRoot?: string; readonly timeoutMs?: number } = {},
  ) {}

  async list(known: ReadonlyMap<number, string> | null): Promise<ProcessListOutput> {
    const dir = this.folder();
    const args = ['//NoLogo', '//B', path.join(dir, 'process-list.vbs')];
    if (known !== null && known.size > 0) {
      const file = path.join(dir, 'known.txt');
      writeFileSync(file, knownProcessesFile(known));
      args.push(file);
    }
    return runForOutput(this.options.cscript ?? systemCscript(), args, this.options.timeoutMs ?? LIST_TIMEOUT_MS);
  }

  close(): void {
    if (this.dir === null) return;
    rmSync(this.dir, { recursive: true, force: true });
    this.dir = null;
    process.off('exit', this.removeAtExit);
  }

  private folder(): string {
    if (this.dir !== null) return this.dir;
    const dir = mkdtempSync(path.join(this.options.tempRoot ?? os.tmpdir(), 'companion-processes-'));
    writeFileSync(path.join(dir, 'process-list.vbs'), PROCESS_LIST_SCRIPT.replaceAll('\n', '\r\n'));
    this.dir = dir;
    process.on('exit', this.removeAtExit);
    return dir;
  }
}

