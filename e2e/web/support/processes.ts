import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/**
 * Real Companion processes for the web UI's end-to-end tests: `companion serve` hosts and
 * standalone platform emulators, started from the built CLI (bin/companion.js → out/), each
 * in its own temp dirs. `stopAll()` (afterEach) kills every one of them, also after a failure.
 */
export const ROOT = path.resolve(import.meta.dirname, '../../..');
const CLI = path.join(ROOT, 'bin/companion.js');
export const SCREENSHOTS = path.join(ROOT, 'out/screenshots');

/** The demo application every emulator is seeded with (a public client). */
export const DEMO_APP_ID = '1234567890123456789';
export const DEMO_APP_NAME = 'Companion Demo Game';

const START_TIMEOUT_MS = 20_000;
const STOP_GRACE_MS = 5_000;

interface Running {
  readonly name: string;
  readonly child: ChildProcess;
  readonly exited: Promise<void>;
  /** stdout and stderr, for the error message when something goes wrong. */
  output: string;
}

const running = new Set<Running>();
const tempDirs: string[] = [];

// A worker that dies without running afterEach must not leave hosts behind.
process.once('exit', () => {
  for (const { child } of running) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}

function start(name: string, args: readonly string[], env: Readonly<Record<string, string>>, script = CLI): Running {
  const child = spawn(process.execPath, [script, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const proc: Running = { name, child, exited, output: '' };
  const append = (chunk: Buffer): void => {
    proc.output += chunk.toString('utf8');
    if (proc.output.length > 64_000) proc.output = proc.output.slice(-64_000);
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  running.add(proc);
  return proc;
}

/** Resolves with the first match of `pattern` in the process's output; rejects if it exits or times out. */
function waitForOutput(proc: Running, pattern: RegExp): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    const finish = (fn: () => void): void => {
      clearTimeout(timer);
      proc.child.stdout?.off('data', check);
      proc.child.off('exit', onExit);
      fn();
    };
    const check = (): void => {
      const match = pattern.exec(proc.output);
      if (match !== null) finish(() => resolve(match));
    };
    const onExit = (code: number | null, signal: string | null): void =>
      finish(() => reject(new Error(`${proc.name} exited (${code ?? signal}) before printing ${pattern}:\n${proc.output}`)));
    const timer = setTimeout(() => finish(() => reject(new Error(`${proc.name}: no ${pattern} within ${START_TIMEOUT_MS} ms:\n${proc.output}`))), START_TIMEOUT_MS);
    proc.child.stdout?.on('data', check);
    proc.child.once('exit', onExit);
    check();
  });
}

export interface PlatformProcess {
  readonly url: string;
  /** Its data dir (its `platform.json` holds the admin token). */
  readonly dataDir: string;
}

/**
 * A standalone emulator (`companion platform serve --port 0`), seeded with alice, bob, carol, dave;
 * `limits` overrides some of its limits for the test (`--limits`, the QA switch).
 */
export async function startPlatform(limits?: Readonly<Record<string, number>>): Promise<PlatformProcess> {
  const dir = await tempDir('companion-e2e-platform-');
  const dataDir = path.join(dir, 'data');
  const args = ['platform', 'serve', '--port', '0', '--data', dataDir, ...(limits === undefined ? [] : ['--limits', JSON.stringify(limits)])];
  const proc = start('platform', args, { XDG_CONFIG_HOME: path.join(dir, 'config') });
  const [, url] = await waitForOutput(proc, /listening on (http:\/\/127\.0\.0\.1:\d+)/);
  return { url: url as string, dataDir };
}

interface HostFile {
  readonly ipc: { readonly path: string } | null;
  readonly webUi?: { readonly url: string; readonly token: string };
  readonly platform?: { readonly url: string };
}

export interface HostProcess {
  readonly user: string;
  readonly runtimeDir: string;
  /** The game socket (`<runtime dir>/discord-ipc-0`). */
  readonly ipcPath: string;
  /** `http://127.0.0.1:PORT/`: refused without the token. */
  readonly baseUrl: string;
  readonly token: string;
  /** What a user opens once: the token becomes the session cookie. */
  readonly openUrl: string;
  /** The platform this host signed in to (its embedded emulator, or the one given). */
  readonly platformUrl: string;
}

export interface HostOptions {
  /** A standalone emulator's URL; default the host's embedded one. */
  readonly platform?: string;
  /** Sign in as this demo user (only with `platform`; the embedded emulator signs in alice). */
  readonly user?: string;
  /** A script that takes serve's options instead of `companion serve` (a host with test-only tuning), and its environment. */
  readonly serve?: { readonly script: string; readonly env: Readonly<Record<string, string>> };
}

/** `companion serve --consent prompt` in temp dirs; resolves once it has signed in and written host.json. */
export async function startHost(options: HostOptions = {}): Promise<HostProcess> {
  const dir = await tempDir('companion-e2e-host-');
  const runtimeDir = path.join(dir, 'rt');
  const args = [...(options.serve === undefined ? ['serve'] : []), '--runtime-dir', runtimeDir, '--data-dir', path.join(dir, 'data'), '--consent', 'prompt'];
  if (options.platform !== undefined) args.push('--platform', options.platform);
  if (options.user !== undefined) args.push('--user', options.user);
  const env = { XDG_CONFIG_HOME: path.join(dir, 'config'), XDG_RUNTIME_DIR: runtimeDir, ...options.serve?.env };
  const proc = start(`host ${options.user ?? 'alice'}`, args, env, options.serve?.script);
  const [, user] = await waitForOutput(proc, /Signed in as (\S+)/);
  const info = JSON.parse(await readFile(path.join(runtimeDir, 'companion', 'host.json'), 'utf8')) as HostFile;
  if (info.ipc === null || info.webUi === undefined || info.platform === undefined) {
    throw new Error(`host.json lacks ipc, webUi or platform: ${JSON.stringify({ ipc: info.ipc, webUi: info.webUi !== undefined, platform: info.platform })}`);
  }
  const baseUrl = info.webUi.url;
  return {
    user: user as string,
    runtimeDir,
    ipcPath: info.ipc.path,
    baseUrl,
    token: info.webUi.token,
    openUrl: `${baseUrl}?token=${encodeURIComponent(info.webUi.token)}`,
    platformUrl: info.platform.url,
  };
}

/** SIGTERM every process started here (SIGKILL after a grace period), then removes the temp dirs. */
export async function stopAll(): Promise<void> {
  const procs = [...running];
  running.clear();
  await Promise.all(
    procs.map(async ({ child, exited }) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
      await exited;
      clearTimeout(timer);
    }),
  );
  await Promise.all(tempDirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
}

/** A process's output, for a failing test's message. */
export function outputs(): string {
  return [...running].map((proc) => `--- ${proc.name}\n${proc.output}`).join('\n');
}
