/**
 * Compatibility: the real `@xhayper/discord-rpc` 1.5.1 client against RpcServer over a real
 * Unix socket. The library finds the socket through realpath(XDG_RUNTIME_DIR). Its keepalive
 * (PING every 5 s) has its own, slower test file: xhayper-keepalive.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Client } from '@xhayper/discord-rpc';
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
  Recorder,
  rejectionOf,
  SHORT_STATE_MESSAGE,
  within,
} from './helpers.js';

let ts: TestServer;
let restoreEnv: () => void;
let activities: Recorder<ActivityChange>;
const clients: Client[] = [];

beforeEach(async () => {
  ts = await startTestServer({ applicationName: () => APP_NAME });
  restoreEnv = pointClientsAt(ts.dir);
  activities = recordActivities(ts.server);
});

afterEach(async () => {
  // destroy() also stops the 5 s heartbeat interval, which would otherwise keep running.
  await Promise.all(clients.splice(0).map((client) => within(client.destroy(), 2000, 'xhayper destroy()')));
  await ts.close();
  restoreEnv();
});

function newClient(): Client {
  const client = new Client({ clientId: CLIENT_ID });
  clients.push(client);
  return client;
}

/** A new xhayper client that has completed the handshake (READY received). */
async function connectedClient(): Promise<Client> {
  const client = newClient();
  await within(client.connect(), 3000, 'xhayper connect() (READY)');
  return client;
}

/** The ClientUser READY produced; every activity call goes through it. */
function userOf(client: Client): NonNullable<Client['user']> {
  const user = client.user;
  if (user === undefined) throw new Error('the client has no user: READY was not handled');
  return user;
}


const commandChanges = (change: ActivityChange): boolean => change.cause === 'command';

describe('@xhayper/discord-rpc 1.5.1', () => {
  it('connects and reads the READY user', async () => {
    const client = await connectedClient();
    expect(client.isConnected).toBe(true);
    const user = userOf(client);
    expect(user.id).toBe(TEST_IDENTITY.user.id);
    expect(user.username).toBe(TEST_IDENTITY.user.username);
    expect(user.discriminator).toBe(TEST_IDENTITY.user.discriminator);
    expect(user.avatar).toBeNull();
    const [connection] = [...ts.server.connections()];
    expect(connection?.state).toBe('ready');
    expect(connection?.clientId).toBe(CLIENT_ID);
  });

  it('sets a full activity: the reply and the server see the normalised activity', async () => {
    const client = await connectedClient();
    const pid = 4343;
    const result = await within(userOf(client).setActivity(fullPresence(), pid), 3000, 'setActivity reply');

    const expected = expectedFullActivity();
    expect(result).toStrictEqual(expected);
    const change = await activities.until(commandChanges, 2000, "the server's activity event");
    expect(change.pid).toBe(pid);
    expect(change.activity).toEqual(expected);
    expect(change.activity?.buttons).toStrictEqual(['Watch match', 'Join clan']);
    expect(change.activity?.metadata.button_urls).toStrictEqual([
      'https://example.test/watch/42',
      'https://example.test/clan',
    ]);
    // xhayper also sends created_at and instance: false; neither shows in the activity.
    expect(change.activity).not.toHaveProperty('created_at');
    expect(change.activity?.flags).toBeUndefined();
  });

  it('uses the name and type the game gives', async () => {
    const client = await connectedClient();
    const result = await within(
      userOf(client).setActivity({ name: 'Custom Name', type: 2, state: 'Listening along' }),
      3000,
      'setActivity reply',
    );
    expect(result).toMatchObject({ name: 'Custom Name', type: 2, state: 'Listening along' });
  });

  it("accepts xhayper's newer fields (URLs, status display type, supported platforms, instance)", async () => {
    const client = await connectedClient();
    const result = await within(
      userOf(client).setActivity({
        type: 3,
        state: 'Episode 4',
        stateUrl: 'https://example.test/show/4',
        details: 'Watching a show',
        detailsUrl: 'https://example.test/show',
        largeImageKey: 'show_cover',
        largeImageUrl: 'https://example.test/cover',
        statusDisplayType: 2,
        supportedPlatforms: ['web'],
        instance: true,
      }),
      3000,
      'setActivity reply',
    );
    expect(result).toStrictEqual({
      name: APP_NAME,
      type: 3,
      application_id: CLIENT_ID,
      platform: 'desktop',
      state: 'Episode 4',
      state_url: 'https://example.test/show/4',
      details: 'Watching a show',
      details_url: 'https://example.test/show',
      assets: { large_image: 'show_cover', large_url: 'https://example.test/cover' },
      status_display_type: 2,
      supported_platforms: ['web'],
      flags: 1, // INSTANCE
      metadata: {},
    });
  });

  it('sets an activity with secrets and a party (no buttons)', async () => {
    const client = await connectedClient();
    const result = await within(userOf(client).setActivity({ ...LOBBY_PRESENCE }), 3000, 'setActivity reply');
    expect(result).toStrictEqual(EXPECTED_LOBBY_ACTIVITY);
    const change = await activities.until(commandChanges, 2000, "the server's activity event");
    expect(change.activity).toEqual(EXPECTED_LOBBY_ACTIVITY);
    expect(change.pid).toBe(process.pid);
  });

  it('clears the activity', async () => {
    const client = await connectedClient();
    await within(userOf(client).setActivity({ state: 'Playing solo' }), 3000, 'setActivity reply');
    await activities.until((c) => c.cause === 'command' && c.activity !== null, 2000, 'the set');

    await within(userOf(client).clearActivity(), 3000, 'clearActivity reply');
    const change = await activities.until((c) => c.cause === 'command' && c.activity === null, 2000, 'the clear');
    expect(change.pid).toBe(process.pid);
    expect(change.connection.activity).toBeNull();
    expect(client.isConnected).toBe(true);
  });

  it('rejects a one-character state with the Joi text and code 4000', async () => {
    const client = await connectedClient();
    const error = await rejectionOf(userOf(client).setActivity({ state: 'x', details: 'Fine details' }));
    expect(error.message).toBe(SHORT_STATE_MESSAGE);
    expect(error.code).toBe(4000);
    expect(activities.items).toHaveLength(0);

    // The connection survives a refused command.
    expect(client.isConnected).toBe(true);
    await within(userOf(client).setActivity({ state: 'ok' }), 3000, 'a valid setActivity after the error');
    expect(activities.items.filter(commandChanges)).toHaveLength(1);
  });

  it('rejects secrets together with buttons with 5005', async () => {
    const client = await connectedClient();
    const error = await rejectionOf(
      userOf(client).setActivity({
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
    await within(userOf(first).setActivity({ state: 'First session' }), 3000, 'first setActivity');
    const firstConnection = (await activities.until(commandChanges, 2000, 'the first activity')).connection;

    await within(first.destroy(), 2000, 'xhayper destroy()');
    const cleared = await activities.until(
      (c) => c.connection === firstConnection && c.activity === null,
      2000,
      'the disconnect clear',
    );
    expect(cleared.cause).toBe('disconnect');
    expect(cleared.pid).toBe(process.pid);

    const second = await connectedClient();
    expect(userOf(second).id).toBe(TEST_IDENTITY.user.id);
    const result = await within(userOf(second).setActivity({ state: 'Second session' }), 3000, 'second setActivity');
    expect(result).toMatchObject({ state: 'Second session', application_id: CLIENT_ID });
    const secondSet = await activities.until(
      (c) => c.cause === 'command' && c.connection !== firstConnection,
      2000,
      'the second activity',
    );
    expect([...ts.server.connections()]).toStrictEqual([secondSet.connection]);
  });

  it('reconnects the same Client object after destroy()', async () => {
    const client = await connectedClient();
    await within(client.destroy(), 2000, 'xhayper destroy()');
    await within(client.connect(), 3000, 'xhayper connect() again');
    expect(userOf(client).id).toBe(TEST_IDENTITY.user.id);
    await within(userOf(client).setActivity({ state: 'Back again' }), 3000, 'setActivity after reconnecting');
    const change = await activities.until(commandChanges, 2000, "the server's activity event");
    expect(change.activity?.state).toBe('Back again');
  });

  it('serves 20 clients at once in one process', async () => {
    const count = 20;
    const group = Array.from({ length: count }, () => newClient());
    await within(Promise.all(group.map((client) => client.connect())), 5000, 'all 20 to connect');
    const results = await within(
      Promise.all(
        group.map((client, index) =>
          userOf(client).setActivity(
            { state: `Player ${index} in lobby`, details: `Client #${index}`, partyId: `party-${index}`, partySize: 1, partyMax: 4 },
            60_000 + index,
          ),
        ),
      ),
      5000,
      'all 20 replies',
    );
    for (const [index, result] of results.entries()) {
      expect(result).toMatchObject({
        state: `Player ${index} in lobby`,
        details: `Client #${index}`,
        party: { id: `party-${index}`, size: [1, 4] },
        application_id: CLIENT_ID,
      });
    }
    const changes = activities.items.filter(commandChanges);
    expect(changes).toHaveLength(count);
    expect(new Set(changes.map((change) => change.connection)).size).toBe(count);
    // Each connection carries the activity its own client set (pid ties them together).
    for (const change of changes) {
      const index = (change.pid ?? 0) - 60_000;
      expect(change.activity?.state).toBe(`Player ${index} in lobby`);
    }
    const live = [...ts.server.connections()];
    expect(live).toHaveLength(count);
    expect(new Set(live.map((connection) => connection.activity?.state)).size).toBe(count);
  });

  it('delivers a subscribed ACTIVITY_JOIN to the application', async () => {
    const client = await connectedClient();
    const subscription = await within(client.subscribe('ACTIVITY_JOIN'), 3000, 'SUBSCRIBE reply');
    const joins = new Recorder<unknown>();
    client.on('ACTIVITY_JOIN', joins.push);

    expect(ts.server.dispatch('ACTIVITY_JOIN', { secret: 'abc' })).toBe(1);
    expect(await joins.until(() => true, 2000, 'ACTIVITY_JOIN on the client')).toStrictEqual({ secret: 'abc' });
    expect(ts.server.dispatch('ACTIVITY_SPECTATE', { secret: 'def' })).toBe(0);

    // Typed `() => void`, but it returns the UNSUBSCRIBE request's promise.
    await within(Promise.resolve(subscription.unsubscribe()), 3000, 'UNSUBSCRIBE reply');
    expect(ts.server.dispatch('ACTIVITY_JOIN', { secret: 'ghi' })).toBe(0);
    expect(joins.items).toHaveLength(1);
  });

  it('the server closing the connection ends the client (CLOSE 1000)', async () => {
    const client = await connectedClient();
    const disconnected = new Promise<void>((resolve) => client.once('disconnected', () => resolve()));
    await ts.server.closeAll('bye');
    await within(disconnected, 2000, "the client's disconnected event");
    expect(client.isConnected).toBe(false);
  });

  it('shutting down with 20 clients connected ends them all, without a process warning', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error): void => {
      warnings.push(warning);
    };
    process.on('warning', onWarning);
    try {
      const group = Array.from({ length: 20 }, () => newClient());
      await within(Promise.all(group.map((client) => client.connect())), 5000, 'all 20 to connect');
      const disconnected = group.map(
        (client) => new Promise<void>((resolve) => client.once('disconnected', () => resolve())),
      );
      await within(ts.server.closeAll(), 3000, 'closeAll()');
      await within(Promise.all(disconnected), 3000, 'every client to see the close');
      // Process warnings are emitted on a later tick.
      await new Promise<void>((resolve) => setImmediate(resolve));
      expect(warnings.map((warning) => `${warning.name}: ${warning.message}`)).toStrictEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });
});
