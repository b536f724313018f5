/**
 * Issue 29 §1 QA: the simulated friend in a lobby call, from the command line
 * (`companion platform friend voice ... --lobby ID`, over the emulator's admin route) and from a
 * scenario (`call`, `friend_voice` with `lobby`, `expect_speaking` with `sdk`, `expect_audio`).
 * Real emulator, real SDK games on their own platform sessions, real audio, real WAV files.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Call } from '../../../rpc/client/index.js';
import { UsageError } from '../../src/shells/cli/cli-args.js';
import { friendCommand } from '../../src/shells/cli/platform-friend.js';
import { SdkEntry } from '../../src/tools/scenario/sdk-entry.js';
import { runInProcess } from '../tools/scenario/support.js';
import { connectedCall, goertzel, ReceivedAudio, zeroCrossingHz } from './support/audio-probe.js';
import { DEMO_APP_ID, eventually, World } from './support/world.js';

let world: World | undefined;
let tmp: string;
const games: SdkEntry[] = [];
beforeEach(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'companion-call-qa-'));
});
afterEach(async () => {
  for (const game of games.splice(0)) await game.close();
  await world?.close();
  world = undefined;
  await rm(tmp, { recursive: true, force: true });
});

/** A 16-bit PCM WAV file of a sine tone (`rate` Hz, `channels`), or with other `bits`. */
async function toneWav(name: string, frequencyHz: number, ms: number, rate = 16_000, channels = 2, bits = 16): Promise<string> {
  const frames = Math.round((rate * ms) / 1000);
  const bytesPerSample = bits / 8;
  const data = Buffer.alloc(frames * channels * bytesPerSample);
  for (let i = 0; i < frames; i += 1) {
    const value = Math.round(Math.sin((2 * Math.PI * frequencyHz * i) / rate) * 0.4 * 32767);
    for (let channel = 0; channel < channels; channel += 1) {
      if (bits === 16) data.writeInt16LE(value, (i * channels + channel) * 2);
      else data.writeUInt8(128 + (value >> 8), i * channels + channel);
    }
  }
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(channels, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * channels * bytesPerSample, 28);
  header.writeUInt16LE(channels * bytesPerSample, 32);
  header.writeUInt16LE(bits, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(data.length, 40);
  const file = path.join(tmp, name);
  await writeFile(file, Buffer.concat([header, data]));
  return file;
}

async function friend(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await friendCommand([...argv, '--data', (world as World).platform.dataDir], { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text), env: {}, version: '0.0.0-test' });
  return { code, stdout, stderr };
}

async function sdkGame(name: string, user: string): Promise<SdkEntry> {
  const game = await SdkEntry.open({ name, platformUrl: (world as World).platform.url, username: user, applicationId: DEMO_APP_ID, scopes: 'openid sdk.social_layer', timeoutMs: 10_000 });
  games.push(game);
  return game;
}

async function lobbyOf(game: SdkEntry, secret: string): Promise<string> {
  const { lobbyId } = await game.client.createOrJoinLobby(secret);
  if (lobbyId === null) throw new Error(`${game.name}: no lobby`);
  return lobbyId;
}

/** The dominant frequency of what `received` got from `userId` since frame `from`, by zero crossings, checked by Goertzel. */
function heardHz(received: ReceivedAudio, userId: string, from: number): number {
  const heard = received.samples(userId, from);
  const hz = zeroCrossingHz(heard);
  expect(goertzel(heard, Math.round(hz))).toBeGreaterThan(10 * goertzel(heard, Math.round(hz * 2)));
  return hz;
}

describe('issue 29 §1 QA: the simulated friend in a lobby call (companion platform friend voice --lobby)', () => {
  it("joins alice's lobby call, speaks a 440 Hz tone and a WAV file her game hears, mutes (silence), and leaves (no longer a participant)", async () => {
    world = await World.start();
    const alice = await sdkGame('alice', 'alice');
    const bobGame = await sdkGame('bob', 'bob');
    const lobby = await lobbyOf(alice, 'qa-call');
    await lobbyOf(bobGame, 'qa-call');
    const bob = world.platform.user('bob')!;
    const received = new ReceivedAudio();
    const speaking: [string, boolean][] = [];
    const call: Call = await connectedCall(alice.client.startCallWithAudioCallbacks(lobby, received.callback, undefined), 'alice');
    call.setSpeakingStatusChangedCallback((userId, on) => speaking.push([userId, on]));

    const joined = await friend('voice', 'join', '--lobby', lobby, '--as', 'bob');
    expect(joined.code, joined.stderr).toBe(0);
    expect(joined.stdout).toBe(`bob is in lobby ${lobby}'s call, not speaking\n`);
    await eventually(() => call.getParticipants().includes(bob.id), 'alice to see bob in the call');

    const spoke = await friend('voice', 'speak', '--tone', '440', '--seconds', '1', '--lobby', lobby, '--as', 'bob');
    expect(spoke.code, spoke.stderr).toBe(0);
    expect(spoke.stdout).toMatch(new RegExp(`^bob is in lobby ${lobby}'s call, speaking for (0\\.\\d|1(\\.0)?) s\\n$`));
    await eventually(() => received.loudFrames(bob.id) >= 40, "alice to hear bob's tone", 10_000);
    expect(heardHz(received, bob.id, 0)).toBeGreaterThan(420);
    expect(heardHz(received, bob.id, 0)).toBeLessThan(460);
    await eventually(() => speaking.some(([id, on]) => id === bob.id && !on), 'bob to stop speaking after 1 s', 5000);
    expect(speaking.filter(([id]) => id === bob.id).map(([, on]) => on)).toEqual([true, false]);

    // A 16 kHz stereo WAV file of 660 Hz: read, mixed down and resampled by the CLI, played into the call.
    const before = received.count(bob.id);
    const wav = await toneWav('660.wav', 660, 1500);
    const played = await friend('voice', 'speak', '--wav', wav, '--lobby', lobby, '--as', 'bob');
    expect(played.code, played.stderr).toBe(0);
    expect(played.stdout).toMatch(/, speaking for 1\.[3-5] s\n$/);
    await eventually(() => received.loudFrames(bob.id, before) >= 60, "alice to hear bob's WAV file", 10_000);
    expect(heardHz(received, bob.id, before + 5)).toBeGreaterThan(640);
    expect(heardHz(received, bob.id, before + 5)).toBeLessThan(680);

    // Muted: the tone he starts before muting stops reaching alice.
    await eventually(() => speaking.at(-1)?.[1] === false, 'bob to stop speaking after the file');
    const spokenBefore = speaking.length;
    expect((await friend('voice', 'speak', '--tone', '440', '--seconds', '30', '--lobby', lobby, '--as', 'bob')).code).toBe(0);
    await eventually(() => speaking.slice(spokenBefore).some(([id, on]) => id === bob.id && on), 'bob to speak again');
    const muted = await friend('voice', 'mute', '--lobby', lobby, '--as', 'bob');
    expect(muted.stdout).toBe(`bob is in lobby ${lobby}'s call (muted), not speaking\n`);
    await eventually(() => call.getVoiceStateHandle(bob.id)?.selfMute() === true, 'alice to see bob muted');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const afterMute = received.count(bob.id);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(received.loudFrames(bob.id, afterMute)).toBe(0);
    const refused = await friend('voice', 'speak', '--lobby', lobby, '--as', 'bob');
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('muted');

    const left = await friend('voice', 'leave', '--lobby', lobby, '--as', 'bob');
    expect(left.stdout).toBe(`bob is not in lobby ${lobby}'s call\n`);
    await eventually(() => !call.getParticipants().includes(bob.id), 'bob to be gone from alice’s call');
  }, 90_000);

  it('refuses clearly: a friend who is not a member of the lobby, a WAV file that is not 16-bit PCM, speaking before joining', async () => {
    world = await World.start();
    const alice = await sdkGame('alice', 'alice');
    const lobby = await lobbyOf(alice, 'qa-call-members');
    const notMember = await friend('voice', 'join', '--lobby', lobby, '--as', 'carol');
    expect(notMember.code).not.toBe(0);
    expect(notMember.stderr).toContain(`carol is not a member of lobby ${lobby}`);
    const eightBit = await toneWav('8bit.wav', 440, 200, 8000, 1, 8);
    await expect(friend('voice', 'speak', '--wav', eightBit, '--lobby', lobby, '--as', 'carol')).rejects.toThrow(/is 8-bit PCM: a call plays 16-bit PCM WAV files only/);
    await expect(friend('voice', 'join', 'Voice', '--lobby', lobby, '--as', 'carol')).rejects.toThrow(UsageError);
    const notIn = await friend('voice', 'speak', '--lobby', lobby, '--as', 'alice');
    expect(notIn.code).not.toBe(0);
    expect(notIn.stderr).toContain('join it first');
  }, 60_000);
});
describe('issue 29 §1 QA: scenario steps call, friend_voice in a lobby call, expect_speaking and expect_audio', () => {
  it('examples/scenarios/voice-call.yaml: a game in a lobby call hears bob speak at 440 Hz, sees him speaking, hears his WAV file at 660 Hz, hears silence once he mutes, and sees him leave', async () => {
    const run = await runInProcess([path.join('examples', 'scenarios', 'voice-call.yaml')]);
    const output = [...run.out, ...run.err].join('\n');
    expect(run.code, output).toBe(0);
    expect(output).toMatch(/ok \d+ expect_audio bob at 440 Hz on g: heard 4[2-5]\d Hz/);
    expect(output).toMatch(/ok \d+ expect_speaking bob speaking on g/);
    // The WAV file next to the scenario (660 Hz at 8 kHz), resampled and played into the call.
    expect(output).toMatch(/ok \d+ expect_audio bob at 660 Hz on g: heard 6[4-7]\d Hz/);
    expect(output).toMatch(/ok \d+ expect_audio none from bob on g: silence from bob for 500 ms/);
  }, 90_000);

  it('expect_audio fails when the game hears another frequency, or sound where silence was expected, and says what it heard', async () => {
    const file = path.join(tmp, 'wrong.yaml');
    await writeFile(
      file,
      [
        'name: the wrong tone',
        'steps:',
        '  - sdk: {name: g, user: alice, app: "1234567890123456789"}',
        '  - sdk_call: {sdk: g, call: createOrJoinLobby, args: [wrong-tone], save: {LOBBY: lobbyId}}',
        '  - sdk: {name: b, user: bob, app: "1234567890123456789"}',
        '  - sdk_call: {sdk: b, call: createOrJoinLobby, args: [wrong-tone]}',
        '  - call: {sdk: g, lobby: "{{LOBBY}}"}',
        '  - friend_voice: {as: bob, action: join, lobby: "{{LOBBY}}"}',
        '  - friend_voice: {as: bob, action: speak, lobby: "{{LOBBY}}", tone_hz: 440, ms: 3000}',
        '  - expect_audio: {sdk: g, from: bob, tone_hz: 660, timeout_ms: 1500}',
      ].join('\n'),
    );
    const run = await runInProcess([file]);
    const output = [...run.out, ...run.err].join('\n');
    expect(run.code).not.toBe(0);
    expect(output).toMatch(/expected bob at 660 Hz in g's received audio: it got a sound at about 4[2-5]\d Hz/);

    await writeFile(
      file,
      [
        'name: sound, not silence',
        'steps:',
        '  - sdk: {name: g, user: alice, app: "1234567890123456789"}',
        '  - sdk_call: {sdk: g, call: createOrJoinLobby, args: [loud], save: {LOBBY: lobbyId}}',
        '  - sdk: {name: b, user: bob, app: "1234567890123456789"}',
        '  - sdk_call: {sdk: b, call: createOrJoinLobby, args: [loud]}',
        '  - call: {sdk: g, lobby: "{{LOBBY}}"}',
        '  - friend_voice: {as: bob, action: join, lobby: "{{LOBBY}}"}',
        '  - friend_voice: {as: bob, action: speak, lobby: "{{LOBBY}}", tone_hz: 440, ms: 5000}',
        '  - expect_audio: {sdk: g, from: bob, none: true, timeout_ms: 1500}',
      ].join('\n'),
    );
    const loud = await runInProcess([file]);
    expect(loud.code).not.toBe(0);
    expect([...loud.out, ...loud.err].join('\n')).toMatch(/expected no sound from bob in g's received audio: it got sound from bob \d+ ms ago/);
  }, 90_000);
});
