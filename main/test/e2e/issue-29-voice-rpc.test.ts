/**
 * Issue 29 §3: the desktop client's voice RPC on a real host (real platform, real sockets,
 * real token): GET/SET_VOICE_SETTINGS with the rpc.voice scopes, VOICE_SETTINGS_UPDATE to the
 * games subscribed to it (and to no other), the voice events' subscribe arguments, and the
 * voice channel commands of a host that has no voice channel yet. The npm `discord-rpc` and
 * `@xhayper/discord-rpc` libraries (devDependencies) are used as overlays use them.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- reply payloads are checked by the tests' own expectations */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import DiscordRPC from 'discord-rpc';
import { Client as XhayperClient } from '@xhayper/discord-rpc';
import { Recorder, rejectionOf, within } from '../../../rpc/test/compat/helpers.js';
import { DEFAULT_VOICE_SETTINGS } from '../../../rpc/src/index.js';
import { VOICE_SETTINGS_FILE } from '../../src/host/voice/voice-settings-store.js';
import { VOICE_SETTINGS_LOCKED_MESSAGE } from '../../src/host/voice/voice-settings-lease.js';
import { controlCommand } from '../../src/shells/cli/control.js';
import { approveVoiceScopes, voiceGame, voiceToken } from './support/voice.js';
import { DEMO_APP_ID, World, type Player } from './support/world.js';

const VOICE_SCOPES = ['identify', 'rpc.voice.read', 'rpc.voice.write'];
const REFUSED = { code: 4006, message: 'Not authenticated or invalid scope' };

let world: World;
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
  await world.close();
});

/** Alice's host, with the demo app approved for the voice scopes (as the platform approves `rpc`). */
async function alice(): Promise<Player> {
  world = await World.start();
  approveVoiceScopes(world);
  return world.player('alice', { consentPolicy: 'approve' });
}

/** npm discord-rpc logged in with the voice scopes (one per process: its parser state is module-wide). */
async function npmOverlay(player: Player): Promise<DiscordRPC.Client> {
  const accessToken = await voiceToken(world, player, VOICE_SCOPES);
  const previous = process.env['XDG_RUNTIME_DIR'];
  process.env['XDG_RUNTIME_DIR'] = player.runtimeDir;
  const client = new DiscordRPC.Client({ transport: 'ipc' });
  cleanups.push(() => within(client.destroy(), 2000, 'discord-rpc destroy()').catch(() => client.transport.socket?.destroy()));
  try {
    await within(client.login({ clientId: DEMO_APP_ID, accessToken, scopes: VOICE_SCOPES }), 5000, 'discord-rpc login');
  } finally {
    if (previous === undefined) delete process.env['XDG_RUNTIME_DIR'];
    else process.env['XDG_RUNTIME_DIR'] = previous;
  }
  return client;
}

describe('issue 29 §3: GET_VOICE_SETTINGS and SET_VOICE_SETTINGS', () => {
  it('npm discord-rpc reads the defaults and sets a partial update that merges; the host writes it to its settings file', async () => {
    const player = await alice();
    const overlay = await npmOverlay(player);

    const read = await within(overlay.getVoiceSettings(), 3000, 'getVoiceSettings');
    expect(read).toEqual({
      automaticGainControl: true,
      echoCancellation: true,
      noiseSuppression: true,
      qos: true,
      silenceWarning: true,
      deaf: false,
      mute: false,
      input: { availableDevices: [{ id: 'default', name: 'Default' }], device: 'default', volume: 100 },
      output: { availableDevices: [{ id: 'default', name: 'Default' }], device: 'default', volume: 100 },
      mode: { type: 'VOICE_ACTIVITY', autoThreshold: true, threshold: -60, shortcut: [], delay: 20 },
    });

    // What the library sends: only the keys given, `input` with `device_id` undefined (dropped).
    const set = await within(
      overlay.setVoiceSettings({ mute: true, input: { volume: 42 }, mode: { type: 'PUSH_TO_TALK', shortcut: [{ type: 0, code: 86, name: 'V' }] } }),
      3000,
      'setVoiceSettings',
    );
    const expected = {
      ...DEFAULT_VOICE_SETTINGS,
      mute: true,
      input: { ...DEFAULT_VOICE_SETTINGS.input, volume: 42 },
      mode: { ...DEFAULT_VOICE_SETTINGS.mode, type: 'PUSH_TO_TALK', shortcut: [{ type: 0, code: 86, name: 'V' }] },
    };
    expect(set).toEqual(expected);
    const again = await within(overlay.getVoiceSettings(), 3000, 'getVoiceSettings after the set');
    expect(again).toMatchObject({ mute: true, deaf: false, input: { volume: 42, device: 'default' }, output: { volume: 100 }, mode: { type: 'PUSH_TO_TALK', threshold: -60 } });

    // Persisted: the file holds the change (never the device lists), and a new host reads it.
    await player.host.voice.flush();
    const file = JSON.parse(await readFile(path.join(player.dataDir, VOICE_SETTINGS_FILE), 'utf8'));
    expect(file).toMatchObject({ version: 1, mute: true, input: { device_id: 'default', volume: 42 } });
    expect(file.input.available_devices).toBeUndefined();
  });

  it('refuses bad values with 4000 and the field named, keeps the settings, and refuses without the scopes with 4006', async () => {
    const player = await alice();
    const game = await voiceGame(world, player, cleanups, VOICE_SCOPES);
    const bad: [Record<string, unknown>, string][] = [
      [{ input: { volume: 101 } }, 'child "input" fails because [child "volume" fails because ["volume" must be less than or equal to 100]]'],
      [{ output: { volume: -1 } }, 'child "output" fails because [child "volume" fails because ["volume" must be larger than or equal to 0]]'],
      [{ mute: 'yes' }, 'child "mute" fails because ["mute" must be a boolean]'],
      [{ mode: { type: 'ALWAYS_ON' } }, 'child "mode" fails because [child "type" fails because ["type" must be one of [VOICE_ACTIVITY, PUSH_TO_TALK]]]'],
      [{ mode: { delay: 2001 } }, 'child "mode" fails because [child "delay" fails because ["delay" must be less than or equal to 2000]]'],
      [{ mode: { threshold: 3 } }, 'child "mode" fails because [child "threshold" fails because ["threshold" must be less than or equal to 0]]'],
      [{ input: { device_id: 'usb-mic-9' } }, 'child "input" fails because [child "device_id" fails because ["device_id" must be one of [default]]]'],
      [{ input: [] }, 'child "input" fails because ["input" must be an object]'],
    ];
    for (const [args, message] of bad) {
      expect(await game.request('SET_VOICE_SETTINGS', args), JSON.stringify(args)).toMatchObject({ cmd: 'SET_VOICE_SETTINGS', evt: 'ERROR', data: { code: 4000, message } });
    }
    expect((await game.request('GET_VOICE_SETTINGS', {})).data).toEqual(DEFAULT_VOICE_SETTINGS);
    // output allows up to 200; an empty update (pypresence with no arguments) answers the settings.
    expect((await game.request('SET_VOICE_SETTINGS', { output: { volume: 200 } })).data.output.volume).toBe(200);
    expect((await game.request('SET_VOICE_SETTINGS', {})).data.output.volume).toBe(200);
    // pypresence sends no `args` at all when given nothing; the device lists are read-only and ignored.
    expect((await game.request('SET_VOICE_SETTINGS', undefined)).data.output.volume).toBe(200);
    const devices = await game.request('SET_VOICE_SETTINGS', { input: { available_devices: [{ id: 'x', name: 'X' }], volume: 7 } });
    expect(devices.data.input).toEqual({ device_id: 'default', volume: 7, available_devices: [{ id: 'default', name: 'Default' }] });

    const unauthenticated = await voiceGame(world, player, cleanups);
    expect(await unauthenticated.request('GET_VOICE_SETTINGS', {})).toMatchObject({ evt: 'ERROR', data: REFUSED });
    const readOnly = await voiceGame(world, player, cleanups, ['identify', 'rpc.voice.read']);
    expect((await readOnly.request('GET_VOICE_SETTINGS', {})).evt).toBeNull();
    expect(await readOnly.request('SET_VOICE_SETTINGS', { mute: true })).toMatchObject({ evt: 'ERROR', data: REFUSED });
    expect(player.host.voice.settings.mute).toBe(false);
  });
});

describe('issue 29 §3: VOICE_SETTINGS_UPDATE', () => {
  it('reaches the subscribed overlay on a change from another game and from the player; an unsubscribed or unauthorized game gets nothing', async () => {
    const player = await alice();
    const overlay = await npmOverlay(player);
    const updates = new Recorder<any>();
    overlay.on('VOICE_SETTINGS_UPDATE', updates.push);
    await within(overlay.subscribe('VOICE_SETTINGS_UPDATE', undefined), 3000, 'subscribe VOICE_SETTINGS_UPDATE');

    const unsubscribed = await voiceGame(world, player, cleanups, VOICE_SCOPES);
    const unauthorized = await voiceGame(world, player, cleanups, ['identify']);
    expect(await unauthorized.request('SUBSCRIBE', {}, { evt: 'VOICE_SETTINGS_UPDATE' })).toMatchObject({ evt: 'ERROR', data: REFUSED });

    // Another application's change (here the unsubscribed game) ...
    expect((await unsubscribed.request('SET_VOICE_SETTINGS', { deaf: true })).data.deaf).toBe(true);
    const first = await updates.until((data) => data.deaf === true, 3000, 'VOICE_SETTINGS_UPDATE deaf');
    expect(first).toEqual({ ...DEFAULT_VOICE_SETTINGS, deaf: true });
    // ... and the player's own (Companion's control side).
    player.host.voice.update({ mute: true }, { kind: 'player' });
    await updates.until((data) => data.mute === true, 3000, 'VOICE_SETTINGS_UPDATE mute');
    // An update that changes nothing is not announced.
    player.host.voice.update({ mute: true }, { kind: 'player' });

    expect(await unsubscribed.framesBeforeBarrier()).toEqual([]);
    expect(await unauthorized.framesBeforeBarrier()).toEqual([]);
    await within(overlay.getVoiceSettings(), 3000, 'a round trip after the updates');
    expect(updates.items).toHaveLength(2);
  });
});

describe('issue 29 §3: one application at a time changes the voice settings', () => {
  it("locks the settings for other applications while one holds them, and reverts its changes when it disconnects", async () => {
    const player = await alice();
    const holder = await voiceGame(world, player, cleanups, VOICE_SCOPES);
    const other = await voiceGame(world, player, cleanups, VOICE_SCOPES);
    expect((await other.request('SUBSCRIBE', {}, { evt: 'VOICE_SETTINGS_UPDATE' })).evt).toBeNull();
    expect((await holder.request('SET_VOICE_SETTINGS', { mute: true, input: { volume: 10 } })).data).toMatchObject({ mute: true, input: { volume: 10 } });
    expect(await other.request('SET_VOICE_SETTINGS', { deaf: true })).toMatchObject({ evt: 'ERROR', data: { code: 1000, message: VOICE_SETTINGS_LOCKED_MESSAGE } });
    // Reading, and an empty update, are not changes.
    expect((await other.request('SET_VOICE_SETTINGS', {})).data).toMatchObject({ mute: true, deaf: false });
    expect((await holder.request('SET_VOICE_SETTINGS', { noise_suppression: false })).evt).toBeNull();

    holder.close();
    const reverted = await other.waitFor((frame) => frame.payload?.evt === 'VOICE_SETTINGS_UPDATE' && frame.payload.data.mute === false, 'the revert');
    expect(reverted.payload.data).toEqual(DEFAULT_VOICE_SETTINGS);
    expect((await other.request('SET_VOICE_SETTINGS', { deaf: true })).data.deaf).toBe(true);

    // The player's own change ends the hold: nothing is reverted when the game leaves.
    player.host.voice.update({ mute: true }, { kind: 'player' });
    const third = await voiceGame(world, player, cleanups, VOICE_SCOPES);
    expect((await third.request('SET_VOICE_SETTINGS', { qos: false })).evt).toBeNull();
    const before = [...player.host.server.connections()].length;
    other.close();
    await vi.waitFor(() => expect([...player.host.server.connections()].length).toBeLessThan(before), { timeout: 5000, interval: 10 });
    expect(player.host.voice.settings).toMatchObject({ deaf: true, mute: true, qos: false });
  });
});

describe('issue 29 §3: the player changes the voice settings through Companion', () => {
  it('`companion control voice set --mute on` reaches a subscribed game as VOICE_SETTINGS_UPDATE; the control API refuses a bad value with 400', async () => {
    const player = await alice();
    const game = await voiceGame(world, player, cleanups, VOICE_SCOPES);
    expect((await game.request('SUBSCRIBE', {}, { evt: 'VOICE_SETTINGS_UPDATE' })).evt).toBeNull();
    let stdout = '';
    const io = { stdout: (text: string) => (stdout += text), stderr: () => undefined, env: {}, version: '0.0.0-test' };
    expect(await controlCommand(['voice', 'set', '--mute', 'on', '--deaf', 'on', '--runtime-dir', player.runtimeDir], io)).toBe(0);
    expect(stdout).toContain('mute:   on');
    const update = await game.waitFor((frame) => frame.payload?.evt === 'VOICE_SETTINGS_UPDATE', 'VOICE_SETTINGS_UPDATE');
    expect(update.payload).toMatchObject({ cmd: 'DISPATCH', evt: 'VOICE_SETTINGS_UPDATE', data: { ...DEFAULT_VOICE_SETTINGS, mute: true, deaf: true } });
    expect((await game.request('GET_VOICE_SETTINGS', {})).data).toMatchObject({ mute: true, deaf: true });

    const bad = await player.control('PATCH', '/v1/voice/settings', { output: { volume: 300 } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('"volume" must be less than or equal to 200');
    expect((await player.control('GET', '/v1/voice/settings')).body).toMatchObject({ mute: true, output: { volume: 100 } });
  });
});

describe('issue 29 §3: the voice events and voice channels', () => {
  it('accepts the voice events with their subscribe arguments (channel_id where the desktop client needs it) and refuses them without the channel or the voice scopes', async () => {
    const player = await alice();
    const game = await voiceGame(world, player, cleanups, VOICE_SCOPES);
    const channel = '300000000000000001';
    for (const evt of ['VOICE_STATE_CREATE', 'VOICE_STATE_UPDATE', 'VOICE_STATE_DELETE', 'SPEAKING_START', 'SPEAKING_STOP']) {
      expect(await game.request('SUBSCRIBE', { channel_id: channel }, { evt }), evt).toMatchObject({ cmd: 'SUBSCRIBE', evt: null, data: { evt } });
      expect(await game.request('SUBSCRIBE', {}, { evt }), evt).toMatchObject({ evt: 'ERROR', data: { code: 4000, message: 'Invalid subscription parameters provided' } });
    }
    for (const evt of ['VOICE_CONNECTION_STATUS', 'VOICE_SETTINGS_UPDATE']) {
      expect(await game.request('SUBSCRIBE', {}, { evt }), evt).toMatchObject({ evt: null, data: { evt } });
    }
    // VOICE_CHANNEL_SELECT needs `rpc`, as in the desktop client's table.
    expect(await game.request('SUBSCRIBE', {}, { evt: 'VOICE_CHANNEL_SELECT' })).toMatchObject({ evt: 'ERROR', data: REFUSED });
    // Who speaks needs rpc or rpc.voice.read, as the voice states do: not any token, not an unauthenticated game.
    const unauthenticated = await voiceGame(world, player, cleanups);
    const identifyOnly = await voiceGame(world, player, cleanups, ['identify']);
    for (const evt of ['SPEAKING_START', 'SPEAKING_STOP', 'VOICE_STATE_CREATE']) {
      expect(await unauthenticated.request('SUBSCRIBE', { channel_id: channel }, { evt }), evt).toMatchObject({ evt: 'ERROR', data: REFUSED });
      expect(await identifyOnly.request('SUBSCRIBE', { channel_id: channel }, { evt }), evt).toMatchObject({ evt: 'ERROR', data: REFUSED });
    }
  });

  it('GET_SELECTED_VOICE_CHANNEL answers null outside voice; SELECT_VOICE_CHANNEL leaves (null) and refuses a channel the player cannot see (xhayper)', async () => {
    const player = await alice();
    // SELECT_VOICE_CHANNEL needs `rpc` (the desktop client's table); GET_SELECTED_VOICE_CHANNEL rpc.voice.read.
    const scopes = [...VOICE_SCOPES, 'rpc'];
    const accessToken = await voiceToken(world, player, scopes);
    const previous = process.env['XDG_RUNTIME_DIR'];
    process.env['XDG_RUNTIME_DIR'] = player.runtimeDir;
    const client = new XhayperClient({ clientId: DEMO_APP_ID });
    cleanups.push(() => within(client.destroy(), 2000, 'xhayper destroy()').catch(() => undefined));
    try {
      await within(client.login({ accessToken, scopes: scopes as any }), 5000, 'xhayper login');
    } finally {
      if (previous === undefined) delete process.env['XDG_RUNTIME_DIR'];
      else process.env['XDG_RUNTIME_DIR'] = previous;
    }
    expect(await within(client.user!.getSelectedVoiceChannel(), 3000, 'getSelectedVoiceChannel')).toBeNull();
    expect((await client.request('SELECT_VOICE_CHANNEL', { channel_id: null })).data).toBeNull();
    const error = await rejectionOf(client.user!.selectVoiceChannel('300000000000000001', 5, true, false));
    expect(error).toMatchObject({ code: 4005, message: 'Invalid channel' });
    const bad = await rejectionOf(client.request('SELECT_VOICE_CHANNEL', { channel_id: 42 }));
    expect(bad).toMatchObject({ code: 4000 });
  });
});
