/**
 * examples/lobby-chat.mjs as two players run it: each next to their own host (alice, bob on one
 * emulator), the game authorizes for the communication scopes (the hosts approve), both join the
 * same lobby, and a line alice types is printed on bob's side.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/cli-process.js';
import { eventually, World, type Player } from './support/world.js';

let world: World;
const children: ChildProcessWithoutNullStreams[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  await world.close();
});

/** The example for a player; everything it prints is kept. */
function chat(player: Player, lobby: string): { child: ChildProcessWithoutNullStreams; output: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [path.join(REPO_ROOT, 'examples', 'lobby-chat.mjs'), lobby], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, XDG_RUNTIME_DIR: player.runtimeDir },
  });
  children.push(child);
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (output += text));
  child.stderr.setEncoding('utf8').on('data', (text: string) => (output += text));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

describe('examples/lobby-chat.mjs', () => {
  it("two players join one lobby; lines go both ways; Ctrl+D leaves", async () => {
    world = await World.start();
    const [alice, bob] = [await world.player('alice', { consentPolicy: 'approve' }), await world.player('bob', { consentPolicy: 'approve' })];
    const aliceChat = chat(alice, 'squad-9');
    await eventually(() => /in lobby \d+ \(1 members\)/.test(aliceChat.output()), `alice in the lobby: ${aliceChat.output()}`, 15_000);
    const bobChat = chat(bob, 'squad-9');
    await eventually(() => /in lobby \d+ \(2 members\)/.test(bobChat.output()), `bob in the lobby: ${bobChat.output()}`, 15_000);
    await eventually(() => aliceChat.output().includes('joined'), `alice told that bob joined: ${aliceChat.output()}`, 10_000);
    aliceChat.child.stdin.write('hello bob\n');
    await eventually(() => bobChat.output().includes(': hello bob'), `bob sees the line: ${bobChat.output()}`, 10_000);
    bobChat.child.stdin.write('hi alice\n');
    await eventually(() => aliceChat.output().includes(': hi alice'), `alice sees bob's line: ${aliceChat.output()}`, 10_000);
    aliceChat.child.stdin.end();
    bobChat.child.stdin.end();
    expect(await aliceChat.exited).toBe(0);
    expect(await bobChat.exited).toBe(0);
  });
});
