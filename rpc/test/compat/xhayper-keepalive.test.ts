/**
 * xhayper's keepalive: 5 s after connecting, and every 5 s after that, it sends PING with a
 * fresh UUID; a PONG echoing that UUID resets a 30 s timer, and without one it closes the
 * connection as stale. The interval is fixed (the Client does not pass transport options),
 * so this waits for the first real PING: about 5 s. Own file so it runs beside the others.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { Client } from '@xhayper/discord-rpc';
import { Opcode, type FrameTrace } from '../../src/index.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { APP_NAME, CLIENT_ID, pointClientsAt, recordFrames, Recorder, within } from './helpers.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let ts: TestServer;
let restoreEnv: () => void;
let frames: Recorder<FrameTrace>;
let client: Client | undefined;

beforeEach(async () => {
  ts = await startTestServer({ applicationName: () => APP_NAME });
  restoreEnv = pointClientsAt(ts.dir);
  frames = recordFrames(ts.server);
});

afterEach(async () => {
  if (client !== undefined) await within(client.destroy(), 2000, 'xhayper destroy()');
  client = undefined;
  await ts.close();
  restoreEnv();
});

it('answers xhayper PINGs with a PONG echoing the UUID, and the client stays connected', { timeout: 15_000 }, async () => {
  const debug = new Recorder<unknown[]>();
  client = new Client({ clientId: CLIENT_ID });
  client.on('debug', (...data: unknown[]) => debug.push(data));
  await within(client.connect(), 3000, 'xhayper connect() (READY)');
  const connectedAt = Date.now();

  const ping = await frames.until(
    (frame) => frame.direction === 'in' && frame.opcode === Opcode.Ping,
    8000,
    "xhayper's first PING (sent 5 s after connecting)",
  );
  expect(Date.now() - connectedAt).toBeGreaterThan(4000);
  expect(ping.payload).toMatch(UUID);

  // The library's own view: it read a PONG carrying its UUID, and counted it as a heartbeat.
  const pong = await debug.until(
    (data) => data[0] === 'SERVER => CLIENT | OPCODE.PONG |',
    2000,
    'the PONG to reach the client',
  );
  expect(pong[1]).toBe(ping.payload);
  await debug.until((data) => data[0] === 'CLIENT | Heartbeat recieved', 2000, 'xhayper to accept the heartbeat');

  expect(debug.items.some((data) => String(data[0]).includes('stale'))).toBe(false);
  expect(client.isConnected).toBe(true);
  const [connection] = [...ts.server.connections()];
  expect(connection?.state).toBe('ready');

  // And the connection still carries commands after the keepalive exchange.
  const user = client.user;
  if (user === undefined) throw new Error('no READY user');
  const result = await within(user.setActivity({ state: 'Still here' }), 3000, 'setActivity after the PING');
  expect(result).toMatchObject({ state: 'Still here', application_id: CLIENT_ID });
});
