import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { decodeAudioPacket, encodeAudioPacket, VoiceClose, type VoiceServerMessage } from '../../common/src/voice/voice-wire.js';
import type { Lobby } from '../src/wire/index.js';
import { GatewayClient, isDispatch } from './support/gateway-client.js';
import { api } from './support/harness.js';
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

  send(sequence: number, fill: number): void {
    this.ws.send(encodeAudioPacket({ ssrc: 0, sequence, timestamp: sequence * 960, payload: new Uint8Array(1920).fill(fill) }));
  }
}

async function join(t: Tenants, player: 'alice' | 'bob' | 'carol' | 'mallory', app: string, lobbyId: string, body: object = {}): Promise<{ status: number; body: JoinAnswer & { code?: number } }> {
  return api<JoinAnswer & { code?: number }>(t.platform, 'POST', `/api/v10/lobbies/${lobbyId}/call`, { token: await t.bearer(player, app), body });
}

/** Game A's lobby with alice and bob (by secret), and another of game A with carol only. */
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
    const a = (await join(t, 'alice', t.appA, shared)).body.voice;
    const b = (await join(t, 'bob', t.appA, shared)).body.voice;
    const alice = await VoiceTestSocket.open(a.endpoint, a.token);
    const bob = await VoiceTestSocket.open(b.endpoint, b.token);
    await alice.ready();
    await bob.ready();
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
    const a = (await join(t, 'alice', t.appA, shared)).body.voice;
    const b = (await join(t, 'bob', t.appA, shared)).body.voice;
    const alice = await VoiceTestSocket.open(a.endpoint, a.token);
    const bob = await VoiceTestSocket.open(b.endpoint, b.token);
    await alice.ready();
    await bob.ready();
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
