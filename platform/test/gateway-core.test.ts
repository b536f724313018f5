import { describe, expect, it } from 'vitest';
import { SEED } from '../src/index.js';
import type { PresenceUpdateEvent, WireActivity } from '../src/wire/index.js';
import { GatewayClient, isDispatch, isOp } from './support/gateway-client.js';
import { startTestPlatform } from './support/harness.js';

const GAME: WireActivity = {
  name: 'Companion Demo Game',
  type: 0,
  application_id: SEED.appId,
  state: 'In a party',
  party: { id: 'party-1', size: [1, 4] },
  secrets: { join: 'join-secret-1', spectate: 'spectate-secret-1' },
  buttons: [{ label: 'Website', url: 'https://example.com/' }],
};

describe('gateway: hello, identify, ready', () => {
  it('sends Hello with the heartbeat interval, then READY with the documented shape', async () => {
    const platform = await startTestPlatform({ limits: { heartbeatIntervalMs: 12_345 } });
    const client = await GatewayClient.open(platform.gatewayUrl);
    const hello = await client.next();
    expect(hello).toEqual({ op: 10, d: { heartbeat_interval: 12_345 }, s: null, t: null });

    const ready = await client.identify(platform.loginToken('alice'));
    const readyMessage = client.dispatches('READY')[0];
    expect(readyMessage?.s).toBe(1);
    expect(ready.v).toBe(10);
    expect(ready.user).toEqual({
      id: SEED.users.alice,
      username: 'alice',
      discriminator: '0',
      global_name: 'Alice',
      avatar: null,
      bot: false,
      flags: 0,
      premium_type: 0,
    });
    expect(ready.session_id).toMatch(/^[0-9a-f]{32}$/);
    expect(ready.resume_gateway_url).toBe(platform.gatewayUrl);
    expect(ready.relationships.map((r) => r.user.username).sort()).toEqual(['bob', 'carol', 'dave']);
    expect(ready.relationships.every((r) => r.type === 1)).toBe(true);
    expect(ready.guilds).toHaveLength(1);
    expect(ready.guilds[0]).toMatchObject({ id: SEED.guildId, name: 'Companion Lounge', owner_id: SEED.users.alice, member_count: 4 });
    expect(ready.guilds[0]?.channels.map((c) => [c.name, c.type])).toEqual([
      ['general', 0],
      ['Voice', 2],
      ['Party', 2],
    ]);
    expect(ready.private_channels).toEqual([]);
    expect(ready.presences).toEqual([]);
  });

  it('lists online friends in READY presences, without secrets', async () => {
    const platform = await startTestPlatform();
    const { client: bob } = await GatewayClient.ready(platform.gatewayUrl, platform.loginToken('bob'), { since: null, activities: [GAME], status: 'dnd', afk: false });
    await bob.barrier();
    const { ready } = await GatewayClient.ready(platform.gatewayUrl, platform.loginToken('alice'));
    expect(ready.presences).toHaveLength(1);
    const presence = ready.presences[0] as PresenceUpdateEvent;
    expect(presence).toMatchObject({ user: { id: SEED.users.bob }, status: 'dnd', client_status: { desktop: 'dnd' } });
    expect(presence.activities[0]?.secrets).toBeUndefined();
    expect(JSON.stringify(ready)).not.toContain('join-secret-1');
  });

  it('accepts v=9, and a missing v or encoding as v10 json', async () => {
    const platform = await startTestPlatform();
    const v9 = await GatewayClient.connect(platform.gatewayUrl, 'v=9&encoding=json');
    expect((await v9.identify(platform.loginToken('alice'))).v).toBe(9);
    const bare = await GatewayClient.connect(platform.gatewayUrl, '');
    expect((await bare.identify(platform.loginToken('bob'))).v).toBe(10);
  });
});

describe('gateway: heartbeats', () => {
  it('answers op 1 with op 11 at once, before and after Identify', async () => {
    const platform = await startTestPlatform();
    const client = await GatewayClient.connect(platform.gatewayUrl);
    client.send(1, null);
    expect(await client.next(isOp(11))).toEqual({ op: 11, s: null, t: null });
    await client.identify(platform.loginToken('alice'));
    client.send(1, 1);
    expect((await client.next(isOp(11))).op).toBe(11);
  });

  it('closes with 4009 when no heartbeat comes within interval × factor, and the session ends', async () => {
    const platform = await startTestPlatform({ limits: { heartbeatIntervalMs: 60, heartbeatTimeoutFactor: 1.5 } });
    const { client, ready } = await GatewayClient.ready(platform.gatewayUrl, platform.loginToken('alice'));
    expect(await client.closed).toEqual({ code: 4009, reason: 'Session timed out.' });
    expect(platform.sessions().map((s) => s.session_id)).not.toContain(ready.session_id);
  });

  it('keeps a connection that beats in time', async () => {
    const platform = await startTestPlatform({ limits: { heartbeatIntervalMs: 200, heartbeatTimeoutFactor: 1.5 } });
    const { client } = await GatewayClient.ready(platform.gatewayUrl, platform.loginToken('alice'));
    // Time has to pass here (there is no event to wait for): beat every half interval for
    // longer than the timeout; the socket stays up.
    for (let i = 0; i < 5; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      await client.barrier();
    }
    expect(client.ws.readyState).toBe(client.ws.OPEN);
  });
});

describe('gateway: close codes', () => {
  it('4012 for an unsupported v', async () => {
    const platform = await startTestPlatform();
    const client = await GatewayClient.open(platform.gatewayUrl, 'v=8&encoding=json');
    expect(await client.closed).toEqual({ code: 4012, reason: 'Invalid API version.' });
    expect(client.messages).toEqual([]);
  });

  it('4002 for encoding=etf', async () => {
    const platform = await startTestPlatform();
    const client = await GatewayClient.open(platform.gatewayUrl, 'v=10&encoding=etf');
    expect((await client.closed).code).toBe(4002);
  });

  it('4003 for an op other than 1/2/6 before Identify', async () => {
    const platform = await startTestPlatform();
    const client = await GatewayClient.connect(platform.gatewayUrl);
    client.send(3, { since: null, activities: [], status: 'online', afk: false });
    expect(await client.closed).toEqual({ code: 4003, reason: 'Not authenticated.' });
  });

  it('4004 for a bad token', async () => {
    const platform = await startTestPlatform();
    const client = await GatewayClient.connect(platform.gatewayUrl);
    client.send(2, { token: 'not-a-token', properties: { os: 'linux', browser: 'x', device: 'x' } });
    expect(await client.closed).toEqual({ code: 4004, reason: 'Authentication failed.' });
  });

  it('4005 for a second Identify', async () => {
    const platform = await startTestPlatform();
    const { client } = await GatewayClient.ready(platform.gatewayUrl, platform.loginToken('alice'));
    client.send(2, { token: platform.loginToken('alice'), properties: { os: 'linux', browser: 'x', device: 'x' } });
    expect((await client.closed).code).toBe(4005);
  });

  it('4001 for an unknown op and for a payload that does not fit its op', async () => {
    const platform = await startTestPlatform();
    const a = (await GatewayClient.ready(platform.gatewayUrl, platform.loginToken('alice'))).client;
    a.send(99, null);
    expect(await a.closed).toEqual({ code: 4001, reason: 'Unknown opcode.' });
    const b = (await GatewayClient.ready(platform.gatewayUrl, platform.loginToken('bob'))).client;
    b.send(3, { status: 'online' });
    expect((await b.closed).code).toBe(4001);
  });

  it('4013 for intents that are not a non-negative integer below 2^26', async () => {
    const platform = await startTestPlatform();
    const client = await GatewayClient.connect(platform.gatewayUrl);
    client.send(2, { token: platform.loginToken('alice'), properties: { os: 'l', browser: 'b', device: 'd' }, intents: 2 ** 26 });
    expect((await client.closed).code).toBe(4013);
  });

  it.each([
    ['invalid JSON', (c: GatewayClient) => c.sendRaw('{not json')],
    ['a binary frame', (c: GatewayClient) => c.sendRaw(Buffer.from(JSON.stringify({ op: 1, d: null })), true)],
    ['a payload over 4096 bytes', (c: GatewayClient) => c.sendRaw(JSON.stringify({ op: 1, d: null, pad: 'x'.repeat(4100) }))],
  ])('4002 for %s', async (_name, act) => {
    const platform = await startTestPlatform();
    const client = await GatewayClient.connect(platform.gatewayUrl);
    act(client);
    expect(await client.closed).toEqual({ code: 4002, reason: 'Decode error.' });
  });

  it('accepts a payload of exactly 4096 bytes', async () => {
    const platform = await startTestPlatform();
    const client = await GatewayClient.connect(platform.gatewayUrl);
    const base = JSON.stringify({ op: 1, d: null, pad: '' });
    client.sendRaw(JSON.stringify({ op: 1, d: null, pad: 'x'.repeat(4096 - base.length) }));
    expect((await client.next(isOp(11))).op).toBe(11);
  });
});

describe('gateway: presence fan-out (op 3)', () => {
  it('fans PRESENCE_UPDATE out to every session of every friend, secrets removed and session_id added', async () => {
    const platform = await startTestPlatform();
    await platform.admin.createUser('erin');
    const { client: alice, ready: aliceReady } = await GatewayClient.ready(platform.gatewayUrl, platform.loginToken('alice'));
    const { client: bob1 } = await GatewayClient.ready(platform.gatewayUrl, platform.loginToken('bob'));
    const { client: bob2 } = await GatewayClient.ready(platform.gatewayUrl, platform.loginToken('bob'));
    const { client: erin } = await GatewayClient.ready(platform.gatewayUrl, platform.loginToken('erin'));
    const fromAlice = (m: { op: number; t: string | null; d: unknown }): boolean =>
      isDispatch('PRESENCE_UPDATE')(m as never) && (m.d as PresenceUpdateEvent).user.id === SEED.users.alice && (m.d as PresenceUpdateEvent).activities.length > 0;

    alice.setPresence({ since: null, activities: [GAME], status: 'online', afk: false });
    for (const bob of [bob1, bob2]) {
      const update = (await bob.next(fromAlice)).d as PresenceUpdateEvent;
      expect(update.status).toBe('online');
      expect(update.client_status).toEqual({ desktop: 'online' });
      const activity = update.activities[0] as WireActivity;
      expect(activity.secrets).toBeUndefined();
      expect(activity.session_id).toBe(aliceReady.session_id);
      expect(activity.party).toEqual({ id: 'party-1', size: [1, 4] });
      expect(activity.buttons).toEqual(['Website']);
      expect(activity.metadata).toEqual({ button_urls: ['https://example.com/'] });
      expect(typeof activity.created_at).toBe('number');
    }
    // erin is not alice's friend: nothing reaches her.
    await erin.barrier();
    expect(erin.dispatches('PRESENCE_UPDATE')).toEqual([]);
    for (const bob of [bob1, bob2]) expect(JSON.stringify(bob.messages)).not.toContain('join-secret-1');
  });

  it('merges sessions: most available status, activities in session order; offline when the last session ends', async () => {
    const platform = await startTestPlatform();
    const { client: bob } = await GatewayClient.ready(platform.gatewayUrl, platform.loginToken('bob'));
    const token = platform.loginToken('alice');
    const first = await GatewayClient.ready(platform.gatewayUrl, token, { since: null, activities: [{ name: 'A', type: 0 }], status: 'dnd', afk: false });
    const second = await GatewayClient.ready(platform.gatewayUrl, token, { since: null, activities: [{ name: 'B', type: 2 }], status: 'idle', afk: false });
    const merged = (await bob.next((m) => isDispatch('PRESENCE_UPDATE')(m) && (m.d as PresenceUpdateEvent).activities.length === 2)).d as PresenceUpdateEvent;
    expect(merged.status).toBe('idle');
    expect(merged.activities.map((a) => [a.name, a.session_id])).toEqual([
      ['A', first.ready.session_id],
      ['B', second.ready.session_id],
    ]);

    first.client.close(1000);
        const afterFirst = (
      await bob.next((m) => isDispatch('PRESENCE_UPDATE')(m) && JSON.stringify((m.d as PresenceUpdateEvent).activities.map((a) => a.name)) === '["B"]')
    ).d as PresenceUpdateEvent;
    expect(afterFirst).toMatchObject({ status: 'idle', activities: [{ name: 'B' }] });
    second.client.close(1001);
    const offline = (await bob.next((m) => isDispatch('PRESENCE_UPDATE')(m) && (m.d as PresenceUpdateEvent).status === 'offline')).d;
    expect(offline).toEqual({ user: { id: SEED.users.alice }, status: 'offline', activities: [], client_status: {} });
  });

  it('shows an invisible user as offline to friends', async () => {
    const platform = await startTestPlatform();
    const { client: bob } = await GatewayClient.ready(platform.gatewayUrl, platform.loginToken('bob'));
    const { client: alice } = await GatewayClient.ready(platform.gatewayUrl, platform.loginToken('alice'));
    await bob.next((m) => isDispatch('PRESENCE_UPDATE')(m) && (m.d as PresenceUpdateEvent).status === 'online');
    alice.setPresence({ since: null, activities: [GAME], status: 'invisible', afk: false });
    const update = (await bob.next(isDispatch('PRESENCE_UPDATE'))).d as PresenceUpdateEvent;
    expect(update).toMatchObject({ status: 'offline', activities: [] });
  });
});


describe('gateway: a presence whose objects are arrays is refused as other bad presences are (4001)', () => {
  const withActivity = (extra: Record<string, unknown>) => ({
    since: null,
    status: 'online',
    afk: false,
    activities: [{ name: 'Companion Demo Game', type: 0, ...extra }],
  });

  it.each([
    ['assets', { assets: ['large-image'] }],
    ['assets (empty)', { assets: [] }],
    ['metadata', { metadata: ['x'] }],
    ['party', { party: [] }],
    ['timestamps', { timestamps: [] }],
  ])('an array for %s closes the session with 4001 and reaches no friend', async (_field, extra) => {
    const platform = await startTestPlatform();
    const bob = (await GatewayClient.ready(platform.gatewayUrl, platform.loginToken('bob'))).client;
    const alice = (await GatewayClient.ready(platform.gatewayUrl, platform.loginToken('alice'))).client;
    alice.send(3, withActivity(extra));
    expect(await alice.closed).toEqual({ code: 4001, reason: 'Unknown opcode.' });
    // The same presence with a dictionary is taken: bob sees it, and never saw the refused one.
    const again = (await GatewayClient.ready(platform.gatewayUrl, platform.loginToken('alice'))).client;
    again.send(3, withActivity({ assets: { large_image: 'large-image' } }));
    const seen = await bob.next(
      (m) => isDispatch('PRESENCE_UPDATE')(m) && (m.d as PresenceUpdateEvent).user.id === SEED.users.alice && (m.d as PresenceUpdateEvent).activities.length > 0,
    );
    expect((seen.d as PresenceUpdateEvent).activities[0]?.assets).toEqual({ large_image: 'large-image' });
    const arrays = bob
      .dispatches('PRESENCE_UPDATE')
      .flatMap((m) => (m.d as PresenceUpdateEvent).activities)
      .filter((activity) => Object.values(activity).some((value) => Array.isArray(value) && value !== activity.buttons));
    expect(arrays).toEqual([]);
  });
});
