/**
 * `companion serve --no-game-detection`: no process scanning this run. A program running under
 * the demo app's executable name is detected by a default `serve` and not by one started with
 * the flag; the player's settings are left as they were.
 */
import { chmodSync, copyFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { cliCleanup, CliProcess } from '../../support/cli-process.js';

const { track, dir } = cliCleanup('companion-serve-no-detection-');
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

async function serve(args: string[]): Promise<{ url: string; token: string; data: string }> {
  const runtime = await dir();
  const data = await dir();
  const proc = track(CliProcess.run(['serve', '--runtime-dir', runtime, '--data-dir', data, ...args], { XDG_CONFIG_HOME: await dir() }));
  await proc.waitForStdout(/Signed in as alice\n/);
  const info = JSON.parse(await readFile(path.join(runtime, 'companion', 'host.json'), 'utf8')) as { control: { url: string; token: string } };
  return { ...info.control, data };
}

async function detectedGames(control: { url: string; token: string }): Promise<unknown[]> {
  const response = await fetch(`${control.url}/v1/games`, { headers: { Authorization: `Bearer ${control.token}` } });
  const body = (await response.json()) as { games: { detected?: boolean }[] };
  return body.games.filter((game) => game.detected === true);
}

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, ms: number): Promise<T> {
  const until = Date.now() + ms;
  let value = await read();
  while (!done(value) && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    value = await read();
  }
  return value;
}

describe.skipIf(process.platform !== 'linux')('companion serve --no-game-detection', () => {
  it('a default serve detects the demo game; one started with the flag does not, and keeps the settings as they were', async () => {
    const folder = await dir();
    const game = path.join(folder, 'companion-demo-game');
    copyFileSync('/bin/sleep', game);
    chmodSync(game, 0o755);
    children.push(spawn(game, ['120'], { stdio: 'ignore' }));

    const scanning = await serve(['--user', 'alice']);
    expect(await eventually(() => detectedGames(scanning), (games) => games.length > 0, 15_000)).toHaveLength(1);

    const off = await serve(['--user', 'alice', '--no-game-detection']);
    // Longer than the scan interval (5 s) after sign-in: a scanner would have found it by now.
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    expect(await detectedGames(off)).toEqual([]);
    const diagnosis = await fetch(`${off.url}/v1/detection`, { headers: { Authorization: `Bearer ${off.token}` } });
    expect(await diagnosis.json()).toEqual({ state: 'no-scanner', reason: expect.stringContaining('serve --no-game-detection') });
    // The player's switch is left on: the next start without the flag scans again.
    expect(JSON.parse(await readFile(path.join(off.data, 'detection.json'), 'utf8').catch(() => '{"enabled":true}')) as { enabled: boolean }).toMatchObject({ enabled: true });
  }, 60_000);
});
