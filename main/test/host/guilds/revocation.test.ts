import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Opcode } from '../../../../rpc/src/index.js';
import type { TestServer } from '../../../../rpc/test/support/test-server.js';
import { closeRevoked } from '../../../src/host/guilds/index.js';
import { APP_A, APP_B, connect, startGuildTestServer } from './support.js';

let ts: TestServer;
beforeEach(async () => {
  ts = await startGuildTestServer();
});
afterEach(async () => ts.close());

describe('closeRevoked', () => {
  it("closes only that application's authenticated connections, with CLOSE 4003 Token revoked", async () => {
    const reasons: string[] = [];
    const twoDisconnects = new Promise<void>((resolve) =>
      ts.server.on('disconnect', (_connection, info) => {
        if (reasons.push(`${info.reason} ${info.code}`) === 2) resolve();
      }),
    );
    const revoked1 = await connect(ts, APP_A, ['rpc']);
    const revoked2 = await connect(ts, APP_A, ['identify']);
    const sameAppNoToken = await connect(ts, APP_A);
    const otherApp = await connect(ts, APP_B, ['rpc']);

    expect(closeRevoked(ts.server, APP_A)).toBe(2);
    for (const client of [revoked1, revoked2]) {
      expect(await client.next()).toEqual({ opcode: Opcode.Close, payload: { code: 4003, message: 'Token revoked' } });
      await client.closed;
    }
    await twoDisconnects;
    expect(reasons).toEqual(['token-revoked 4003', 'token-revoked 4003']);
    for (const client of [sameAppNoToken, otherApp]) {
      expect(client.isOpen).toBe(true);
      expect(await client.request('SET_ACTIVITY', { pid: 1 })).toMatchObject({ evt: null, data: null });
    }
    expect((await otherApp.request('GET_GUILDS', {})).data.code).not.toBe(4006);
  });

  it('goes by the application of the token, not the one of the handshake', async () => {
    const client = await connect(ts, APP_B);
    // A game of app B that authenticated with a token of app A.
    const reply = await client.request('AUTHENTICATE', { access_token: `test:${APP_A}:rpc` });
    expect(reply.evt).toBeNull();
    expect(closeRevoked(ts.server, APP_B)).toBe(0);
    expect(closeRevoked(ts.server, APP_A)).toBe(1);
    expect((await client.next()).payload).toEqual({ code: 4003, message: 'Token revoked' });
  });

  it('returns 0 when nothing matches, and does not count a connection twice', async () => {
    expect(closeRevoked(ts.server, APP_A)).toBe(0);
    const client = await connect(ts, APP_A, ['rpc']);
    expect(closeRevoked(ts.server, APP_A)).toBe(1);
    expect(closeRevoked(ts.server, APP_A)).toBe(0);
    await client.closed;
  });
});
