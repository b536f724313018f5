import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';

/**
 * The platform emulator, started in-process for the SDK's tests.
 *
 * Why a computed dynamic import: rpc/ may not import platform/ (eslint `no-restricted-imports`
 * on rpc/**), and the rpc TypeScript project has rootDir rpc/ and no reference to platform/,
 * so a static `import ... from '../../../platform/src/index.js'` fails both `eslint rpc` and
 * `tsc -b` (TS6059/TS6307). Vitest resolves this path at run time; the types below are the
 * small part of `PlatformServer` these tests use. Only tests load it; rpc/client never does.
 */
const PLATFORM_ENTRY = ['..', '..', '..', '..', 'platform', 'src', 'index.js'].join('/');
const PLATFORM_OAUTH_WIRE = ['..', '..', '..', '..', 'platform', 'src', 'wire', 'oauth.js'].join('/');
const PLATFORM_STORED_STATE = ['..', '..', '..', '..', 'platform', 'test', 'support', 'stored-state.js'].join('/');

export interface AdminAppView {
  readonly id: string;
  readonly redirect_uris: readonly string[];
  readonly client_secret?: string;
  readonly public_client?: boolean;
}

export interface TestPlatform {
  readonly url: string;
  readonly adminToken: string;
  loginToken(username: string): string;
  readonly admin: {
    apps(): AdminAppView[];
    patchApp(id: string, patch: { redirect_uris?: readonly string[]; public_client?: boolean }): AdminAppView;
    createApp(input: { name: string }): AdminAppView;
  };
  close(): Promise<void>;
}

interface PlatformModule {
  startPlatform(options: { dataDir: string; limits?: Record<string, unknown> }): Promise<TestPlatform>;
  SEED: { appId: string };
}

export interface OAuthWireModule {
  DEFAULT_COMMUNICATION_SCOPES: readonly string[];
  DEFAULT_PRESENCE_SCOPES: readonly string[];
}

export async function loadOAuthWire(): Promise<OAuthWireModule> {
  return (await import(PLATFORM_OAUTH_WIRE)) as OAuthWireModule;
}

/**
 * Turns a stopped emulator's data dir into one an emulator from before the state database left
 * (its state as `state.json`), so a test can edit that file and start on it (it is migrated).
 */
export async function downgradeToStateFile(dataDir: string): Promise<void> {
  const mod = (await import(PLATFORM_STORED_STATE)) as { downgradeToStateFile(dataDir: string): Promise<unknown> };
  await mod.downgradeToStateFile(dataDir);
}

const started: TestPlatform[] = [];
const dirs: string[] = [];

afterEach(async () => {
  for (const platform of started.splice(0)) await platform.close();
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** The seeded demo app's id (public client, redirects `http://127.0.0.1/callback` and `discord-<id>:/authorize/callback`). */
export let SEED_APP_ID = '';

/** An emulator in a temporary data dir (or in `options.dataDir`, which the caller removes), closed (and the dir removed) after the test. */
export async function startTestPlatform(options: { readonly dataDir?: string; readonly limits?: Record<string, unknown> } = {}): Promise<TestPlatform> {
  const mod = (await import(PLATFORM_ENTRY)) as PlatformModule;
  SEED_APP_ID = mod.SEED.appId;
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(os.tmpdir(), 'companion-sdk-')));
  if (options.dataDir === undefined) dirs.push(dataDir);
  const platform = await mod.startPlatform({ dataDir, ...(options.limits !== undefined ? { limits: options.limits } : {}) });
  started.push(platform);
  return platform;
}

/**
 * An authorization code from the RPC flow, as the host gets it: `POST
 * /api/v10/oauth2/authorize?...` with alice's user token and `{authorize: true, rpc: true}`.
 */
export async function rpcAuthorizationCode(platform: TestPlatform, params: Record<string, string>, username = 'alice'): Promise<string> {
  const query = new URLSearchParams({ client_id: SEED_APP_ID, response_type: 'code', ...params });
  const response = await fetch(`${platform.url}/api/v10/oauth2/authorize?${query.toString()}`, {
    method: 'POST',
    headers: { Authorization: platform.loginToken(username), 'Content-Type': 'application/json' },
    body: JSON.stringify({ authorize: true, rpc: true }),
  });
  const body = (await response.json()) as { code?: string };
  if (response.status !== 200 || typeof body.code !== 'string') throw new Error(`authorize failed: ${response.status} ${JSON.stringify(body)}`);
  return body.code;
}

/** An admin route of the emulator (`Admin` token): its JSON answer; a refusal throws with its status and body. */
export async function admin<T>(platform: TestPlatform, method: string, pathname: string, body?: unknown): Promise<T> {
  const response = await fetch(`${platform.url}${pathname}`, {
    method,
    headers: { Authorization: `Admin ${platform.adminToken}`, 'Content-Type': 'application/json' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${pathname}: ${response.status} ${text}`);
  return (text.length > 0 ? JSON.parse(text) : undefined) as T;
}
