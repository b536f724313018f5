/**
 * What the platform's gateway may send a game's SDK that it must survive (issue 25 §2), and one
 * Identify per connection (§4): a real Client against a real `ws` gateway that sends bad frames.
 */
import { describe, expect, it, vi } from 'vitest';
import { HELLO } from './support/fake-gateway.js';
import { GAME_TOKEN, gatewayGame, lobby, LOBBY_ID, message, uncaught, type GatewayGame } from './support/gateway-game.js';

const SECRET_CONTENT = 'the-players-private-words';
const IDENTIFY = 2;
const RESUME = 6;
const HEARTBEAT = 1;

/** A good dispatch after the bad ones: delivered, so the connection is up and the SDK still works. */
async function stillDelivers(game: GatewayGame, id = '500000000000000009'): Promise<void> {
  game.fake.peer.dispatch('LOBBY_CREATE', lobby(id));
  await vi.waitFor(() => expect(game.events).toContain(`lobbyCreated ${id}`));
  expect(game.client.getPlatformStatus()).toBe('ready');
}

function expectNoSecretsLogged(game: GatewayGame): void {
  const log = game.logLines.join('\n');
  expect(log).not.toContain(GAME_TOKEN);
  expect(log).not.toContain(SECRET_CONTENT);
}

/** The status changes after the first READY. */
function statusesAfterReady(game: GatewayGame): [string, string | null][] {
  const first = game.statuses.findIndex(([status]) => status === 'ready');
  return game.statuses.slice(first + 1);
}

describe('issue 25 §2: the SDK survives what the network sends', () => {
  it('a frame `null` (and other frames that are no gateway message) is logged and dropped; the connection stays up', async () => {
    const game = await gatewayGame();
    for (const frame of ['null', '[]', '"text"', '42', '{"op":"0"}', '{"op":0,"t":5,"d":{}}', '{not json', '{"op":0,"s":-1,"t":"LOBBY_CREATE","d":null}']) game.fake.peer.send(frame);
    await stillDelivers(game);
    expect(uncaught).toEqual([]);
    expect(game.events).toEqual(['lobbyCreated 500000000000000009']);
    expect(game.logLines.filter((line) => line.includes('malformed frame dropped'))).toHaveLength(8);
    expect(statusesAfterReady(game)).toEqual([]);
  });

  const idEvents: [string, (id: unknown) => Record<string, unknown>][] = [
    ['LOBBY_CREATE', (id) => ({ ...lobby(), id })],
    ['LOBBY_UPDATE', (id) => ({ ...lobby(), id })],
    ['LOBBY_MESSAGE_CREATE', (id) => ({ ...message('1', SECRET_CONTENT), id })],
    ['LOBBY_MESSAGE_UPDATE', (id) => ({ ...message('1', SECRET_CONTENT), id })],
    ['MESSAGE_CREATE', (id) => ({ ...message('1', SECRET_CONTENT), id })],
    ['MESSAGE_UPDATE', (id) => ({ ...message('1', SECRET_CONTENT), id })],
  ];

  it.each(idEvents)('%s without a string id is logged (the event, not its contents) and dropped; later events are still delivered', async (event, withId) => {
    const game = await gatewayGame();
    const { id: _dropped, ...noId } = withId('x');
    for (const d of [noId, withId(5), withId(null), withId({ nested: SECRET_CONTENT }), null, SECRET_CONTENT, [withId('7')]]) game.fake.peer.dispatch(event, d);
    game.fake.peer.dispatch(event, withId('600000000000000001'));
    const callback = event.startsWith('LOBBY_') && !event.includes('MESSAGE') ? (event === 'LOBBY_CREATE' ? 'lobbyCreated' : 'lobbyUpdated') : event.endsWith('CREATE') ? 'messageCreated' : 'messageUpdated';
    await vi.waitFor(() => expect(game.events).toEqual([`${callback} 600000000000000001`]));
    await stillDelivers(game);
    expect(uncaught).toEqual([]);
    const warnings = game.logLines.filter((line) => line.includes('malformed dispatch dropped'));
    expect(warnings).toHaveLength(7);
    for (const line of warnings) expect(line).toContain(event);
    expect(warnings[0]).toContain('id: missing');
    expect(warnings[1]).toContain('id: expected string');
    expectNoSecretsLogged(game);
    expect(statusesAfterReady(game)).toEqual([]);
  });

  it('the other handled dispatches with the wrong shape are dropped too (members, deletes, relationships, presences, users)', async () => {
    const game = await gatewayGame();
    game.fake.peer.dispatch('LOBBY_CREATE', lobby());
    await vi.waitFor(() => expect(game.events).toEqual([`lobbyCreated ${LOBBY_ID}`]));
    const bad: [string, unknown][] = [
      ['LOBBY_MEMBER_ADD', { lobby_id: LOBBY_ID }],
      ['LOBBY_MEMBER_UPDATE', { lobby_id: LOBBY_ID, member: { id: 3 } }],
      ['LOBBY_MEMBER_REMOVE', null],
      ['LOBBY_DELETE', { id: null }],
      ['LOBBY_MESSAGE_DELETE', {}],
      ['MESSAGE_DELETE', { id: 1 }],
      ['RELATIONSHIP_ADD', { id: '2', type: 'friend' }],
      ['RELATIONSHIP_REMOVE', null],
      ['GAME_RELATIONSHIP_ADD', { type: 1 }],
      ['PRESENCE_UPDATE', { user: null }],
      ['USER_UPDATE', { id: 1 }],
      ['LOBBY_UPDATE', { ...lobby(), metadata: { map: 5 } }],
    ];
    for (const [t, d] of bad) game.fake.peer.dispatch(t, d);
    await stillDelivers(game);
    expect(game.events).toEqual([`lobbyCreated ${LOBBY_ID}`, 'lobbyCreated 500000000000000009']);
    expect(game.client.getLobbyHandle(LOBBY_ID)).toMatchObject({ metadata: { map: 'harbour' }, lobbyMemberIds: ['100000000000000001'] });
    expect(game.logLines.filter((line) => line.includes('malformed dispatch dropped'))).toHaveLength(bad.length);
    expect(uncaught).toEqual([]);
  });

  /** A connection that failed for `why`: the status said so, then the SDK came back by itself (a good dispatch is delivered). */
  async function failedThenBack(game: GatewayGame, why: RegExp): Promise<void> {
    await vi.waitFor(() => expect(game.statuses.map(([status, detail]) => `${status} ${detail ?? ''}`)).toContainEqual(expect.stringMatching(why)));
    await vi.waitFor(() => expect(game.client.getPlatformStatus()).toBe('ready'));
    await stillDelivers(game);
    expect(uncaught).toEqual([]);
    expectNoSecretsLogged(game);
  }

  it('READY with `d: null` is a failed connection: the status callback says why, it backs off and identifies again', async () => {
    const game = await gatewayGame({ waitReady: false, ready: (n, fake) => (n === 0 ? null : fake.readyData()) });
    await failedThenBack(game, /^reconnecting malformed READY \(the value: expected Object\)$/);
    expect(game.fake.peers).toHaveLength(2);
    expect(game.fake.peers.map((peer) => peer.received.filter((frame) => frame.op === IDENTIFY).length)).toEqual([1, 1]);
  });

  it.each([
    ['without a session_id', { session_id: undefined }, /^reconnecting malformed READY \(session_id: missing\)$/],
    ['without a user', { user: null }, /^reconnecting malformed READY \(user: expected Object\)$/],
    ['with resume_gateway_url "not a url"', { resume_gateway_url: 'not a url' }, /^reconnecting malformed READY \(resume_gateway_url: not a ws: or wss: URL\)$/],
    ['with an http: resume_gateway_url', { resume_gateway_url: 'http://127.0.0.1:1/gateway' }, /resume_gateway_url: not a ws: or wss: URL/],
    ['with a number for resume_gateway_url', { resume_gateway_url: 42 }, /resume_gateway_url: expected string/],
  ])('READY %s is a failed connection that backs off and identifies again at the gateway', async (_name, change, why) => {
    const game = await gatewayGame({ waitReady: false, ready: (n, fake) => (n === 0 ? { ...fake.readyData(), ...change } : fake.readyData()) });
    await failedThenBack(game, why);
    // Nothing of the bad READY is kept: the next connection asked for the gateway's address and identified.
    expect(game.fake.gatewayAsked).toBe(2);
    expect(game.fake.peers[1]?.received.map((frame) => frame.op)).toContain(IDENTIFY);
  });

  it.each([
    ['not a URL', 'not a url', /^reconnecting the gateway's address is invalid \(the value: not a ws: or wss: URL\)$/],
    ['an https: URL', 'https://127.0.0.1/gateway', /^reconnecting the gateway's address is invalid/],
    ['a number', 7, /^reconnecting the gateway's address could not be had: malformed gateway answer: url: expected string$/],
    ['null', null, /^reconnecting the gateway's address could not be had: malformed gateway answer: url: expected string$/],
  ])('a gateway address that is %s is a failed connection: the status says why, it backs off and asks again', async (_name, url, why) => {
    const game = await gatewayGame({ waitReady: false, gatewayUrl: (ask, fake) => (ask === 0 ? url : fake.wsUrl) });
    await failedThenBack(game, why);
    expect(game.fake.gatewayAsked).toBe(2);
    expect(game.fake.peers).toHaveLength(1);
  });

  it.each([
    ['`d: null`', null, /^reconnecting malformed Hello \(the value: expected Object\)$/],
    ['no heartbeat_interval', {}, /^reconnecting malformed Hello \(heartbeat_interval: missing\)$/],
    ['a string heartbeat_interval', { heartbeat_interval: '41250' }, /^reconnecting malformed Hello \(heartbeat_interval: expected number\)$/],
  ])('a Hello with %s is a failed connection that backs off and tries again', async (_name, d, why) => {
    const game = await gatewayGame({ waitReady: false, hellos: (n) => (n === 0 ? [{ op: 10, d }] : [HELLO]) });
    await failedThenBack(game, why);
    expect(game.fake.peers[0]?.received.filter((frame) => frame.op === IDENTIFY)).toEqual([]);
  });

  it.each([0, -5, 1, 1e308])('the heartbeat interval is clamped to 1-60 s (Hello sent %d ms)', async (interval) => {
    const game = await gatewayGame({ hellos: () => [{ op: 10, d: { heartbeat_interval: interval } }] });
    // Unclamped, these would beat every millisecond (setInterval treats 0 and overflows as 1 ms).
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(game.fake.peer.received.filter((frame) => frame.op === HEARTBEAT).length).toBeLessThanOrEqual(1);
    await stillDelivers(game);
    expect(uncaught).toEqual([]);
  });

  it('a game callback that throws while a dispatch is delivered is logged; the connection stays up', async () => {
    const game = await gatewayGame();
    game.client.setLobbyCallbacks({ lobbyCreated: () => { throw new Error('the game has a bug'); } });
    game.fake.peer.dispatch('LOBBY_CREATE', lobby());
    await vi.waitFor(() => expect(game.logLines.some((line) => line.includes('a callback threw') && line.includes('LOBBY_CREATE'))).toBe(true));
    game.client.setLobbyCallbacks({ lobbyCreated: (id) => game.events.push(`lobbyCreated ${id}`) });
    await stillDelivers(game);
    expect(uncaught).toEqual([]);
  });
});

describe('issue 25 §2: every HTTP answer is checked against a schema', () => {
  it('answers of the wrong shape are the call\'s ServerError naming the field (never its value); nothing throws', async () => {
    const game = await gatewayGame({
      answers: {
        'PUT /api/v10/lobbies': { id: 5, metadata: { map: SECRET_CONTENT } },
        'GET /api/v10/lobbies/1/messages': { messages: [] },
        'POST /api/v10/users/@me/channels': { id: null },
        'GET /api/v10/users/@me/relationships': 'null',
        'GET /api/v10/users/@me/guilds': [{ id: '1', name: 'ok' }, { id: 2, name: SECRET_CONTENT }],
        'GET /api/v10/users/@me/application-profiles': { provider_type: 'OIDC' },
        'GET /api/v10/guilds/1/channels': [{ id: '3' }],
      },
    });
    const failure = (error: string): Record<string, unknown> => ({ successful: false, type: 'ServerError', error });
    expect((await game.client.createOrJoinLobby('squad')).result).toMatchObject(failure('malformed lobby answer: id: expected string'));
    expect((await game.client.getLobbyMessagesWithLimit('1', 10)).result).toMatchObject(failure('malformed messages answer: the value: expected Array'));
    expect((await game.client.sendUserMessage('100000000000000002', 'hi')).result).toMatchObject(failure('malformed channel answer: id: expected string'));
    expect((await game.client.getRelationships()).result).toMatchObject(failure('malformed relationships answer: the value: expected Array'));
    expect((await game.client.getUserGuilds()).result).toMatchObject(failure('malformed guilds answer: [1].id: expected string'));
    expect((await game.client.getUserApplicationProfiles()).result).toMatchObject(failure('malformed application profiles answer: the value: expected Array'));
    expect((await game.client.getGuildChannels('1')).result).toMatchObject(failure('malformed channels answer: [0].type: missing'));
    expect(game.client.getPlatformStatus()).toBe('ready');
    expect(uncaught).toEqual([]);
  });
});

describe('issue 25 §4: a repeated Hello on one connection gets no new Identify (the SDK sent one for every Hello)', () => {
  it('a Hello repeated after READY, or before it, is ignored (logged): one Identify per connection', async () => {
    const game = await gatewayGame({ hellos: () => [HELLO, HELLO, { op: 10, d: { heartbeat_interval: 5 } }] });
    game.fake.peer.send(HELLO);
    game.fake.peer.send(HELLO);
    await stillDelivers(game);
    expect(game.fake.peer.received.filter((frame) => frame.op === IDENTIFY)).toHaveLength(1);
    expect(game.fake.peer.received.filter((frame) => frame.op === HEARTBEAT).length).toBeLessThanOrEqual(1);
    expect(game.logLines.filter((line) => line.includes('repeated Hello'))).toHaveLength(4);
    expect(uncaught).toEqual([]);
  });

  it('after a drop, the next connection resumes once however many Hellos it gets', async () => {
    const game = await gatewayGame({ hellos: (n) => (n === 0 ? [HELLO] : [HELLO, HELLO, HELLO]) });
    game.fake.peer.socket.close(4000, 'drop');
    await vi.waitFor(() => expect(game.fake.peers).toHaveLength(2));
    await stillDelivers(game);
    const second = game.fake.peers[1]?.received ?? [];
    expect(second.filter((frame) => frame.op === RESUME)).toHaveLength(1);
    expect(second.filter((frame) => frame.op === IDENTIFY)).toHaveLength(0);
    expect(uncaught).toEqual([]);
  });
});
