import { afterEach, describe, expect, it } from 'vitest';
import { Opcode, type ResolvedApplication, type RpcServerOptions } from '../../src/index.js';
import { RawClient } from '../support/raw-client.js';
import { startTestServer, TEST_IDENTITY, type TestServer } from '../support/test-server.js';

const KNOWN = '123456789012345678';
const UNKNOWN = '987654321098765432';
let ts: TestServer | undefined;
afterEach(async () => {
  await ts?.close();
  ts = undefined;
});

async function start(options: Partial<RpcServerOptions>): Promise<TestServer> {
  ts = await startTestServer(options);
  return ts;
}

async function handshake(server: TestServer, clientId: string) {
  const client = await RawClient.connect(server.path);
  client.send(Opcode.Handshake, { v: 1, client_id: clientId });
  return { client, frame: await client.next() };
}

async function activityName(client: RawClient): Promise<unknown> {
  client.send(Opcode.Frame, { cmd: 'SET_ACTIVITY', nonce: 'n1', args: { pid: 1, activity: { state: 'In a match' } } });
  const reply = await client.next();
  return reply.payload.data.name;
}

describe('the handshake asks the platform about the application', () => {
  const registry = (clientId: string): ResolvedApplication | null => (clientId === KNOWN ? { name: 'Registered Game' } : null);

  it('closes an unknown application with 4000 "Invalid Client ID", as the real client does', async () => {
    const server = await start({ resolveApplication: registry });
    const { client, frame } = await handshake(server, UNKNOWN);
    expect(frame).toEqual({ opcode: Opcode.Close, payload: { code: 4000, message: 'Invalid Client ID' } });
    await client.closed;
  });

  it('admits a known application and uses its registered name as the activity default name', async () => {
    const server = await start({ resolveApplication: async (id) => registry(id), applicationName: () => 'placeholder' });
    const { client, frame } = await handshake(server, KNOWN);
    expect(frame.payload.evt).toBe('READY');
    expect(await activityName(client)).toBe('Registered Game');
    client.close();
  });

  it('admits the game under the placeholder name when the lookup fails (platform unreachable)', async () => {
    const server = await start({
      resolveApplication: () => Promise.reject(new Error('ECONNREFUSED')),
      applicationName: (id) => `Application ${id}`,
    });
    const { client, frame } = await handshake(server, UNKNOWN);
    expect(frame.payload.evt).toBe('READY');
    expect(await activityName(client)).toBe(`Application ${UNKNOWN}`);
    client.close();
  });

  it('closes with 1000 "User logged out" while no account is known, and admits once one is', async () => {
    let identity: typeof TEST_IDENTITY | null = null;
    const server = await start({ identity: () => identity });
    const refused = await handshake(server, KNOWN);
    expect(refused.frame).toEqual({ opcode: Opcode.Close, payload: { code: 1000, message: 'User logged out' } });
    await refused.client.closed;

    identity = TEST_IDENTITY;
    const admitted = await handshake(server, KNOWN);
    expect(admitted.frame.payload.data.user).toEqual(TEST_IDENTITY.user);
    admitted.client.close();
  });
});
