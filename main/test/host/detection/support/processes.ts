/**
 * Real processes under detectable names, for the detection tests: copies of small system
 * binaries renamed (`sleep` where the arguments do not matter, `bash` waiting on `read` where
 * they do, since it takes any), and `exec -a` for a command line like a Proton game's.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, chmodSync, readFileSync } from 'node:fs';
import path from 'node:path';

export const SLEEP = '/bin/sleep';
export const BASH = '/bin/bash';

/** A started process and how to end it. */
export interface TestProcess {
  readonly pid: number;
  /** Writes to its stdin. */
  write(text: string): void;
  /** Ends it and resolves once it is gone (reaped). */
  kill(): Promise<void>;
}

/** `binary` copied into `dir` as `name` (folders allowed), executable. */
export function renamedCopy(binary: string, dir: string, name: string): string {
  const target = path.join(dir, name);
  copyFileSync(binary, target);
  chmodSync(target, 0o755);
  return target;
}

function argvOf(pid: number): string[] | null {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').slice(0, -1);
  } catch {
    return null;
  }
}

/** Resolves once /proc shows `pid` with argv[0] = `argv0` (after an exec). */
export async function waitForArgv0(pid: number, argv0: string): Promise<void> {
  for (;;) {
    const argv = argvOf(pid);
    if (argv === null) throw new Error(`process ${pid} exited before it ran as ${argv0}`);
    if (argv[0] === argv0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function handle(child: ChildProcess): TestProcess {
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    pid: child.pid ?? -1,
    write: (text) => void child.stdin?.write(text),
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

/**
 * Runs `file` with `args`; argv[0] is `argv0` (through bash's `exec -a`) when given. Stdin is a
 * pipe left open, for `bash -c read` to wait on.
 */
export async function startProcess(file: string, args: readonly string[], options: { argv0?: string; cwd?: string } = {}): Promise<TestProcess> {
  const argv0 = options.argv0 ?? file;
  const child =
    options.argv0 === undefined
      ? spawn(file, [...args], { stdio: ['pipe', 'ignore', 'ignore'], cwd: options.cwd })
      : spawn(BASH, ['-c', 'exec -a "$0" "$@"', argv0, file, ...args], { stdio: ['pipe', 'ignore', 'ignore'], cwd: options.cwd });
  await new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', reject);
  });
  const started = handle(child);
  await waitForArgv0(started.pid, argv0);
  return started;
}

/** A copy of bash named `name` in `dir`, waiting on stdin, with `args` in its command line after `-c read`. */
export function startWaiting(dir: string, name: string, args: readonly string[], options: { cwd?: string } = {}): Promise<TestProcess> {
  return startProcess(renamedCopy(BASH, dir, name), ['-c', 'read', name, ...args], options);
}
