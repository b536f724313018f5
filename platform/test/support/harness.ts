import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import { startPlatform, type PlatformLimitsInput, type PlatformLogger, type PlatformServer } from '../../src/index.js';

/** A clock tests move by hand. */
export class FakeClock {
  constructor(public time = Date.UTC(2026, 0, 1)) {}
  readonly now = (): number => this.time;
  advance(ms: number): void {
    this.time += ms;
  }
}

/** A logger that keeps every record as one JSON line. */
export function captureLogger(): { logger: PlatformLogger; lines: string[] } {
  const lines: string[] = [];
  const record = (level: string) => (fields: object, msg: string) => lines.push(JSON.stringify({ level, ...fields, msg }));
  return { logger: { debug: record('debug'), info: record('info'), warn: record('warn'), error: record('error') }, lines };
}

const started: PlatformServer[] = [];
const dirs: string[] = [];

afterEach(async () => {
  for (const platform of started.splice(0)) await platform.close();
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

export async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'companion-platform-'));
  dirs.push(dir);
  return dir;
}

export interface TestPlatformOptions {
  readonly dataDir?: string;
  readonly limits?: PlatformLimitsInput;
  readonly clock?: FakeClock;
  readonly strictApps?: boolean;
  readonly logger?: PlatformLogger;
  readonly tls?: { readonly port?: number };
}

/** An emulator in a temp data dir, closed after the test. */
export async function startTestPlatform(options: TestPlatformOptions = {}): Promise<PlatformServer> {
  const platform = await startPlatform({
    dataDir: options.dataDir ?? (await tempDir()),
    ...(options.limits !== undefined ? { limits: options.limits } : {}),
    ...(options.clock !== undefined ? { now: options.clock.now } : {}),
    ...(options.strictApps !== undefined ? { strictApps: options.strictApps } : {}),
    ...(options.logger !== undefined ? { logger: options.logger } : {}),
    ...(options.tls !== undefined ? { tls: options.tls } : {}),
  });
  started.push(platform);
  return platform;
}

/** Closes one of the started emulators now (e.g. to restart it on the same data dir). */
export async function stopTestPlatform(platform: PlatformServer): Promise<void> {
  const index = started.indexOf(platform);
  if (index >= 0) started.splice(index, 1);
  await platform.close();
}

export interface ApiResponse<T = unknown> {
  readonly status: number;
  readonly headers: Headers;
  readonly body: T;
}

/** A real HTTP request to the emulator; `token` is a user token, `admin` uses the admin token. */
export async function api<T = unknown>(
  platform: PlatformServer,
  method: string,
  pathname: string,
  options: { token?: string; admin?: boolean; body?: unknown; rawBody?: string } = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = {};
  if (options.token !== undefined) headers.Authorization = options.token;
  if (options.admin === true) headers.Authorization = `Admin ${platform.adminToken}`;
  // Both are sent as JSON (a JSON route refuses any other type with 415); rawBody may be malformed.
  const body = options.body !== undefined ? JSON.stringify(options.body) : options.rawBody;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(`${platform.url}${pathname}`, { method, headers, ...(body !== undefined ? { body } : {}) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: (text.length > 0 ? JSON.parse(text) : undefined) as T };
}

/**
 * Waits until the server reflects something the test cannot get an event for (e.g. it has
 * seen a TCP drop): polls `condition` every few milliseconds, fails after `timeoutMs`.
 */
export async function serverObserves(condition: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`server did not observe: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
