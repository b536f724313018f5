import WebSocket from 'ws';
import { afterEach } from 'vitest';
import type { TestPlatform } from './platform.js';

/** The desktop sessions a test opened, closed after it. */
const sockets: WebSocket[] = [];
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.terminate();
});

/** The player's own desktop session (a user token on the gateway) playing with `activities`; resolves at READY. */
export async function desktopSession(platform: TestPlatform, username: string, activities: readonly object[]): Promise<WebSocket> {
  const { url } = (await (await fetch(`${platform.url}/api/v10/gateway`)).json()) as { url: string };
  const socket = new WebSocket(`${url}?v=10&encoding=json`);
  sockets.push(socket);
  await new Promise<void>((resolve, reject) => {
    socket.on('error', reject);
    socket.on('message', (data: WebSocket.RawData) => {
      const message = JSON.parse(String(data)) as { op: number; t?: string };
      if (message.op === 10) {
        const presence = { since: null, activities, status: 'online', afk: false };
        socket.send(JSON.stringify({ op: 2, d: { token: platform.loginToken(username), properties: { os: 'linux', browser: 'test', device: 'test' }, presence } }));
      }
      if (message.t === 'READY') resolve();
    });
  });
  return socket;
}

/** A platform API call with the player's own user token (as their desktop client or Companion makes it); its JSON answer, or a throw with the status. */
export async function asPlayer<T>(platform: TestPlatform, username: string, method: string, pathname: string, body?: unknown): Promise<T> {
  const response = await fetch(`${platform.url}/api/v10${pathname}`, {
    method,
    headers: { Authorization: platform.loginToken(username), 'Content-Type': 'application/json' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${pathname}: ${response.status} ${text}`);
  return (text.length > 0 ? JSON.parse(text) : undefined) as T;
}
