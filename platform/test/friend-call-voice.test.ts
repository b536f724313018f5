import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { decodeAudioPacket, type VoiceServerMessage } from '../../common/src/voice/voice-wire.js';
import type { Lobby } from '../src/wire/index.js';
import { api } from './support/harness.js';
import { setUpTenants, type Tenants } from './support/tenants.js';

interface Answer {
  readonly code?: number;
  readonly message?: string;
  readonly errors?: Record<string, { _errors: { message: string }[] }>;
  readonly lobby_id?: string;
  readonly voice_state?: { self_mute: boolean } | null;
  readonly speaking?: boolean;
  readonly speaking_until?: number;
}

function friendVoice(t: Tenants, body: Record<string, unknown>): Promise<{ status: number; body: Answer }> {
  return api<Answer>(t.platform, 'POST', '/_emulator/simulated-friend/voice', { admin: true, body });
}

/** Bob in the lobby's call over a real voice connection: what the voice server sends him. */
async function bobListens(t: Tenants, lobbyId: string): Promise<{ ws: WebSocket; packets: Buffer[]; messages: VoiceServerMessage[] }> {
  const joined = await api<{ voice: { endpoint: string; token: string } }>(t.platform, 'POST', `/api/v10/lobbies/${lobbyId}/call`, { token: await t.bearer('bob', t.appA), body: {} });
  const ws = new WebSocket(joined.body.voice.endpoint);
  const packets: Buffer[] = [];
  const messages: VoiceServerMessage[] = [];
  ws.on('message', (data: Buffer, isBinary: boolean) => (isBinary ? packets.push(data) : messages.push(JSON.parse(data.toString()) as VoiceServerMessage)));
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  ws.send(JSON.stringify({ op: 'identify', token: joined.body.voice.token }));
  await until('ready', () => messages.some((m) => m.op === 'ready'));
  return { ws, packets, messages };
}

async function until(what: string, done: () => boolean, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** `count` samples of a ramp starting at `from` (every sample differs from its neighbours), as base64 16-bit LE. */
function ramp(from: number, count: number): { base64: string; samples: number[] } {
  const samples = Array.from({ length: count }, (_v, i) => ((from + i * 7) % 20_000) - 10_000);
  const bytes = Buffer.alloc(count * 2);
  samples.forEach((sample, i) => bytes.writeInt16LE(sample, i * 2));
  return { base64: bytes.toString('base64'), samples };
}

describe('issue 29 §1 QA: POST /_emulator/simulated-friend/voice with lobby_id, the friend in a lobby call', () => {
  it('refuses clearly: channel and lobby together, pcm for a server channel, odd pcm, a friend who is not a member, an unknown lobby, speaking before joining', async () => {
    const t = await setUpTenants();
    const lobby = (await api<Lobby>(t.platform, 'PUT', '/api/v10/lobbies', { token: await t.bearer('alice', t.appA), body: { secret: 'qa' } })).body.id;
    expect((await friendVoice(t, { as: 'bob', action: 'join', lobby_id: lobby, channel: 'Voice' })).body.errors?.['channel']?._errors[0]?.message).toMatch(/not both/);
    expect((await friendVoice(t, { as: 'bob', action: 'speak', channel: 'Voice', pcm: 'AAAA' })).body.errors?.['pcm']?._errors[0]?.message).toMatch(/server voice channel carries no audio/);
    const notMember = await friendVoice(t, { as: 'bob', action: 'join', lobby_id: lobby });
    expect(notMember.status).toBe(403);
    expect(notMember.body).toMatchObject({ code: 50001, message: expect.stringContaining(`bob is not a member of lobby ${lobby}`) as unknown });
    expect((await friendVoice(t, { as: 'bob', action: 'join', lobby_id: '123456789012345678' })).body.code).toBe(10031);
    expect((await api(t.platform, 'PUT', `/api/v10/lobbies/${lobby}/members/${t.ids.carol}`, { token: t.botA, body: {} })).status).toBe(200);
    expect((await friendVoice(t, { as: 'carol', action: 'speak', lobby_id: lobby })).body.errors?.['as']?._errors[0]?.message).toMatch(/join it first/);
    expect((await friendVoice(t, { as: 'carol', action: 'join', lobby_id: lobby })).status).toBe(200);
    expect((await friendVoice(t, { as: 'carol', action: 'speak', lobby_id: lobby, pcm: 'AAAA' })).body.errors?.['pcm']?._errors[0]?.message).toMatch(/16-bit samples/);
  });

  it('pcm sent in two requests reaches the other participant sample for sample, as one utterance; mute stops it; leave leaves', async () => {
    const t = await setUpTenants();
    const put = async (player: 'alice' | 'bob'): Promise<string> => (await api<Lobby>(t.platform, 'PUT', '/api/v10/lobbies', { token: await t.bearer(player, t.appA), body: { secret: 'squad' } })).body.id;
    const lobby = await put('alice');
    await put('bob');
    const bob = await bobListens(t, lobby);
    const joined = await friendVoice(t, { as: 'alice', action: 'join', lobby_id: lobby });
    expect(joined.body).toMatchObject({ lobby_id: lobby, voice_state: { self_mute: false }, speaking: false });
    // 0.3 s and 0.1 s (the second ending mid-frame): 20 frames in all, the last padded with silence.
    const first = ramp(0, 14_400);
    const second = ramp(14_400, 4_700);
    const spoke = await friendVoice(t, { as: 'alice', action: 'speak', lobby_id: lobby, pcm: first.base64 });
    expect(spoke.body.speaking).toBe(true);
    expect((await friendVoice(t, { as: 'alice', action: 'speak', lobby_id: lobby, pcm: second.base64 })).body.speaking_until).toBeGreaterThan(spoke.body.speaking_until ?? Infinity);
    await until('twenty packets', () => bob.packets.length >= 20);
    await until('speaking stops', () => bob.messages.some((m) => m.op === 'speaking' && m.user_id === t.ids.alice && !m.speaking));
    const heard: number[] = [];
    for (const packet of bob.packets) {
      const payload = decodeAudioPacket(packet)?.payload ?? new Uint8Array();
      const view = Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength);
      for (let i = 0; i < view.length; i += 2) heard.push(view.readInt16LE(i));
    }
    expect(heard.slice(0, 19_100)).toEqual([...first.samples, ...second.samples]);
    expect(heard.slice(19_100).every((sample) => sample === 0)).toBe(true);
    expect(bob.messages.filter((m) => m.op === 'speaking' && m.user_id === t.ids.alice).map((m) => (m as { speaking: boolean }).speaking)).toEqual([true, false]);

    await friendVoice(t, { as: 'alice', action: 'speak', lobby_id: lobby, frequency_hz: 440, duration_ms: 20_000 });
    await until('the tone', () => bob.packets.length >= 25);
    const muted = await friendVoice(t, { as: 'alice', action: 'mute', lobby_id: lobby });
    expect(muted.body).toMatchObject({ voice_state: { self_mute: true }, speaking: false });
    const count = bob.packets.length;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(bob.packets.length).toBe(count);
    expect((await friendVoice(t, { as: 'alice', action: 'leave', lobby_id: lobby })).body).toMatchObject({ voice_state: null, speaking: false });
    await until('alice left', () => bob.messages.some((m) => m.op === 'left' && m.user_id === t.ids.alice));
    bob.ws.close();
  });
});
