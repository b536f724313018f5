import { afterEach, expect, vi } from 'vitest';
import { Client } from '../../../client/index.js';
import { getToken } from '../../../client/oauth-http.js';
import { rpcAuthorizationCode, SEED_APP_ID, type TestPlatform } from './platform.js';

/**
 * The SDK games a test opens, each a companion/client Client against the emulator with no
 * Companion running (no sockets), all disconnected after the test.
 */
const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.disconnect();
});

/** A Client for the emulator, not signed in. */
export function newClient(platform: TestPlatform): Client {
  const client = new Client({ platformBase: platform.url, logger: { sink: () => undefined }, connection: { socketPaths: [] } });
  clients.push(client);
  return client;
}

/** A Client holding `accessToken` (updateToken), once its own session to the platform is ready. */
export async function connected(platform: TestPlatform, accessToken: string): Promise<Client> {
  const client = newClient(platform);
  expect((await client.updateToken('Bearer', accessToken)).successful).toBe(true);
  await vi.waitFor(() => expect(client.getPlatformStatus()).toBe('ready'), { timeout: 5000 });
  return client;
}

/** A game for `username` (of the seeded app, with the Social SDK's scope, unless told), ready. */
export async function game(platform: TestPlatform, username: string, options: { readonly scope?: string; readonly applicationId?: string } = {}): Promise<Client> {
  const applicationId = options.applicationId ?? SEED_APP_ID;
  const code = await rpcAuthorizationCode(platform, { client_id: applicationId, scope: options.scope ?? 'identify sdk.social_layer' }, username);
  const token = await getToken({ platformBase: platform.url, applicationId, code, timeoutMs: 5000 });
  return connected(platform, token.accessToken);
}
