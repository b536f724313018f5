import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { decodeAudioPacket, encodeAudioPacket, VoiceClose, type VoiceServerMessage } from '../../common/src/voice/voice-wire.js';
import type { Lobby } from '../src/wire/index.js';
import { GatewayClient, isDispatch } from './support/gateway-client.js';
import { api, startTestPlatform } from './support/harness.js';
import { obtainTokens } from './support/oauth.js';
import { setUpTenants, type Tenants } from './support/tenants.js';

interface JoinAnswer {
  readonly call: { readonly lobby_id: string; readonly participants: { user_id: string; self_mute: boolean }[] };
  readonly voice: { readonly endpoint: string; readonly token: string };
}

/** A voice connection of the test: its JSON messages and audio packets, kept in order. */
class VoiceTestSocket {
  readonly messages: VoiceServerMessage[] = [];
  readonly packets: Buffer[] = [];
  closeCode: number | undefined;
  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data: Buffer, isBinary: boolean) => (isBinary ? this.packets.push(data) : this.messages.push(JSON.parse(data.toString()) as VoiceServerMessage)));
    ws.on('close', (code) => (this.closeCode = code));
  }

  static async open(endpoint: string, token: string): Promise<VoiceTestSocket> {
    const ws = new WebSocket(endpoint);
    const socket = new VoiceTestSocket(ws);
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    ws.send(JSON.stringify({ op: 'identify', token }));
    return socket;
  }

  async until<T>(what: string, find: () => T | undefined, timeoutMs = 5000): Promise<T> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const found = find();
      if (found !== undefined) return found;
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  ready(): Promise<Extract<VoiceServerMessage, { op: 'ready' }>> {
    return this.until('ready', () => this.messages.find((message): message is Extract<VoiceServerMessage, { op: 'ready' }> => message.op === 'ready'));
  }

  send(sequence: number, fill: number, ssrc = 0): void {
    this.ws.send(encodeAudioPacket({ ssrc, sequence, timestamp: sequence * 960, payload: new Uint8Array(1920).fill(fill) }));
  }

  /** The close code, once the server closed this connection. */
  closed(): Promise<number> {
    return this.until('the close', () => this.closeCode);
  }
}

async function join(t: Tenants, player: 'alice' | 'bob' | 'carol' | 'mallory', app: string, lobbyId: string, body: object = {}): Promise<{ status: number; body: JoinAnswer & { code?: number } }> {
  return api<JoinAnswer & { code?: number }>(t.platform, 'POST', `/api/v10/lobbies/${lobbyId}/call`, { token: await t.bearer(player, app), body });
}

/** Game A's lobby with alice and bob (by secret), and another of game A with carol only. */
/** `player` joins the lobby's call of app A and connects to the voice server; answers its join (token, endpoint) and its ready socket. */
async function connected(t: Tenants, player: 'alice' | 'bob', lobbyId: string): Promise<{ voice: JoinAnswer['voice']; socket: VoiceTestSocket }> {
  const voice = (await join(t, player, t.appA, lobbyId)).body.voice;
  const socket = await VoiceTestSocket.open(voice.endpoint, voice.token);
  await socket.ready();
  return { voice, socket };
}

async function lobbiesOfA(t: Tenants): Promise<{ shared: string; carols: string }> {
  const put = async (player: 'alice' | 'bob' | 'carol', secret: string): Promise<Lobby> => (await api<Lobby>(t.platform, 'PUT', '/api/v10/lobbies', { token: await t.bearer(player, t.appA), body: { secret } })).body;
  const shared = await put('alice', 'squad');
  await put('bob', 'squad');
  return { shared: shared.id, carols: (await put('carol', 'solo')).id };
}

describe('issue 29 §1 calls: a lobby member starts or joins the call, voice states reach the other members', () => {
  it('join, self mute and deafen, leave: VOICE_STATE_UPDATE with the lobby as guild and channel reaches the other member; the admin listing shows the call', async () => {
    const t = await setUpTenants();
    const { shared } = await lobbiesOfA(t);
    const bobGateway = (await GatewayClient.ready(t.platform.gatewayUrl, (await t.bearer('bob', t.appA)).slice('Bearer '.length))).client;
    const joined = await join(t, 'alice', t.appA, shared, { self_mute: false });
    expect(joined.status).toBe(200);
    expect(joined.body.call).toMatchObject({ lobby_id: shared, participants: [{ user_id: t.ids.alice, self_mute: false }] });
    expect(joined.body.voice.endpoint).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/voice$/);
    const first = await bobGateway.next(isDispatch('VOICE_STATE_UPDATE'));
    expect(first.d).toMatchObject({ guild_id: shared, channel_id: shared, lobby_id: shared, user_id: t.ids.alice, self_mute: false, self_deaf: false, mute: false, deaf: false });

    const muted = await api(t.platform, 'PATCH', `/api/v10/lobbies/${shared}/call/voice-states/@me`, { token: await t.bearer('alice', t.appA), body: { self_mute: true, self_deaf: true } });
    expect(muted.body).toMatchObject({ user_id: t.ids.alice, self_mute: true, self_deaf: true });
    expect((await bobGateway.next(isDispatch('VOICE_STATE_UPDATE'))).d).toMatchObject({ user_id: t.ids.alice, self_mute: true, self_deaf: true });

    const listed = await api<{ lobby_id: string; application_id: string; participants: { user_id: string; connected: boolean; self_deaf: boolean }[] }[]>(t.platform, 'GET', '/_emulator/calls', { admin: true });
    expect(listed.body).toEqual([expect.objectContaining({ lobby_id: shared, application_id: t.appA, participants: [expect.objectContaining({ user_id: t.ids.alice, self_deaf: true, connected: false })] })]);

    expect((await api(t.platform, 'DELETE', `/api/v10/lobbies/${shared}/call/voice-states/@me`, { token: await t.bearer('alice', t.appA) })).status).toBe(204);
    expect((await bobGateway.next(isDispatch('VOICE_STATE_UPDATE'))).d).toMatchObject({ user_id: t.ids.alice, channel_id: null, lobby_id: shared });
    expect((await api(t.platform, 'GET', '/_emulator/calls', { admin: true })).body).toEqual([]);
    bobGateway.close();
  });

  it('only lobby members of that application join: another application is told Unknown Lobby, another player Missing Access', async () => {
    const t = await setUpTenants();
    const { shared, carols } = await lobbiesOfA(t);
    // Alice plays game B too, and is a member of game B's lobby: her game B token still cannot reach game A's lobby call.
    const otherApp = await join(t, 'alice', t.appB, shared);
    expect(otherApp.status).toBe(404);
    expect(otherApp.body.code).toBe(10031);
    // Carol plays game A but is not in the shared lobby.
    const notMember = await join(t, 'carol', t.appA, shared);
    expect(notMember.status).toBe(403);
    expect(notMember.body.code).toBe(50001);
    // Nor can alice's game A token join game B's lobby's call (she is a member there, through game B).
    expect((await join(t, 'alice', t.appA, t.lobbyB)).status).toBe(404);
    expect((await join(t, 'carol', t.appA, carols)).status).toBe(200);
    expect((await api(t.platform, 'GET', '/_emulator/calls', { admin: true })).body).toEqual([expect.objectContaining({ lobby_id: carols })]);
  });

  it('leaving the lobby leaves its call', async () => {
    const t = await setUpTenants();
    const { shared } = await lobbiesOfA(t);
    await join(t, 'bob', t.appA, shared);
    expect((await api(t.platform, 'DELETE', `/api/v10/lobbies/${shared}/members/@me`, { token: await t.bearer('bob', t.appA) })).status).toBe(204);
    expect((await api(t.platform, 'GET', '/_emulator/calls', { admin: true })).body).toEqual([]);
  });
});

describe('issue 29 §1 audio: the voice server relays a participant audio to the others of the same call only', () => {
  it('relays with the sender ssrc to the other participant, not to another call, not from a muted one, not to a deafened one; refuses an unknown token', async () => {
    const t = await setUpTenants();
    const { shared, carols } = await lobbiesOfA(t);
    const a = (await join(t, 'alice', t.appA, shared)).body.voice;
    const b = (await join(t, 'bob', t.appA, shared)).body.voice;
    const c = (await join(t, 'carol', t.appA, carols)).body.voice;
    const [alice, bob, carol] = [await VoiceTestSocket.open(a.endpoint, a.token), await VoiceTestSocket.open(b.endpoint, b.token), await VoiceTestSocket.open(c.endpoint, c.token)];
    const aliceReady = await alice.ready();
    expect((await bob.ready()).participants.map((participant) => participant.user_id).sort()).toEqual([t.ids.alice, t.ids.bob].sort());
    await carol.ready();

    alice.send(1, 7);
    const packet = decodeAudioPacket(await bob.until('a packet', () => bob.packets[0]));
    expect(packet).toMatchObject({ ssrc: aliceReady.ssrc, sequence: 1, timestamp: 960 });
    expect(packet?.payload[0]).toBe(7);

    // Bob deafens: alice's audio no longer reaches him.
    await api(t.platform, 'PATCH', `/api/v10/lobbies/${shared}/call/voice-states/@me`, { token: await t.bearer('bob', t.appA), body: { self_deaf: true } });
    await alice.until('bob deafened', () => alice.messages.find((m) => m.op === 'participant' && m.participant.user_id === t.ids.bob && m.participant.self_deaf));
    alice.send(2, 8);
    // A message after it on the same socket: once bob hears it, packet 2 was handled.
    alice.ws.send(JSON.stringify({ op: 'speaking', speaking: true }));
    await bob.until('speaking after packet 2', () => bob.messages.find((m) => m.op === 'speaking' && m.speaking));
    // Alice mutes: her audio is dropped even for an undeafened bob.
    await api(t.platform, 'PATCH', `/api/v10/lobbies/${shared}/call/voice-states/@me`, { token: await t.bearer('bob', t.appA), body: { self_deaf: false } });
    await api(t.platform, 'PATCH', `/api/v10/lobbies/${shared}/call/voice-states/@me`, { token: await t.bearer('alice', t.appA), body: { self_mute: true } });
    alice.send(3, 9);
    alice.ws.send(JSON.stringify({ op: 'speaking', speaking: false }));
    await bob.until('speaking after packet 3', () => bob.messages.find((m) => m.op === 'speaking' && !m.speaking));
    await api(t.platform, 'PATCH', `/api/v10/lobbies/${shared}/call/voice-states/@me`, { token: await t.bearer('alice', t.appA), body: { self_mute: false } });
    alice.send(4, 10);
    const next = decodeAudioPacket(await bob.until('the packet after unmute', () => bob.packets[1]));
    expect(next?.sequence).toBe(4);
    expect(bob.packets).toHaveLength(2);
    expect(carol.packets).toHaveLength(0);

    const stranger = await VoiceTestSocket.open(a.endpoint, 'not-a-token');
    await stranger.until('the refusal', () => stranger.closeCode);
    expect(stranger.closeCode).toBe(VoiceClose.AuthenticationFailed);
    for (const socket of [alice, bob, carol]) socket.ws.close();
  });

  it('speaking reaches the other participants; a dropped connection may come back with its token (the admin drop)', async () => {
    const t = await setUpTenants();
    const { shared } = await lobbiesOfA(t);
    const { voice: a, socket: alice } = await connected(t, 'alice', shared);
    const { socket: bob } = await connected(t, 'bob', shared);
    alice.ws.send(JSON.stringify({ op: 'speaking', speaking: true }));
    expect(await bob.until('speaking', () => bob.messages.find((m) => m.op === 'speaking'))).toEqual({ op: 'speaking', user_id: t.ids.alice, speaking: true });
    expect((await api(t.platform, 'POST', `/_emulator/calls/${shared}/participants/${t.ids.alice}/drop`, { admin: true })).status).toBe(204);
    await alice.until('the drop', () => alice.closeCode);
    // The drop ends her speaking; she is still a participant, and her token connects again.
    expect(await bob.until('not speaking', () => bob.messages.find((m) => m.op === 'speaking' && !m.speaking))).toMatchObject({ user_id: t.ids.alice });
    const again = await VoiceTestSocket.open(a.endpoint, a.token);
    expect((await again.ready()).participants.map((p) => p.user_id)).toContain(t.ids.alice);
    again.ws.close();
    bob.ws.close();
  });
});

describe('issue 29 §1 audio: bad input to the voice server', () => {
  it('audio before identify, an unknown message and an oversized frame close that connection only; the call goes on', async () => {
    const t = await setUpTenants();
    const { shared } = await lobbiesOfA(t);
    const { voice: a, socket: alice } = await connected(t, 'alice', shared);
    const { socket: bob } = await connected(t, 'bob', shared);
    const raw = async (send: (ws: WebSocket) => void): Promise<number> => {
      const ws = new WebSocket(a.endpoint);
      await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
      const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
      send(ws);
      return closed;
    };
    expect(await raw((ws) => ws.send(encodeAudioPacket({ ssrc: 1, sequence: 0, timestamp: 0, payload: new Uint8Array(4) })))).toBe(VoiceClose.NotAuthenticated);
    expect(await raw((ws) => ws.send('{"op":"dance"}'))).toBe(VoiceClose.DecodeError);
    expect(await raw((ws) => ws.send('not json'))).toBe(VoiceClose.DecodeError);
    expect(await raw((ws) => ws.send(new Uint8Array(100_000)))).toBe(1009);
    alice.send(1, 5);
    expect(decodeAudioPacket(await bob.until('the packet', () => bob.packets[0]))?.sequence).toBe(1);
    alice.ws.close();
    bob.ws.close();
  });
});

describe('issue 29 §1 QA: the simulated friend joins a lobby call and plays a tone', () => {
  it('a member of the lobby only; its 20 ms packets and speaking reach the other participant', async () => {
    const t = await setUpTenants();
    const { shared } = await lobbiesOfA(t);
    const tone = (as: string) => api<{ code?: number }>(t.platform, 'POST', '/_emulator/simulate/friend/call/tone', { admin: true, body: { as, lobby_id: shared, duration_ms: 200 } });
    expect((await tone('carol')).body.code).toBe(50001);
    expect((await api(t.platform, 'PUT', `/api/v10/lobbies/${shared}/members/${t.ids.carol}`, { token: t.botA, body: {} })).status).toBe(200);
    const b = (await join(t, 'bob', t.appA, shared)).body.voice;
    const bob = await VoiceTestSocket.open(b.endpoint, b.token);
    await bob.ready();
    expect((await tone('carol')).status).toBe(202);
    await bob.until('the participant', () => bob.messages.find((m) => m.op === 'participant' && m.participant.user_id === t.ids.carol));
    await bob.until('speaking', () => bob.messages.find((m) => m.op === 'speaking' && m.user_id === t.ids.carol && m.speaking));
    await bob.until('ten packets', () => (bob.packets.length >= 10 ? true : undefined));
    const packet = decodeAudioPacket(bob.packets[0] as Buffer);
    expect(packet?.payload.byteLength).toBe(1920);
    await bob.until('speaking stops', () => bob.messages.find((m) => m.op === 'speaking' && m.user_id === t.ids.carol && !m.speaking));
    // In-process, for scenario steps: the friend mutes and leaves.
    t.platform.friendCall.setVoiceState(t.ids.carol, shared, { selfMute: true });
    t.platform.friendCall.leave(t.ids.carol, shared);
    await bob.until('carol left', () => bob.messages.find((m) => m.op === 'left' && m.user_id === t.ids.carol));
    bob.ws.close();
  });
});

/** The raw access token of a `Bearer <token>` header value (what a game identifies with on the gateway). */
const raw = (bearer: string): string => bearer.slice('Bearer '.length);

describe('issue 29 §1 calls: a game session ending takes its player out of the lobby call after the voice grace', () => {
  it("bob's game closes its gateway session: a session of the game back within the grace keeps him in; none back, alice sees him leave the call though his voice connection stays up", async () => {
    const t = await setUpTenants(await startTestPlatform({ limits: { voiceGraceMs: 400 } }));
    const { shared } = await lobbiesOfA(t);
    const aliceGateway = (await GatewayClient.ready(t.platform.gatewayUrl, raw(await t.bearer('alice', t.appA)))).client;
    // Bob's own desktop client stays online throughout: it is not his game's session.
    const bobClient = (await GatewayClient.ready(t.platform.gatewayUrl, t.userToken('bob'))).client;
    let bobGame = (await GatewayClient.ready(t.platform.gatewayUrl, raw(await t.bearer('bob', t.appA)))).client;
    const { socket: alice } = await connected(t, 'alice', shared);
    const { socket: bob } = await connected(t, 'bob', shared);
    const bobLeft = (m: { t?: string | null; d?: unknown }): boolean => m.t === 'VOICE_STATE_UPDATE' && (m.d as { user_id?: string; channel_id?: string | null }).user_id === t.ids.bob && (m.d as { channel_id?: string | null }).channel_id === null;

    // Carol, the simulated friend, is in the call with no game at all; her desktop client comes and goes.
    expect((await api(t.platform, 'PUT', `/api/v10/lobbies/${shared}/members/${t.ids.carol}`, { token: t.botA, body: {} })).status).toBe(200);
    t.platform.friendCall.join(t.ids.carol, shared);
    (await GatewayClient.ready(t.platform.gatewayUrl, t.userToken('carol'))).client.close(1000);

    // Bob's game session ends and a new one is identified at once: past the grace bob (and carol) are still in.
    bobGame.close(1000);
    bobGame = (await GatewayClient.ready(t.platform.gatewayUrl, raw(await t.bearer('bob', t.appA)))).client;
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(aliceGateway.messages.some(bobLeft)).toBe(false);
    expect(alice.messages.some((m) => m.op === 'left')).toBe(false);

    // The game's last session ends for good: after the grace alice's game hears bob leave, on the gateway and on her voice connection.
    bobGame.close(1000);
    const left = await aliceGateway.next(bobLeft, 10_000);
    expect(left.d).toMatchObject({ guild_id: shared, lobby_id: shared, user_id: t.ids.bob, channel_id: null });
    expect(await alice.until('left', () => alice.messages.find((m) => m.op === 'left'))).toEqual({ op: 'left', user_id: t.ids.bob });
    expect(await bob.closed()).toBe(VoiceClose.SessionNoLongerValid);
    const call = await api<{ participants: { user_id: string }[] }>(t.platform, 'GET', `/api/v10/lobbies/${shared}/call`, { token: await t.bearer('alice', t.appA) });
    expect(call.body.participants.map((p) => p.user_id).sort()).toEqual([t.ids.alice, t.ids.carol].sort());
    expect(alice.closeCode).toBeUndefined();
    for (const client of [aliceGateway, bobClient]) client.close();
    alice.ws.close();
  }, 60_000);
});

/** A call of 25: alice, bob, carol and 22 more players of game A, each with a live voice connection. */
async function bigCall(t: Tenants): Promise<{ lobbyId: string; members: { id: string; socket: VoiceTestSocket; ssrc: number }[] }> {
  const extra = await Promise.all(
    Array.from({ length: 22 }, async (_, i) => {
      const username = `caller_${i}`;
      const { id } = (await api<{ id: string }>(t.platform, 'POST', '/_emulator/users', { admin: true, body: { username } })).body;
      const token = `Bearer ${(await obtainTokens(t.platform, t.platform.loginToken(username), { client_id: t.appA, scope: 'identify sdk.social_layer' })).access_token}`;
      return { id, token };
    }),
  );
  const players = [
    ...(['alice', 'bob', 'carol'] as const).map(async (player) => ({ id: t.ids[player], token: await t.bearer(player, t.appA) })),
    ...extra.map((player) => Promise.resolve(player)),
  ];
  const everyone = await Promise.all(players);
  const lobbyId = (await api<Lobby>(t.platform, 'PUT', '/api/v10/lobbies', { token: everyone[0]?.token ?? '', body: { secret: 'twenty-five' } })).body.id;
  const members: { id: string; socket: VoiceTestSocket; ssrc: number }[] = [];
  for (const player of everyone) {
    expect((await api(t.platform, 'PUT', '/api/v10/lobbies', { token: player.token, body: { secret: 'twenty-five' } })).status).toBe(200);
    const voice = (await api<JoinAnswer>(t.platform, 'POST', `/api/v10/lobbies/${lobbyId}/call`, { token: player.token, body: {} })).body.voice;
    const socket = await VoiceTestSocket.open(voice.endpoint, voice.token);
    members.push({ id: player.id, socket, ssrc: (await socket.ready()).ssrc });
  }
  return { lobbyId, members };
}

describe("issue 29 §1 audio: a 25-member call against an attacker's tries", () => {
  it("another application's token, a non-member's guessed and stale call tokens, audio for another participant's ssrc and a second identify are refused; the 24 others hear on undisturbed", async () => {
    const t = await setUpTenants();
    const { lobbyId, members } = await bigCall(t);
    expect(members).toHaveLength(25);
    const [alice, bob, carol] = members as [(typeof members)[0], (typeof members)[0], (typeof members)[0]];
    const endpoint = `${t.platform.gatewayUrl.replace(/\/gateway$/, '')}/voice`;
    const refusal = async (token: string): Promise<{ code: number; reason: string }> => {
      const ws = new WebSocket(endpoint);
      await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
      const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
      ws.send(JSON.stringify({ op: 'identify', token }));
      return closed;
    };

    // Another application's OAuth2 tokens (alice's game B, mallory's game B) are no voice tokens: 4004, the token never echoed.
    for (const token of [raw(await t.bearer('alice', t.appB)), raw(await t.bearer('mallory', t.appB)), raw(await t.bearer('mallory', t.appA)), 'x'.repeat(5000)]) {
      const refused = await refusal(token);
      expect(refused.code).toBe(VoiceClose.AuthenticationFailed);
      expect(refused.reason).not.toContain(token.slice(0, 16));
    }
    // Alice's game B call token is good for game B's lobby call only: what she sends there reaches none of game A's call.
    const otherCall = (await api<JoinAnswer>(t.platform, 'POST', `/api/v10/lobbies/${t.lobbyB}/call`, { token: await t.bearer('alice', t.appB), body: {} })).body.voice;
    const inB = await VoiceTestSocket.open(otherCall.endpoint, otherCall.token);
    expect((await inB.ready()).lobby_id).toBe(t.lobbyB);
    inB.send(9, 99);
    // Mallory, in no lobby, cannot join the call, nor get in with guessed call tokens.
    const mallorysJoin = await join(t, 'mallory', t.appA, lobbyId);
    expect(mallorysJoin.status).toBe(403);
    expect(mallorysJoin.body.code).toBe(50001);
    for (let guess = 0; guess < 5; guess += 1) expect((await refusal(Buffer.alloc(24, guess).toString('base64url'))).code).toBe(VoiceClose.AuthenticationFailed);
    // Joining again answers the same token: alice's, used below on another connection and after she leaves.
    const aliceToken = (await join(t, 'alice', t.appA, lobbyId)).body.voice.token;

    // Carol sends audio stamped with bob's ssrc: her connection is closed 4020 and the packet reaches no one.
    carol.socket.send(1, 66, bob.ssrc);
    expect(await carol.socket.closed()).toBe(VoiceClose.BadRequest);
    // Carol's token still connects (the grace); a second identify on that connection is refused 4005.
    const carolAgain = await VoiceTestSocket.open(endpoint, (await join(t, 'carol', t.appA, lobbyId)).body.voice.token);
    await carolAgain.ready();
    carolAgain.ws.send(JSON.stringify({ op: 'identify', token: aliceToken }));
    expect(await carolAgain.closed()).toBe(VoiceClose.AlreadyAuthenticated);

    // Alice speaks: each of the 23 others still connected gets exactly her packet, with her ssrc; nobody got carol's.
    alice.socket.send(2, 77, alice.ssrc);
    const listeners = members.filter((member) => member !== alice && member !== carol);
    for (const member of listeners) await member.socket.until(`alice's packet at ${member.id}`, () => (member.socket.packets.length > 0 ? true : undefined));
    for (const member of listeners) {
      expect(member.socket.packets).toHaveLength(1);
      expect(decodeAudioPacket(member.socket.packets[0] as Buffer)).toMatchObject({ ssrc: alice.ssrc, sequence: 2 });
      expect(member.socket.closeCode).toBeUndefined();
    }
    expect(alice.socket.packets).toHaveLength(0);
    // Nobody heard of mallory, and nobody but carol was ever told to leave.
    for (const member of members) expect(member.socket.messages.some((m) => (m.op === 'participant' && m.participant.user_id === t.ids.mallory) || m.op === 'left')).toBe(false);
    expect((await api<{ participants: unknown[] }>(t.platform, 'GET', `/api/v10/lobbies/${lobbyId}/call`, { token: await t.bearer('alice', t.appA) })).body.participants).toHaveLength(25);

    // Alice leaves: her connection is told 4006 and her token is refused from then on.
    expect((await api(t.platform, 'DELETE', `/api/v10/lobbies/${lobbyId}/call/voice-states/@me`, { token: await t.bearer('alice', t.appA) })).status).toBe(204);
    expect(await alice.socket.closed()).toBe(VoiceClose.SessionNoLongerValid);
    expect((await refusal(aliceToken)).code).toBe(VoiceClose.AuthenticationFailed);
    expect(bob.socket.closeCode).toBeUndefined();
    for (const member of members) member.socket.ws.close();
    inB.ws.close();
  }, 120_000);
});
