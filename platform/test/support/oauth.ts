import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';
import type { PlatformServer } from '../../src/index.js';
import type { TokenResponse } from '../../src/wire/index.js';
import { api, type ApiResponse } from './harness.js';

/** A PKCE pair: a fresh verifier and its S256 challenge. */
export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(48).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export function query(params: Readonly<Record<string, string | undefined>>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined) search.set(key, value);
  return search.toString();
}

/** A form-encoded POST (the token endpoints), optionally with HTTP Basic client auth. */
export async function postForm<T = unknown>(
  platform: PlatformServer,
  pathname: string,
  fields: Readonly<Record<string, string | undefined>>,
  options: { basic?: { id: string; secret: string } } = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { 'Content-Type': 'application/x-www-form-urlencoded' };
  if (options.basic !== undefined) headers.Authorization = `Basic ${Buffer.from(`${options.basic.id}:${options.basic.secret}`).toString('base64')}`;
  const response = await fetch(`${platform.url}${pathname}`, { method: 'POST', headers, body: query(fields) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: (text.length > 0 ? JSON.parse(text) : undefined) as T };
}

/** GET with a Bearer token. */
export function bearer<T = unknown>(platform: PlatformServer, pathname: string, accessToken: string): Promise<ApiResponse<T>> {
  return api<T>(platform, 'GET', pathname, { token: `Bearer ${accessToken}` });
}

/** Approves an authorize request through the API as the user (rpc by default) and returns the code. */
export async function authorizeCode(platform: PlatformServer, userToken: string, params: Readonly<Record<string, string | undefined>>, rpc = true): Promise<string> {
  const response = await api<{ code?: string; location?: string }>(platform, 'POST', `/api/v10/oauth2/authorize?${query(params)}`, {
    token: userToken,
    body: { authorize: true, ...(rpc ? { rpc: true } : {}) },
  });
  if (response.status !== 200) throw new Error(`authorize failed: ${response.status} ${JSON.stringify(response.body)}`);
  if (response.body.code !== undefined) return response.body.code;
  const code = new URL(response.body.location as string).searchParams.get('code');
  if (code === null) throw new Error('no code in location');
  return code;
}

/** Authorize + token exchange for a public client (the seeded app by default). */
export async function obtainTokens(
  platform: PlatformServer,
  userToken: string,
  params: Readonly<Record<string, string | undefined>>,
): Promise<TokenResponse> {
  const code = await authorizeCode(platform, userToken, params);
  const response = await postForm<TokenResponse>(platform, '/api/v10/oauth2/token', { grant_type: 'authorization_code', code, client_id: params.client_id });
  if (response.status !== 200) throw new Error(`token failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

export interface ReceivedWebhook {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly status: number;
}

/**
 * A real HTTP webhook receiver; answers each request with the next status of `statuses`
 * (then 204). Status 0: never answers (the connection hangs until closed).
 */
export interface WebhookReceiver {
  readonly url: string;
  readonly received: ReceivedWebhook[];
  /** Resolves when `count` requests have arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedWebhook[]>;
  close(): Promise<void>;
}

const receivers: WebhookReceiver[] = [];
afterEach(async () => {
  for (const receiver of receivers.splice(0)) await receiver.close();
});

export async function startWebhookReceiver(statuses: number[] = []): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const status = statuses.shift() ?? 204;
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), status });
      if (status !== 0) response.writeHead(status).end();
      for (const waiter of [...waiters]) {
        if (received.length >= waiter.count) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve();
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const receiver: WebhookReceiver = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`,
    received,
    waitFor: async (count, timeoutMs = 5000) => {
      if (received.length < count) {
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`webhook receiver got ${received.length} of ${count} requests`)), timeoutMs);
          waiters.push({ count, resolve: () => (clearTimeout(timer), resolve()) });
        });
      }
      return received.slice(0, count);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  receivers.push(receiver);
  return receiver;
}
