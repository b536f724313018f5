/**
 * Issue 29 §1 QA: the simulated friend in a server voice channel, from the command line
 * (`companion platform friend voice ...`, over the emulator's admin route) and from a scenario
 * (`friend_voice` and `expect_speaking` steps), with the admin listing saying who speaks. Real
 * emulator, real host, real files (a WAV file the friend "plays").
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { friendCommand } from '../../src/shells/cli/platform-friend.js';
import { UsageError } from '../../src/shells/cli/cli-args.js';
import { voiceCommand } from '../../src/shells/cli/platform-voice.js';
import { runInProcess } from '../tools/scenario/support.js';
import { World } from './support/world.js';

let world: World;
let started = false;
let tmp: string;
beforeEach(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'companion-voice-qa-'));
});
afterEach(async () => {
  if (started) await world.close();
  started = false;
  await rm(tmp, { recursive: true, force: true });
});

/** A PCM WAV file of `ms` of silence (8 kHz, mono, 16-bit). */
async function wavFile(ms: number): Promise<string> {
  const dataBytes = Math.round((8000 * 2 * ms) / 1000);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + dataBytes, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(8000, 24);
  header.writeUInt32LE(16000, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(dataBytes, 40);
  const file = path.join(tmp, 'voice.wav');
  await writeFile(file, Buffer.concat([header, Buffer.alloc(dataBytes)]));
  return file;
}

async function friend(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await friendCommand([...argv, '--data', world.platform.dataDir], { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text), env: {}, version: '0.0.0-test' });
  return { code, stdout, stderr };
}

async function listed(): Promise<{ user_id: string; channel_id: string; self_mute: boolean; speaking: boolean }[]> {
  const response = await fetch(`${world.platform.url}/_emulator/voice-states`, { headers: { Authorization: `Admin ${world.platform.adminToken}` } });
  return (await response.json()) as { user_id: string; channel_id: string; self_mute: boolean; speaking: boolean }[];
}

describe('issue 29 §1 QA: companion platform friend voice', () => {
  it('joins a server voice channel by name, speaks for as long as a WAV file plays, mutes (speaking stops), and leaves; the admin listing says who speaks', async () => {
    world = await World.start();
    started = true;
    const bob = world.platform.user('bob')!;

    const joined = await friend('voice', 'join', 'Voice', '--as', 'bob');
    expect(joined.code, joined.stderr).toBe(0);
    expect(joined.stdout).toMatch(/^bob is in voice channel \d+, not speaking\n$/);
    expect(await listed()).toEqual([expect.objectContaining({ user_id: bob.id, speaking: false, self_mute: false })]);

    const spoke = await friend('voice', 'speak', '--wav', await wavFile(300), '--as', 'bob');
    expect(spoke.code, spoke.stderr).toBe(0);
    expect(spoke.stdout).toMatch(/, speaking for 0\.[0-3] s\n$/);
    expect((await listed())[0]?.speaking).toBe(true);
    // The file's length (0.3 s) is over: bob is quiet again.
    await expect.poll(async () => (await listed())[0]?.speaking, { timeout: 5000, interval: 25 }).toBe(false);

    expect((await friend('voice', 'speak', '--tone', '440', '--seconds', '30', '--as', 'bob')).code).toBe(0);
    expect((await listed())[0]?.speaking).toBe(true);
    let out = '';
    expect(await voiceCommand(['--data', world.platform.dataDir], { stdout: (text) => (out += text), stderr: () => undefined, env: {}, version: '0.0.0-test' })).toBe(0);
    expect(out).toMatch(/ bob \(\d+\) speaking\n$/);
    const muted = await friend('voice', 'mute', '--as', 'bob');
    expect(muted.stdout).toMatch(/^bob is in voice channel \d+ \(muted\), not speaking\n$/);
    expect(await listed()).toEqual([expect.objectContaining({ self_mute: true, speaking: false })]);
    // A muted friend does not speak: the emulator says why.
    const refused = await friend('voice', 'speak', '--as', 'bob');
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('muted');

    const left = await friend('voice', 'leave', '--as', 'bob');
    expect(left.stdout).toBe('bob is not in a voice channel\n');
    expect(await listed()).toEqual([]);
  });

  it('refuses what it cannot do with a clear usage error: no channel, a file that is not WAV, options of another action', async () => {
    world = await World.start();
    started = true;
    await expect(friend('voice', 'join', '--as', 'bob')).rejects.toThrow(UsageError);
    const notWav = path.join(tmp, 'note.txt');
    await writeFile(notWav, 'hello');
    await expect(friend('voice', 'speak', '--wav', notWav, '--as', 'bob')).rejects.toThrow(/not a WAV file/);
    await expect(friend('voice', 'mute', '--seconds', '2', '--as', 'bob')).rejects.toThrow(/--seconds is for 'platform friend voice speak'/);
    await expect(friend('voice', 'speak', '--tone', '5', '--as', 'bob')).rejects.toThrow(/--tone must be a number from 20 to 20000/);
    // Not in a channel: the emulator says so.
    const notIn = await friend('voice', 'speak', '--as', 'bob');
    expect(notIn.code).not.toBe(0);
    expect(notIn.stderr).toContain('join one first');
  });
});

describe('issue 29 §1 QA: scenario steps friend_voice and expect_speaking', () => {
  it('examples/scenarios/voice-channel.yaml: a game joins the player to Voice, bob joins and speaks, Companion shows him speaking, the game hears SPEAKING_START', async () => {
    const run = await runInProcess([path.join('examples', 'scenarios', 'voice-channel.yaml')]);
    const output = [...run.out, ...run.err].join('\n');
    expect(run.code, output).toBe(0);
    expect(output).toContain('ok 9 expect_speaking bob speaking');
    expect(output).toContain('ok 10 expect_event SPEAKING_START on overlay');
  });
});
