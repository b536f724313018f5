/**
 * Issue 29 §3 and §1 QA: the player's host joins server voice channels for games
 * (SELECT_VOICE_CHANNEL over the gateway's op 4), answers GET_SELECTED_VOICE_CHANNEL in the
 * desktop client's shape, and sends the voice events to the games subscribed to them while the
 * simulated friend joins, speaks, mutes and leaves (the emulator's admin route). Real platform,
 * real sockets, real tokens; npm `discord-rpc` and `@xhayper/discord-rpc` as overlays use them.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- event and reply payloads are checked by the tests' own expectations */
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import DiscordRPC from 'discord-rpc';
import { Client as XhayperClient } from '@xhayper/discord-rpc';
import { Recorder, rejectionOf, within } from '../../../rpc/test/compat/helpers.js';
import { SELECT_VOICE_FORCE_REQUIRED_MESSAGE } from '../../../rpc/src/index.js';
import { controlCommand } from '../../src/shells/cli/control.js';
import { approveVoiceScopes, friendVoice, seededChannels, voiceGame, voiceToken } from './support/voice.js';
import { DEMO_APP_ID, World, type Player } from './support/world.js';

const OVERLAY_SCOPES = ['identify', 'rpc', 'rpc.voice.read', 'rpc.voice.write'];
const REFUSED = { code: 4006, message: 'Not authenticated or invalid scope' };

let world: World;
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
  await world.close();
});

async function alice(): Promise<Player> {
  world = await World.start();
  approveVoiceScopes(world);
  return world.player('alice', { consentPolicy: 'approve' });
}

/** Runs `connect` with XDG_RUNTIME_DIR pointing at the player's sockets (the libraries read it when they connect). */
async function inRuntimeDir<T>(player: Player, connect: () => Promise<T>): Promise<T> {
  const previous = process.env['XDG_RUNTIME_DIR'];
  process.env['XDG_RUNTIME_DIR'] = player.runtimeDir;
  try {
    return await connect();
  } finally {
    if (previous === undefined) delete process.env['XDG_RUNTIME_DIR'];
    else process.env['XDG_RUNTIME_DIR'] = previous;
  }
}

async function xhayper(player: Player): Promise<XhayperClient> {
  const accessToken = await voiceToken(world, player, OVERLAY_SCOPES);
  const client = new XhayperClient({ clientId: DEMO_APP_ID });
  cleanups.push(() => within(client.destroy(), 2000, 'xhayper destroy()').catch(() => undefined));
  await inRuntimeDir(player, () => within(client.login({ accessToken, scopes: OVERLAY_SCOPES as any }), 5000, 'xhayper login'));
  return client;
}

async function npmOverlay(player: Player): Promise<DiscordRPC.Client> {
  const accessToken = await voiceToken(world, player, OVERLAY_SCOPES);
  const client = new DiscordRPC.Client({ transport: 'ipc' });
  cleanups.push(() => within(client.destroy(), 2000, 'discord-rpc destroy()').catch(() => client.transport.socket?.destroy()));
  await inRuntimeDir(player, () => within(client.login({ clientId: DEMO_APP_ID, accessToken, scopes: OVERLAY_SCOPES }), 5000, 'discord-rpc login'));
  return client;
}

async function adminVoiceStates(channelId: string): Promise<any[]> {
  const response = await fetch(`${world.platform.url}/_emulator/voice-states?channel_id=${channelId}`, { headers: { Authorization: `Admin ${world.platform.adminToken}` } });
  return (await response.json()) as any[];
}

describe('issue 29 §3: SELECT_VOICE_CHANNEL and GET_SELECTED_VOICE_CHANNEL', () => {
  it('joins a server voice channel for the player on the platform, answers it with its voice states, needs force to move, and leaves with null (xhayper)', async () => {
    const player = await alice();
    const channels = await seededChannels(world);
    const voice = channels['Voice']!;
    const party = channels['Party']!;
    const client = await xhayper(player);
    const events = new Recorder<[string, any]>();
    for (const evt of ['VOICE_CHANNEL_SELECT', 'VOICE_CONNECTION_STATUS'] as const) {
      client.on(evt, (data: unknown) => events.push([evt, data]));
      await within(client.subscribe(evt), 3000, `subscribe ${evt}`);
    }

    const joined = await within(client.user!.selectVoiceChannel(voice.id, 5, false, false), 5000, 'selectVoiceChannel');
    expect(joined).toMatchObject({ id: voice.id, guild_id: voice.guild_id, name: 'Voice', type: 2, bitrate: 64000, user_limit: 0, messages: [] });
    const me = player.host.session.user!;
    expect(joined.voice_states).toEqual([
      {
        voice_state: { mute: false, deaf: false, self_mute: false, self_deaf: false, suppress: false },
        user: expect.objectContaining({ id: me.id, username: 'alice' }),
        nick: 'Alice',
        volume: 100,
        mute: false,
        pan: { left: 1, right: 1 },
      },
    ]);
    // The platform holds the state, on the host's own gateway session.
    expect(await adminVoiceStates(voice.id)).toEqual([expect.objectContaining({ user_id: me.id, session_id: player.host.session.sessionId, channel_id: voice.id })]);
    expect((await within(client.user!.getSelectedVoiceChannel(), 3000, 'getSelectedVoiceChannel'))).toMatchObject({ id: voice.id, voice_states: [expect.objectContaining({ nick: 'Alice' })] });
    await events.until(([evt, data]) => evt === 'VOICE_CHANNEL_SELECT' && data.channel_id === voice.id, 3000, 'VOICE_CHANNEL_SELECT');
    const connected = await events.until(([evt, data]) => evt === 'VOICE_CONNECTION_STATUS' && data.state === 'VOICE_CONNECTED', 3000, 'VOICE_CONNECTION_STATUS');
    expect(connected[1]).toMatchObject({ hostname: new URL(world.platform.url).host, average_ping: expect.any(Number) });
    expect(Array.isArray(connected[1].pings)).toBe(true);

    // In a channel: another one needs force (5003); the same one is answered again.
    expect(await rejectionOf(client.user!.selectVoiceChannel(party.id, 5, false, false))).toMatchObject({ code: 5003, message: SELECT_VOICE_FORCE_REQUIRED_MESSAGE });
    expect((await client.user!.selectVoiceChannel(voice.id, 5, false, false)).id).toBe(voice.id);
    const moved = await client.user!.selectVoiceChannel(party.id, 5, true, false);
    expect(moved).toMatchObject({ id: party.id, voice_states: [expect.objectContaining({ nick: 'Alice' })] });
    expect(await adminVoiceStates(voice.id)).toEqual([]);
    await events.until(([evt, data]) => evt === 'VOICE_CHANNEL_SELECT' && data.channel_id === party.id, 3000, 'VOICE_CHANNEL_SELECT after the move');
    // A move is one selection, never a null between the two channels.
    expect(events.items.filter(([evt]) => evt === 'VOICE_CHANNEL_SELECT').map(([, data]) => data)).toEqual([
      { channel_id: voice.id, guild_id: voice.guild_id },
      { channel_id: party.id, guild_id: party.guild_id },
    ]);

    // Not a voice channel, or none the player can see: 4005.
    expect(await rejectionOf(client.user!.selectVoiceChannel(channels['general']!.id, 5, true, false))).toMatchObject({ code: 4005 });
    expect(await rejectionOf(client.user!.selectVoiceChannel('300000000000000001', 5, true, false))).toMatchObject({ code: 4005 });

    // null leaves.
    expect((await client.request('SELECT_VOICE_CHANNEL', { channel_id: null })).data).toBeNull();
    expect(await adminVoiceStates(party.id)).toEqual([]);
    expect(await client.user!.getSelectedVoiceChannel()).toBeNull();
    await events.until(([evt, data]) => evt === 'VOICE_CHANNEL_SELECT' && data.channel_id === null && data.guild_id === null, 3000, 'VOICE_CHANNEL_SELECT null');
    await events.until(([evt, data]) => evt === 'VOICE_CONNECTION_STATUS' && data.state === 'DISCONNECTED', 3000, 'VOICE_CONNECTION_STATUS DISCONNECTED');
  });

  it("follows the player's mute and deafen: the voice state on the platform carries them", async () => {
    const player = await alice();
    const { Voice: voice } = await seededChannels(world);
    const game = await voiceGame(world, player, cleanups, OVERLAY_SCOPES);
    expect((await game.request('SELECT_VOICE_CHANNEL', { channel_id: voice!.id })).evt).toBeNull();
    expect((await game.request('SET_VOICE_SETTINGS', { mute: true, deaf: true })).evt).toBeNull();
    await expect.poll(async () => (await adminVoiceStates(voice!.id))[0], { timeout: 5000, interval: 20 }).toMatchObject({ self_mute: true, self_deaf: true });
    expect((await game.request('GET_SELECTED_VOICE_CHANNEL', {})).data.voice_states[0].voice_state).toMatchObject({ self_mute: true, self_deaf: true });
  });
});

describe('issue 29 §3: the player stays in their voice channel across a new gateway session', () => {
  it('joins it again once the platform is back (the desktop client reconnects to voice); a game leaving it ends that', async () => {
    const player = await alice();
    const { Voice: voice } = await seededChannels(world);
    const game = await voiceGame(world, player, cleanups, OVERLAY_SCOPES);
    expect((await game.request('SELECT_VOICE_CHANNEL', { channel_id: voice!.id })).evt).toBeNull();
    const before = player.host.session.sessionId;
    // The emulator restarts: voice states live in its memory, so the old session's is gone.
    await world.restartPlatform();
    // The host's gateway reconnects with its backoff, identifies anew, and joins again.
    await expect
      .poll(async () => (await adminVoiceStates(voice!.id)).map((state) => state.session_id === player.host.session.sessionId && state.session_id !== before), { timeout: 20_000, interval: 50 })
      .toEqual([true]);
    expect((await game.request('GET_SELECTED_VOICE_CHANNEL', {})).data).toMatchObject({ id: voice!.id });

    // Left on purpose: a later new session stays out.
    expect((await game.request('SELECT_VOICE_CHANNEL', { channel_id: null })).data).toBeNull();
    await world.restartPlatform();
    await expect.poll(() => player.host.session.status.status, { timeout: 20_000, interval: 50 }).toBe('ready');
    await game.request('GET_VOICE_SETTINGS', {});
    expect(await adminVoiceStates(voice!.id)).toEqual([]);
  });
});

describe('issue 29 §3: the voice events while the simulated friend is in the channel (npm discord-rpc overlay)', () => {
  it('VOICE_STATE_CREATE/UPDATE/DELETE and SPEAKING_START/STOP reach the overlay subscribed to the channel, and no other subscriber', async () => {
    const player = await alice();
    const { Voice: voice, Party: party } = await seededChannels(world);
    const overlay = await npmOverlay(player);
    expect((await overlay.selectVoiceChannel(voice!.id)).id).toBe(voice!.id);
    const events = new Recorder<[string, any]>();
    for (const evt of ['VOICE_STATE_CREATE', 'VOICE_STATE_UPDATE', 'VOICE_STATE_DELETE', 'SPEAKING_START', 'SPEAKING_STOP']) {
      overlay.on(evt, (data: unknown) => events.push([evt, data]));
      await within(overlay.subscribe(evt, { channel_id: voice!.id }), 3000, `subscribe ${evt}`);
    }
    // Another application's subscription for another channel, and a game without the voice scopes.
    const otherChannel = await voiceGame(world, player, cleanups, OVERLAY_SCOPES);
    for (const evt of ['VOICE_STATE_CREATE', 'SPEAKING_START']) expect((await otherChannel.request('SUBSCRIBE', { channel_id: party!.id }, { evt })).evt).toBeNull();
    const unscoped = await voiceGame(world, player, cleanups, ['identify']);
    expect(await unscoped.request('SUBSCRIBE', { channel_id: voice!.id }, { evt: 'SPEAKING_START' })).toMatchObject({ evt: 'ERROR', data: REFUSED });

    const bob = world.platform.user('bob')!;
    expect((await friendVoice(world, { as: 'bob', action: 'join', channel: 'Voice' })).status).toBe(200);
    const created = await events.until(([evt]) => evt === 'VOICE_STATE_CREATE', 3000, 'VOICE_STATE_CREATE');
    expect(created[1]).toEqual({
      voice_state: { mute: false, deaf: false, self_mute: false, self_deaf: false, suppress: false },
      user: expect.objectContaining({ id: bob.id, username: 'bob' }),
      nick: 'Bob',
      volume: 100,
      mute: false,
      pan: { left: 1, right: 1 },
    });
    // GET_CHANNEL of a voice channel says who is in it, as the desktop client's does.
    const channel = (await overlay.request('GET_CHANNEL', { channel_id: voice!.id })) as any;
    expect(channel.voice_states.map((entry: any) => entry.user.username)).toEqual(['alice', 'bob']);
    expect(((await overlay.request('GET_CHANNEL', { channel_id: party!.id })) as any).voice_states).toEqual([]);

    const spoke = await friendVoice(world, { as: 'bob', action: 'speak', duration_ms: 200 });
    expect(spoke.body).toMatchObject({ speaking: true });
    expect((await events.until(([evt]) => evt === 'SPEAKING_START', 3000, 'SPEAKING_START'))[1]).toEqual({ user_id: bob.id, channel_id: voice!.id });
    // The tone's length is over: the friend stops by themselves.
    expect((await events.until(([evt]) => evt === 'SPEAKING_STOP', 3000, 'SPEAKING_STOP'))[1]).toEqual({ user_id: bob.id, channel_id: voice!.id });

    // Speaking, then muting: speaking stops and the state says muted.
    await friendVoice(world, { as: 'bob', action: 'speak', duration_ms: 60_000 });
    await events.until(([evt]) => evt === 'SPEAKING_START' && events.items.filter(([e]) => e === 'SPEAKING_START').length === 2, 3000, 'the second SPEAKING_START');
    expect((await friendVoice(world, { as: 'bob', action: 'mute' })).body).toMatchObject({ speaking: false, voice_state: { self_mute: true } });
    await events.until(([evt]) => evt === 'SPEAKING_STOP' && events.items.filter(([e]) => e === 'SPEAKING_STOP').length === 2, 3000, 'the second SPEAKING_STOP');
    const muted = await events.until(([evt, data]) => evt === 'VOICE_STATE_UPDATE' && data.user.id === bob.id, 3000, 'VOICE_STATE_UPDATE');
    expect(muted[1].voice_state).toEqual({ mute: false, deaf: false, self_mute: true, self_deaf: false, suppress: false });
    // A muted friend sends no voice: speaking is refused with a clear error.
    const refused = await friendVoice(world, { as: 'bob', action: 'speak' });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain('muted');

    expect((await friendVoice(world, { as: 'bob', action: 'leave' })).body).toMatchObject({ voice_state: null, speaking: false });
    const deleted = await events.until(([evt]) => evt === 'VOICE_STATE_DELETE', 3000, 'VOICE_STATE_DELETE');
    expect(deleted[1]).toMatchObject({ user: { id: bob.id }, nick: 'Bob' });

    expect(await otherChannel.framesBeforeBarrier()).toEqual([]);
    expect(await unscoped.framesBeforeBarrier()).toEqual([]);
    expect(events.items.map(([evt]) => evt)).toEqual(['VOICE_STATE_CREATE', 'SPEAKING_START', 'SPEAKING_STOP', 'SPEAKING_START', 'SPEAKING_STOP', 'VOICE_STATE_UPDATE', 'VOICE_STATE_DELETE']);
  });

  it("never tells a player's games of a channel the player cannot see", async () => {
    const player = await alice();
    const { Voice: voice } = await seededChannels(world);
    // eve is not in the guild: the channel is not hers to see.
    const created = await fetch(`${world.platform.url}/_emulator/users`, {
      method: 'POST',
      headers: { Authorization: `Admin ${world.platform.adminToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'eve' }),
    });
    expect(created.status).toBeLessThan(300);
    const eve = await world.player('eve', { consentPolicy: 'approve' });
    const outsider = await voiceGame(world, eve, cleanups, OVERLAY_SCOPES);
    for (const evt of ['VOICE_STATE_CREATE', 'VOICE_STATE_UPDATE', 'VOICE_STATE_DELETE', 'SPEAKING_START', 'SPEAKING_STOP']) {
      expect((await outsider.request('SUBSCRIBE', { channel_id: voice!.id }, { evt })).evt).toBeNull();
    }
    expect(await outsider.request('SELECT_VOICE_CHANNEL', { channel_id: voice!.id })).toMatchObject({ evt: 'ERROR', data: { code: 4005 } });
    const insider = await voiceGame(world, player, cleanups, OVERLAY_SCOPES);
    expect((await insider.request('SUBSCRIBE', { channel_id: voice!.id }, { evt: 'SPEAKING_START' })).evt).toBeNull();

    await friendVoice(world, { as: 'bob', action: 'join', channel: voice!.id });
    expect((await insider.request('SELECT_VOICE_CHANNEL', { channel_id: voice!.id })).evt).toBeNull();
    await friendVoice(world, { as: 'bob', action: 'speak', duration_ms: 100 });
    await insider.waitFor((frame) => frame.payload?.evt === 'SPEAKING_START', 'SPEAKING_START to the player in the channel');
    await friendVoice(world, { as: 'bob', action: 'leave' });
    expect(await outsider.framesBeforeBarrier()).toEqual([]);
  });
});

const python = spawnSync('python3', ['-c', 'import socket, struct, json'], { encoding: 'utf8' }).status === 0;

describe('issue 29 §3: a pypresence-shaped overlay (python3)', () => {
  it.skipIf(!python)("selects the voice channel, reads it and the settings, and hears the simulated friend's SPEAKING_START/STOP and VOICE_STATE_CREATE", async () => {
    const player = await alice();
    const { Voice: voice } = await seededChannels(world);
    const accessToken = await voiceToken(world, player, OVERLAY_SCOPES);
    const script = path.join(import.meta.dirname, 'support', 'pypresence-voice.py');
    const child = spawn('python3', [script, player.host.ipcPath, DEMO_APP_ID, accessToken, voice!.id], { stdio: ['ignore', 'pipe', 'inherit'] });
    cleanups.push(() => child.kill('SIGKILL'));
    const lines = new Recorder<any>();
    createInterface({ input: child.stdout! }).on('line', (line) => lines.push(JSON.parse(line)));
    await lines.until((line) => line.ready === true, 10_000, 'the python overlay subscribed');
    const replies = lines.items.filter((line) => line.cmd !== undefined && line.cmd !== 'DISPATCH');
    expect(replies.map((reply) => [reply.cmd, reply.evt])).toEqual([
      ['AUTHENTICATE', null],
      ['SELECT_VOICE_CHANNEL', null],
      ['GET_SELECTED_VOICE_CHANNEL', null],
      ['GET_VOICE_SETTINGS', null],
      ['SUBSCRIBE', null],
      ['SUBSCRIBE', null],
      ['SUBSCRIBE', null],
    ]);
    // pypresence's nonces are strings of the time: each reply carries its own back.
    expect(replies.every((reply) => typeof reply.nonce === 'string' && /^\d+\.\d{20}$/.test(reply.nonce))).toBe(true);
    expect(replies[1].data).toMatchObject({ id: voice!.id, name: 'Voice', voice_states: [{ nick: 'Alice' }] });
    expect(replies[2].data).toMatchObject({ id: voice!.id, voice_states: [{ user: { username: 'alice' } }] });
    expect(replies[3].data).toMatchObject({ mute: false, deaf: false, input: { device_id: 'default' } });

    const bob = world.platform.user('bob')!;
    await friendVoice(world, { as: 'bob', action: 'join', channel: 'Voice' });
    await friendVoice(world, { as: 'bob', action: 'speak', duration_ms: 150 });
    const created = await lines.until((line) => line.evt === 'VOICE_STATE_CREATE', 5000, 'VOICE_STATE_CREATE');
    expect(created.data).toMatchObject({ user: { id: bob.id }, voice_state: { self_mute: false } });
    expect((await lines.until((line) => line.evt === 'SPEAKING_START', 5000, 'SPEAKING_START')).data).toEqual({ user_id: bob.id, channel_id: voice!.id });
    expect((await lines.until((line) => line.evt === 'SPEAKING_STOP', 5000, 'SPEAKING_STOP')).data).toEqual({ user_id: bob.id, channel_id: voice!.id });
  });
});

describe('issue 29 §4: the player\'s voice through Companion (GET/PATCH /v1/voice, the voice panel\'s source)', () => {
  it('shows the channel, who is in it and who speaks, audio-less; mute and deafen there are the voice settings games read and hear of', async () => {
    const player = await alice();
    const { Voice: voice } = await seededChannels(world);
    expect((await player.control('GET', '/v1/voice')).body).toEqual({ channel: null, members: [], mute: false, deaf: false, connection: 'DISCONNECTED', audio: false });
    const game = await voiceGame(world, player, cleanups, OVERLAY_SCOPES);
    expect((await game.request('SUBSCRIBE', {}, { evt: 'VOICE_SETTINGS_UPDATE' })).evt).toBeNull();
    expect((await game.request('SELECT_VOICE_CHANNEL', { channel_id: voice!.id })).evt).toBeNull();
    await friendVoice(world, { as: 'bob', action: 'join', channel: 'Voice' });
    await friendVoice(world, { as: 'bob', action: 'speak', duration_ms: 60_000 });
    const bob = world.platform.user('bob')!;
    await expect
      .poll(async () => (await player.control('GET', '/v1/voice')).body, { timeout: 5000, interval: 20 })
      .toMatchObject({
        channel: { id: voice!.id, guild_id: voice!.guild_id, name: 'Voice' },
        members: [
          { user: { username: 'alice' }, me: true, speaking: false, self_mute: false },
          { user: { id: bob.id, username: 'bob', global_name: 'Bob' }, me: false, speaking: true },
        ],
        connection: 'VOICE_CONNECTED',
        audio: false,
      });

    // The same from the command line.
    let stdout = '';
    const io = { stdout: (text: string) => (stdout += text), stderr: () => undefined, env: {}, version: '0.0.0-test' };
    expect(await controlCommand(['voice', 'channel', '--runtime-dir', player.runtimeDir], io)).toBe(0);
    expect(stdout).toBe(`Voice (channel ${voice!.id}): VOICE_CONNECTED, state only, no sound\n  Alice (you)\n  Bob (speaking)\n`);

    const muted = await player.control('PATCH', '/v1/voice', { mute: true });
    expect(muted.body).toMatchObject({ mute: true, deaf: false });
    const update = await game.waitFor((frame) => frame.payload?.evt === 'VOICE_SETTINGS_UPDATE', 'VOICE_SETTINGS_UPDATE');
    expect(update.payload.data).toMatchObject({ mute: true, deaf: false });
    expect((await game.request('GET_VOICE_SETTINGS', {})).data.mute).toBe(true);
    await expect.poll(async () => (await player.control('GET', '/v1/voice')).body.members[0], { timeout: 5000, interval: 20 }).toMatchObject({ me: true, self_mute: true });
    expect((await player.control('PATCH', '/v1/voice', { mute: 'yes' })).status).toBe(400);
    expect((await player.control('PATCH', '/v1/voice', { volume: 3 })).status).toBe(400);
  });
});
