import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { WebSocket } from 'ws';
import { DEMO_APP_ID, type PlatformProcess } from './processes.js';

/** A demo user as the emulator's dev login gives them. */
export interface DemoUser {
  readonly id: string;
  readonly token: string;
}

async function json<T>(response: Response, what: string): Promise<T> {
  if (!response.ok) throw new Error(`${what}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** A user's token from the emulator's dev login. */
export async function login(platform: PlatformProcess, username: string): Promise<DemoUser> {
  const response = await fetch(`${platform.url}/api/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ login: username }) });
  const { token, user_id } = await json<{ token: string; user_id: string }>(response, `login ${username}`);
  return { id: user_id, token };
}

/** The emulator's admin routes (`/_emulator`), with the admin token from its platform.json. */
async function admin(platform: PlatformProcess, route: string, body: unknown): Promise<void> {
  const { adminToken } = JSON.parse(await readFile(path.join(platform.dataDir, 'platform.json'), 'utf8')) as { adminToken: string };
  const response = await fetch(`${platform.url}/_emulator/${route}`, {
    method: 'POST',
    headers: { Authorization: `Admin ${adminToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  await json<unknown>(response, `admin ${route}`);
}

/** A new user (beyond the seed's four), friends with `friendOf`. */
export async function createFriend(platform: PlatformProcess, username: string, friendOf: string): Promise<void> {
  await admin(platform, 'users', { username });
  await admin(platform, 'friends', { a: friendOf, b: username });
}

/** A new user (beyond the seed's four), friends with no one. */
export async function createUser(platform: PlatformProcess, username: string): Promise<void> {
  await admin(platform, 'users', { username });
}

/** A user online on the gateway (as their own client would be) until `close()`. */
export interface OnlineUser {
  close(): void;
}

/** Identifies on the gateway with the user's token, online (playing `activities`); resolves at READY, then beats as a client does. */
export async function goOnline(platform: PlatformProcess, user: DemoUser, activities: readonly object[] = []): Promise<OnlineUser> {
  const { url } = await json<{ url: string }>(await fetch(`${platform.url}/api/gateway`), 'gateway');
  const ws = new WebSocket(`${url}?v=10&encoding=json`);
  let seq: number | null = null;
  let beat: NodeJS.Timeout | undefined;
  await new Promise<void>((resolve, reject) => {
    ws.once('error', reject);
    ws.on('message', (data) => {
      const message = JSON.parse(data.toString()) as { op: number; t?: string; s?: number | null; d?: { heartbeat_interval?: number } };
      if (typeof message.s === 'number') seq = message.s;
      if (message.op === 10) {
        beat = setInterval(() => ws.send(JSON.stringify({ op: 1, d: seq })), Math.min(message.d?.heartbeat_interval ?? 10_000, 10_000));
        const presence = { since: null, activities, status: 'online', afk: false };
        ws.send(JSON.stringify({ op: 2, d: { token: user.token, properties: { os: 'linux', browser: 'e2e', device: 'e2e' }, presence } }));
      }
      if (message.op === 1) ws.send(JSON.stringify({ op: 1, d: seq }));
      if (message.op === 0 && message.t === 'READY') resolve();
    });
    ws.once('close', (code) => reject(new Error(`gateway closed ${code} before READY`)));
  });
  return {
    close() {
      clearInterval(beat);
      ws.close(1000);
    },
  };
}

/** `from` writes `content` to `to` in their DM (retrying after the platform's rate limit, as a client would). */
export async function sendDm(platform: PlatformProcess, from: DemoUser, to: DemoUser, content: string): Promise<void> {
  const headers = { Authorization: from.token, 'Content-Type': 'application/json' };
  const channel = await json<{ id: string }>(
    await fetch(`${platform.url}/api/v10/users/@me/channels`, { method: 'POST', headers, body: JSON.stringify({ recipient_id: to.id }) }),
    'DM channel',
  );
  for (;;) {
    const response = await fetch(`${platform.url}/api/v10/channels/${channel.id}/messages`, { method: 'POST', headers, body: JSON.stringify({ content }) });
    if (response.status !== 429) {
      await json<unknown>(response, 'DM');
      return;
    }
    const { retry_after } = (await response.json()) as { retry_after: number };
    await new Promise((resolve) => setTimeout(resolve, Math.ceil(retry_after * 1000) + 50));
  }
}

/** The demo game's own token for a user, with the Social SDK's communication scopes (as authorize + getToken give it). */
export async function gameToken(platform: string, userToken: string): Promise<string> {
  const query = new URLSearchParams({ client_id: DEMO_APP_ID, response_type: 'code', scope: 'identify sdk.social_layer' });
  const authorize = await fetch(`${platform}/api/v10/oauth2/authorize?${query.toString()}`, {
    method: 'POST',
    headers: { Authorization: userToken, 'Content-Type': 'application/json' },
    body: JSON.stringify({ authorize: true, rpc: true }),
  });
  const { code } = (await authorize.json()) as { code: string };
  const exchanged = await fetch(`${platform}/api/v10/oauth2/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', client_id: DEMO_APP_ID, code }),
  });
  return ((await exchanged.json()) as { access_token: string }).access_token;
}
