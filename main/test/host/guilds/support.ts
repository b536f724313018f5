import { expect } from 'vitest';
import { RawClient } from '../../../../rpc/test/support/raw-client.js';
import { installTestAuthenticate, testToken } from '../../../../rpc/test/support/test-auth.js';
import { startTestServer, type TestServer } from '../../../../rpc/test/support/test-server.js';

export const APP_A = '111111111111111111';
export const APP_B = '222222222222222222';

/** A real RpcServer on a temp Unix socket, with the test-only AUTHENTICATE installed. */
export async function startGuildTestServer(): Promise<TestServer> {
  const ts = await startTestServer();
  installTestAuthenticate(ts.server);
  return ts;
}

/** A ready client of `app`; with `scopes`, it has also sent AUTHENTICATE with them. */
export async function connect(ts: TestServer, app: string, scopes?: readonly string[]): Promise<RawClient> {
  const { client } = await RawClient.ready(ts.path, app);
  if (scopes !== undefined) {
    const reply = await client.request('AUTHENTICATE', { access_token: testToken(app, scopes) });
    expect(reply.evt).toBeNull();
  }
  return client;
}
