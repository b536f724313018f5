/**
 * Compatibility: the real npm `discord-rpc` 4.0.1 client against RpcServer over a real Unix
 * socket. The library finds the socket through XDG_RUNTIME_DIR; its IPC parser keeps one
 * frame per `socket.read()` and drops whatever else that read returned, so these tests also
 * catch frames the server lets coalesce.
 */
import { Worker } from 'node:worker_threads';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import DiscordRPC from 'discord-rpc';
import type { ActivityChange } from '../../src/index.js';
import { startTestServer, TEST_IDENTITY, type TestServer } from '../support/test-server.js';
import {
  APP_NAME,
  CLIENT_ID,
  EXPECTED_LOBBY_ACTIVITY,
  expectedFullActivity,
  fullPresence,
  LOBBY_PRESENCE,
  pointClientsAt,
  recordActivities,
  recordFrames,
  Recorder,
  rejectionOf,
  SHORT_STATE_MESSAGE,
  within,
} from './helpers.js';

let ts: TestServer;
let restoreEnv: () => void;
let activities: Recorder<ActivityChange>;
const clients: DiscordRPC.Client[] = [];

beforeEach(async () => {
  ts = await startTestServer({ applicationName: () => APP_NAME });
  restoreEnv = pointClientsAt(ts.dir);
  activities = recordActivities(ts.server);
});

afterEach(async () => {
  for (const client of clients.splice(0)) await closeClient(client);
  await ts.close();
  restoreEnv();
});

/** A new discord-rpc client that has completed the handshake (READY received). */
async function connectedClient(): Promise<DiscordRPC.Client> {
  const client = new DiscordRPC.Client({ transport: 'ipc' });
  clients.push(client);
  await within(client.connect(CLIENT_ID), 3000, 'discord-rpc connect() (READY)');
  return client;
}

function isOpen(client: DiscordRPC.Client): boolean {
  const socket = client.transport.socket;
  return socket !== null && !socket.destroyed;
}

/** destroy() waits for a 'close' that never comes on a dead socket, so only call it on an open one. */
async function closeClient(client: DiscordRPC.Client): Promise<void> {
  if (!isOpen(client)) return;
  try {
    await within(client.destroy(), 2000, 'discord-rpc destroy()');
  } catch {
    client.transport.socket?.destroy();
  }
}


const commandChanges = (change: ActivityChange): boolean => change.cause === 'command';

describe('npm discord-rpc 4.0.1', () => {
  it('connects and reads the READY user', async () => {
    const client = await connectedClient();
    expect(client.user).toStrictEqual({ ...TEST_IDENTITY.user });
    expect(client.user?.['id']).toBe(TEST_IDENTITY.user.id);
    expect(client.user?.['username']).toBe(TEST_IDENTITY.user.username);
    const [connection] = [...ts.server.connections()];
    expect(connection?.state).toBe('ready');
    expect(connection?.clientId).toBe(CLIENT_ID);
  });

  it('sets a full activity: the reply and the server see the normalised activity', async () => {
    const client = await connectedClient();
    const pid = 4242;
    const result = await within(client.setActivity(fullPresence(), pid), 3000, 'setActivity reply');

    const expected = expectedFullActivity();
    expect(result).toStrictEqual(expected);
    const change = await activities.until(commandChanges, 2000, "the server's activity event");
    expect(change.pid).toBe(pid);
    expect(change.connection.pid).toBe(pid);
    expect(change.activity).toEqual(expected);
    // Buttons reach the gateway as labels; their URLs only in metadata.
    expect(change.activity?.buttons).toStrictEqual(['Watch match', 'Join clan']);
    expect(change.activity?.metadata.button_urls).toStrictEqual([
      'https://example.test/watch/42',
      'https://example.test/clan',
    ]);
    // instance: false is sent by the library and adds no flag.
    expect(change.activity?.flags).toBeUndefined();
  });

  it('sets an activity with secrets and a party (no buttons)', async () => {
    const client = await connectedClient();
    const result = await within(client.setActivity({ ...LOBBY_PRESENCE }), 3000, 'setActivity reply');
    expect(result).toStrictEqual(EXPECTED_LOBBY_ACTIVITY);
    const change = await activities.until(commandChanges, 2000, "the server's activity event");
    expect(change.activity).toEqual(EXPECTED_LOBBY_ACTIVITY);
    expect(change.pid).toBe(process.pid);
  });

  it('clears the activity', async () => {
    const client = await connectedClient();
    await within(client.setActivity({ state: 'Playing solo' }), 3000, 'setActivity reply');
    await activities.until((c) => c.cause === 'command' && c.activity !== null, 2000, 'the set');

    const cleared = await within(client.clearActivity(), 3000, 'clearActivity reply');
    expect(cleared).toBeNull();
    const change = await activities.until((c) => c.cause === 'command' && c.activity === null, 2000, 'the clear');
    expect(change.pid).toBe(process.pid);
    expect(change.connection.activity).toBeNull();
    expect(isOpen(client)).toBe(true);
  });

  it('rejects a one-character state with the Joi text and code 4000', async () => {
    const client = await connectedClient();
    const error = await rejectionOf(client.setActivity({ state: 'x', details: 'Fine details' }));
    expect(error.message).toBe(SHORT_STATE_MESSAGE);
    expect(error.code).toBe(4000);
    expect((error as DiscordRPC.RpcRequestError).data).toStrictEqual({ code: 4000, message: SHORT_STATE_MESSAGE });
    expect(activities.items).toHaveLength(0);

    // The connection survives a refused command.
    await within(client.setActivity({ state: 'ok' }), 3000, 'a valid setActivity after the error');
    expect(activities.items.filter(commandChanges)).toHaveLength(1);
  });

  it('rejects secrets together with buttons with 5005', async () => {
    const client = await connectedClient();
    const error = await rejectionOf(
      client.setActivity({
        state: 'In a match',
        joinSecret: 'join-secret-1',
        buttons: [{ label: 'Watch', url: 'https://example.test/watch' }],
      }),
    );
    expect(error.message).toBe('secrets cannot currently be sent with buttons');
    expect(error.code).toBe(5005);
    expect(activities.items).toHaveLength(0);
  });

  it('reconnects: a new client after destroy() works, and the first activity was cleared', async () => {
    const first = await connectedClient();
    await within(first.setActivity({ state: 'First session' }), 3000, 'first setActivity');
    const firstSet = await activities.until(commandChanges, 2000, 'the first activity');
    const firstConnection = firstSet.connection;

    await within(first.destroy(), 3000, 'discord-rpc destroy()');
    const cleared = await activities.until(
      (c) => c.connection === firstConnection && c.activity === null,
      2000,
      'the disconnect clear',
    );
    expect(cleared.cause).toBe('disconnect');
    expect(cleared.pid).toBe(process.pid);

    const second = await connectedClient();
    expect(second.user?.['id']).toBe(TEST_IDENTITY.user.id);
    const result = await within(second.setActivity({ state: 'Second session' }), 3000, 'second setActivity');
    expect(result).toMatchObject({ state: 'Second session', application_id: CLIENT_ID });
    const secondSet = await activities.until(
      (c) => c.cause === 'command' && c.connection !== firstConnection,
      2000,
      'the second activity',
    );
    expect(secondSet.activity?.state).toBe('Second session');
    expect([...ts.server.connections()]).toStrictEqual([secondSet.connection]);
  });

  it('serves 20 clients at once (one worker thread each)', async () => {
    const count = 20;
    const workers = Array.from({ length: count }, (_, index) => startWorker(index));
    try {
      const results = await within(
        Promise.all(workers.map((worker) => worker.activity)),
        10_000,
        'all 20 workers to set their activity',
      );
      for (const [index, result] of results.entries()) {
        expect(result).toMatchObject({
          state: `Player ${index} in lobby`,
          details: `Worker client #${index}`,
          party: { id: `party-${index}`, size: [1, 4] },
          application_id: CLIENT_ID,
        });
      }
      const changes = activities.items.filter(commandChanges);
      expect(changes).toHaveLength(count);
      const connections = new Set(changes.map((change) => change.connection));
      expect(connections.size).toBe(count);
      expect(new Set(changes.map((change) => change.pid))).toStrictEqual(
        new Set(Array.from({ length: count }, (_, index) => 50_000 + index)),
      );
      // All 20 are connected at the same time, each with its own activity.
      const live = [...ts.server.connections()];
      expect(live).toHaveLength(count);
      expect(new Set(live.map((connection) => connection.activity?.state)).size).toBe(count);
    } finally {
      await within(Promise.all(workers.map((worker) => worker.close())), 5000, 'workers to close');
    }
    await activities.count((c) => c.cause === 'disconnect', count, 3000, 'disconnect clears');
  });

  // 4.0.1's subscribe is (event, args), with no callback: a DISPATCH whose nonce matches no
  // request is emitted on the client under its evt name.
  it('delivers a subscribed ACTIVITY_JOIN to the application', async () => {
    const client = await connectedClient();
    const subscription = await within(client.subscribe('ACTIVITY_JOIN'), 3000, 'SUBSCRIBE reply');
    const joins = new Recorder<unknown>();
    client.on('ACTIVITY_JOIN', joins.push);

    expect(ts.server.dispatch('ACTIVITY_JOIN', { secret: 'abc' })).toBe(1);
    expect(await joins.until(() => true, 2000, 'ACTIVITY_JOIN on the client')).toStrictEqual({ secret: 'abc' });

    // Events the app did not subscribe to are not sent.
    expect(ts.server.dispatch('ACTIVITY_SPECTATE', { secret: 'def' })).toBe(0);

    await within(subscription.unsubscribe(), 3000, 'UNSUBSCRIBE reply');
    expect(ts.server.dispatch('ACTIVITY_JOIN', { secret: 'ghi' })).toBe(0);
    expect(joins.items).toHaveLength(1);
  });

  it('the server shutting down ends the client (CLOSE 1000)', async () => {
    const client = await connectedClient();
    const closeFrame = new Promise<unknown>((resolve) => client.transport.once('close', resolve));
    const disconnected = new Promise<void>((resolve) => client.once('disconnected', () => resolve()));
    await within(ts.server.closeAll('Companion is shutting down'), 3000, 'closeAll()');
    expect(await within(closeFrame, 2000, "the transport's close")).toStrictEqual({
      code: 1000,
      message: 'Companion is shutting down',
    });
    await within(disconnected, 2000, "the client's disconnected event");
  });

  describe('one frame per read (the library drops the rest of a coalesced read)', () => {
    it('sees READY on every one of 30 successive connections', async () => {
      for (let attempt = 0; attempt < 30; attempt += 1) {
        const client = await connectedClient();
        expect(client.user?.['id']).toBe(TEST_IDENTITY.user.id);
        await closeClient(client);
      }
    });

    it('receives every one of several events dispatched back to back', async () => {
      const client = await connectedClient();
      await within(client.subscribe('ACTIVITY_JOIN'), 3000, 'SUBSCRIBE reply');
      const joins = new Recorder<unknown>();
      client.on('ACTIVITY_JOIN', joins.push);
      for (let n = 0; n < 5; n += 1) ts.server.dispatch('ACTIVITY_JOIN', { secret: `s${n}` });
      const received = await joins.count(() => true, 5, 3000, 'ACTIVITY_JOIN events');
      expect(received).toStrictEqual([0, 1, 2, 3, 4].map((n) => ({ secret: `s${n}` })));
    });

    it('receives an event dispatched while a command is being handled, as well as the reply', async () => {
      const client = await connectedClient();
      await within(client.subscribe('ACTIVITY_JOIN'), 3000, 'SUBSCRIBE reply');
      const joins = new Recorder<unknown>();
      client.on('ACTIVITY_JOIN', joins.push);
      const frames = recordFrames(ts.server);
      // The host reacts to the activity change by dispatching an event to the same game,
      // while SET_ACTIVITY's reply has not been written yet.
      ts.server.once('activity', () => ts.server.dispatch('ACTIVITY_JOIN', { secret: 'during-command' }));

      const result = await within(client.setActivity({ state: 'Hosting' }), 3000, 'setActivity reply');
      expect(result).toMatchObject({ state: 'Hosting' });
      // The server did emit the event to this connection...
      await frames.until(
        (frame) => frame.direction === 'out' && JSON.stringify(frame.payload).includes('during-command'),
        2000,
        'the event to be sent',
      );
      // ...and the library must get the event too, so it cannot share a read with the reply.
      expect(await joins.until(() => true, 2000, 'ACTIVITY_JOIN on the client')).toStrictEqual({
        secret: 'during-command',
      });
    });
  });
});

interface WorkerHandle {
  readonly activity: Promise<unknown>;
  close(): Promise<void>;
}

/** One discord-rpc client in a worker thread; see discord-rpc-worker.mjs. */
function startWorker(index: number): WorkerHandle {
  const worker = new Worker(new URL('./discord-rpc-worker.mjs', import.meta.url), {
    workerData: { dir: ts.dir, clientId: CLIENT_ID, index, pid: 50_000 + index },
  });
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  const activity = new Promise<unknown>((resolve, reject) => {
    worker.on('message', (message: { type: string; result?: unknown; message?: string }) => {
      if (message.type === 'activity') resolve(message.result);
      if (message.type === 'error') reject(new Error(`worker ${index}: ${message.message ?? ''}`));
    });
    worker.once('error', reject);
    void exited.then(() => reject(new Error(`worker ${index} exited before setting its activity`)));
  });
  activity.catch(() => undefined); // awaited by the test; avoid an unhandled rejection after close
  return {
    activity,
    async close() {
      worker.postMessage('close');
      try {
        await within(exited, 3000, `worker ${index} to exit`);
      } catch {
        await worker.terminate();
      }
    },
  };
}
