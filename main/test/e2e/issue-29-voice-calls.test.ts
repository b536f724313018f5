import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AudioModeType, CallError, CallStatus, type Call, type Client } from '../../../rpc/client/index.js';
import { connectedCall, goertzel, peak, ReceivedAudio, speak, zeroCrossingHz } from './support/audio-probe.js';
import { SdkPlayers } from './support/sdk-players.js';
import { eventually } from './support/world.js';

let table: SdkPlayers | undefined;

afterEach(async () => {
  await table?.close();
  table = undefined;
});

interface Seat {
  readonly game: Client;
  readonly call: Call;
  readonly received: ReceivedAudio;
  readonly speaking: [string, boolean][];
  readonly statuses: CallStatus[];
}

/** A signed-in game of the player in the lobby of `secret`, in its call with the audio callbacks. */
async function seat(players: SdkPlayers, name: string, secret: string, signedIn?: Client): Promise<Seat> {
  const game = signedIn ?? (await players.signedIn(name));
  const { lobbyId } = await game.createOrJoinLobby(secret);
  if (lobbyId === null) throw new Error(`${name}: no lobby`);
  const received = new ReceivedAudio();
  const speaking: [string, boolean][] = [];
  const statuses: CallStatus[] = [];
  const call = game.startCallWithAudioCallbacks(lobbyId, received.callback, undefined);
  call?.setSpeakingStatusChangedCallback((userId, isPlayingSound) => speaking.push([userId, isPlayingSound]));
  call?.setStatusChangedCallback((status) => statuses.push(status));
  return { game, call: await connectedCall(call, name), received, speaking, statuses };
}

/** Alice and bob in one lobby's call, carol in another lobby's call of the same game. */
async function threeSeats(): Promise<{ players: SdkPlayers; alice: Seat; bob: Seat; carol: Seat; ids: Record<'alice' | 'bob' | 'carol', string> }> {
  const players = await SdkPlayers.start(['alice', 'bob', 'carol']);
  table = players;
  const alice = await seat(players, 'alice', 'squad-voice');
  const bob = await seat(players, 'bob', 'squad-voice');
  const carol = await seat(players, 'carol', 'another-squad');
  const ids = { alice: players.userId('alice'), bob: players.userId('bob'), carol: players.userId('carol') };
  await eventually(() => alice.call.getParticipants().includes(ids.bob), 'alice to see bob in the call');
  return { players, alice, bob, carol, ids };
}

describe('issue 29 §2 calls: two SDK games in one lobby call on two hosts hear each other', () => {
  it("a 440 Hz tone fed into alice's virtual input arrives at bob's received-audio callback; speaking fires on both; carol in another lobby hears nothing", async () => {
    const { alice, bob, carol, ids } = await threeSeats();
    expect(alice.call.getStatus()).toBe(CallStatus.Connected);
    expect(bob.call.getParticipants().sort()).toEqual([ids.alice, ids.bob].sort());
    expect(alice.statuses).toEqual([CallStatus.Connecting, CallStatus.SignalingConnected, CallStatus.Connected]);

    await speak(alice.game, 1000);
    await eventually(() => bob.received.loudFrames(ids.alice) >= 40, "bob to receive alice's tone", 10_000);
    const heard = bob.received.samples(ids.alice);
    expect(zeroCrossingHz(heard)).toBeGreaterThan(420);
    expect(zeroCrossingHz(heard)).toBeLessThan(460);
    expect(goertzel(heard, 440)).toBeGreaterThan(20 * goertzel(heard, 880));
    expect(goertzel(heard, 440)).toBeGreaterThan(20 * goertzel(heard, 300));
    // Speaking: alice's own call says so, and bob's, from the voice server; both end when she stops.
    await eventually(() => bob.speaking.some(([id, on]) => id === ids.alice && !on), "bob to see alice stop speaking", 5000);
    expect(alice.speaking.filter(([id]) => id === ids.alice).map(([, on]) => on)).toEqual([true, false]);
    expect(bob.speaking.filter(([id]) => id === ids.alice).map(([, on]) => on)).toEqual([true, false]);
    // Bob's virtual output played it too; carol's call, in another lobby, got nothing.
    expect(peak(bob.game.getVirtualOutputDevice().read())).toBeGreaterThan(5000);
    expect(carol.received.frames.size).toBe(0);
    expect(peak(carol.game.getVirtualOutputDevice().read())).toBe(0);
    expect(carol.call.getParticipants()).toEqual([ids.carol]);
  }, 90_000);

  it('mute stops sending, deafen stops receiving, participant volume scales the samples, the received callback can mute them', async () => {
    const { alice, bob, ids } = await threeSeats();
    const voiceStates: string[] = [];
    bob.call.setOnVoiceStateChangedCallback((userId) => voiceStates.push(userId));

    // Muted: alice's tone is captured but not sent; bob sees her voice state.
    alice.call.setSelfMute(true);
    await eventually(() => bob.call.getVoiceStateHandle(ids.alice)?.selfMute() === true, "bob to see alice's mute");
    expect(voiceStates).toContain(ids.alice);
    const beforeMuted = bob.received.count(ids.alice);
    await speak(alice.game, 400);
    alice.call.setSelfMute(false);
    await eventually(() => bob.call.getVoiceStateHandle(ids.alice)?.selfMute() === false, "bob to see alice's unmute");
    // Unmuted, at full volume: the reference loudness.
    await speak(alice.game, 400);
    await eventually(() => bob.received.loudFrames(ids.alice, beforeMuted) >= 15, 'the unmuted tone');
    const loudFull = bob.received.medianPeak(ids.alice, beforeMuted);
    // 20 frames of the unmuted tone (and a few concealed ones: the spurt's end, a late frame's
    // stretch on a busy machine): not the 20 more the muted tone would have made.
    expect(bob.received.loudFrames(ids.alice, beforeMuted)).toBeLessThanOrEqual(30);

    // Half volume for alice on bob's side.
    bob.call.setParticipantVolume(ids.alice, 50);
    const beforeHalf = bob.received.count(ids.alice);
    await speak(alice.game, 400);
    await eventually(() => bob.received.loudFrames(ids.alice, beforeHalf) >= 15, 'the half-volume tone');
    const loudHalf = bob.received.medianPeak(ids.alice, beforeHalf);
    expect(loudHalf / loudFull).toBeGreaterThan(0.45);
    expect(loudHalf / loudFull).toBeLessThan(0.55);
    bob.call.setParticipantVolume(ids.alice, 100);

    // The received callback answers "mute": bob's output stays silent while the callback still sees the audio.
    bob.received.muteAll = true;
    bob.game.getVirtualOutputDevice().read();
    const beforeCallbackMute = bob.received.count(ids.alice);
    await speak(alice.game, 400);
    await eventually(() => bob.received.loudFrames(ids.alice, beforeCallbackMute) >= 15, 'the tone seen by the callback');
    expect(peak(bob.game.getVirtualOutputDevice().read())).toBe(0);
    bob.received.muteAll = false;

    // Bob deafens: nothing of alice reaches his callback or his output; alice sees his voice state.
    bob.call.setSelfDeaf(true);
    await eventually(() => alice.call.getVoiceStateHandle(ids.bob)?.selfDeaf() === true, "alice to see bob's deafen");
    const beforeDeaf = bob.received.count(ids.alice);
    await speak(alice.game, 400);
    // A marker after the tone that bob does hear once undeafened shows the tone had its time.
    bob.call.setSelfDeaf(false);
    await eventually(() => alice.call.getVoiceStateHandle(ids.bob)?.selfDeaf() === false, "alice to see bob's undeafen");
    await speak(alice.game, 200, 1000);
    await eventually(() => bob.received.loudFrames(ids.alice, beforeDeaf) >= 5, 'the marker tone after undeafen');
    const afterDeaf = bob.received.samples(ids.alice, beforeDeaf);
    // What bob got after the deafen is the 1 kHz marker only: no 440 Hz.
    expect(goertzel(afterDeaf, 1000)).toBeGreaterThan(20 * goertzel(afterDeaf, 440));
  }, 120_000);
});

describe('issue 29 §2 reconnect: a network loss reconnects the call', () => {
  it('the voice connection drops: status Reconnecting then Connected, and audio flows again', async () => {
    const { players, alice, bob, carol, ids } = await threeSeats();
    const lobbyId = alice.call.getChannelId();
    const platform = players.world.platform;
    const dropped = await fetch(`${platform.url}/_emulator/calls/${lobbyId}/participants/${ids.alice}/drop`, { method: 'POST', headers: { Authorization: `Admin ${platform.adminToken}` } });
    expect(dropped.status).toBe(204);
    await eventually(() => alice.statuses.includes(CallStatus.Reconnecting) && alice.call.getStatus() === CallStatus.Connected, 'alice to reconnect', 10_000);
    expect(alice.statuses.slice(-2)).toEqual([CallStatus.Reconnecting, CallStatus.Connected]);
    const before = bob.received.count(ids.alice);
    await speak(alice.game, 400);
    await eventually(() => bob.received.loudFrames(ids.alice, before) >= 15, "alice's tone after the reconnect", 10_000);
    expect(bob.call.getParticipants()).toContain(ids.alice);

    // Carol, in another lobby of the same game, cannot start a call in alice's lobby.
    const errors: number[] = [];
    const refused = carol.game.startCall(lobbyId);
    refused?.setStatusChangedCallback((_status, error) => errors.push(error));
    expect(await refused?.waitConnected(10_000)).toBe(false);
    expect(refused?.getStatus()).toBe(CallStatus.Disconnected);
    expect(errors).toEqual([CallError.Forbidden]);
  }, 90_000);
});

describe('issue 29 §2 audio devices: push to talk, input volume, mute all, the no-input callback, the device list', () => {
  it('what the player says goes out only as these settings allow', async () => {
    const players = await SdkPlayers.start(['alice', 'bob']);
    table = players;
    const alice = await seat(players, 'alice', 'squad-devices');
    const bob = await seat(players, 'bob', 'squad-devices');
    const ids = { alice: players.userId('alice'), bob: players.userId('bob') };
    await eventually(() => alice.call.getParticipants().includes(ids.bob), 'alice to see bob');

    const devices = await alice.game.getInputDevices();
    expect(devices).toEqual([{ id: 'companion-virtual-input', name: 'Companion virtual input', isDefault: true }]);
    expect((await alice.game.setInputDevice('usb-headset')).error).toContain('no input device');
    expect((await alice.game.setOutputDevice((await alice.game.getCurrentOutputDevice()).id)).successful).toBe(true);

    // Nothing written for a second: the no-input callback says so; a tone: input again.
    const inputDetected: boolean[] = [];
    alice.game.setNoAudioInputCallback((detected) => inputDetected.push(detected));
    await eventually(() => inputDetected.includes(false), 'the no-input callback', 5000);

    // Push to talk: the tone is not sent until the key is down.
    alice.call.setAudioMode(AudioModeType.PTT);
    expect(alice.call.getAudioMode()).toBe(AudioModeType.PTT);
    const beforePtt = bob.received.count(ids.alice);
    await speak(alice.game, 300);
    expect(inputDetected.at(-1)).toBe(true);
    alice.call.setPTTActive(true);
    await speak(alice.game, 400);
    alice.call.setPTTActive(false);
    await eventually(() => bob.received.loudFrames(ids.alice, beforePtt) >= 20, 'the push-to-talk tone');
    // Only the 400 ms with the key down came (20 frames and a few concealed), not the 15 frames before.
    expect(bob.received.loudFrames(ids.alice, beforePtt)).toBeLessThanOrEqual(30);
    const full = bob.received.medianPeak(ids.alice, beforePtt);

    // Back to voice activity; the input volume at half halves what bob hears.
    alice.call.setAudioMode(AudioModeType.VAD);
    alice.game.setInputVolume(50);
    const beforeHalf = bob.received.count(ids.alice);
    await speak(alice.game, 400);
    await eventually(() => bob.received.loudFrames(ids.alice, beforeHalf) >= 15, 'the half-input tone');
    const half = bob.received.medianPeak(ids.alice, beforeHalf);
    expect(half / full).toBeGreaterThan(0.45);
    expect(half / full).toBeLessThan(0.55);

    // Mute all: every call of the game, and bob sees it.
    alice.game.setSelfMuteAll(true);
    expect(alice.game.getSelfMuteAll()).toBe(true);
    expect(alice.call.getSelfMute()).toBe(true);
    await eventually(() => bob.call.getVoiceStateHandle(ids.alice)?.selfMute() === true, "bob to see alice's mute all");
  }, 90_000);
});

describe('issue 29 §2 audio devices: a virtual headset plugged in mid-call, and the voice log file', () => {
  it("alice's tone from an added virtual input reaches bob once she chooses it, her speakers unplugged mid-call fall back to the built-in ones; setVoiceLogDir writes the voice lines", async () => {
    const players = await SdkPlayers.start(['alice', 'bob']);
    table = players;
    const logDir = await mkdtemp(path.join(os.tmpdir(), 'companion-voice-log-'));
    try {
      // Set before the call, as the Social SDK wants it.
      const aliceGame = await players.signedIn('alice');
      aliceGame.setVoiceLogDir(logDir, 'info');
      const alice = await seat(players, 'alice', 'squad-headset', aliceGame);
      const bob = await seat(players, 'bob', 'squad-headset');
      const ids = { alice: players.userId('alice'), bob: players.userId('bob') };
      await eventually(() => alice.call.getParticipants().includes(ids.bob), 'alice to see bob');

      const changes: string[][] = [];
      alice.game.setDeviceChangeCallback((inputs) => changes.push(inputs.map((device) => device.id)));
      const headset = alice.game.addVirtualInputDevice('USB headset');
      // Plugged in but not chosen: 300 ms of the built-in input's silence go by, the headset's tone waits unheard.
      const queued = headset.playTone(440, 300);
      const beforeChosen = bob.received.count(ids.alice);
      const builtIn = alice.game.getVirtualInputDevice();
      builtIn.write(new Int16Array(queued));
      await eventually(() => builtIn.queuedSamples === 0, 'the built-in input to be read');
      expect(headset.queuedSamples).toBe(queued);
      expect(bob.received.loudFrames(ids.alice, beforeChosen)).toBe(0);
      headset.clear();
      expect((await alice.game.setInputDevice(headset.device.id)).successful).toBe(true);
      await speak(alice.game, 600, 440);
      await eventually(() => bob.received.loudFrames(ids.alice, beforeChosen) >= 20, "bob to hear the headset's tone", 10_000);
      expect(zeroCrossingHz(bob.received.samples(ids.alice))).toBeGreaterThan(420);

      // Bob plugs in speakers, plays the call on them, then unplugs them: the built-in output plays again.
      const speakers = bob.game.addVirtualOutputDevice('Desk speakers');
      expect((await bob.game.setOutputDevice(speakers.device.id)).successful).toBe(true);
      bob.game.getVirtualOutputDevice().read();
      await speak(alice.game, 400);
      await eventually(() => peak(speakers.read()) > 5000, "the speakers to play alice's tone", 10_000);
      expect(bob.game.removeVirtualOutputDevice(speakers.device.id)).toBe(true);
      expect((await bob.game.getCurrentOutputDevice()).isDefault).toBe(true);
      await speak(alice.game, 400);
      await eventually(() => peak(bob.game.getVirtualOutputDevice().read()) > 5000, 'the built-in output to play again', 10_000);

      expect(alice.game.removeVirtualInputDevice(headset.device.id)).toBe(true);
      expect(changes).toEqual([[expect.any(String), headset.device.id], [expect.any(String)]]);
      const log = await readFile(path.join(logDir, 'companion-voice.log'), 'utf8');
      expect(log).toMatch(/\[info\] call \d+: Connected/);
      expect(log).not.toMatch(/\[verbose\]/);
    } finally {
      await rm(logDir, { recursive: true, force: true });
    }
  }, 90_000);
});
