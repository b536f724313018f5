import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CommandGameLauncher, splitCommandLine } from '../../../src/host/social/game-launcher.js';

const APP = '1234567890123456789';

describe('splitCommandLine', () => {
  it.each([
    ['/usr/bin/game', ['/usr/bin/game']],
    ['game --join now', ['game', '--join', 'now']],
    ['  game   --join  ', ['game', '--join']],
    ['game\t--join\t\tnow', ['game', '--join', 'now']],
    ['"/opt/My Game/run" --name "a b"', ['/opt/My Game/run', '--name', 'a b']],
    ["'/opt/My Game/run' --name 'a \"b\" c'", ['/opt/My Game/run', '--name', 'a "b" c']],
    ['"it\'s" here', ["it's", 'here']],
    ['--name="a b" next', ['--name=a b', 'next']],
    ['game "" last', ['game', '', 'last']],
    ["game '' ''", ['game', '', '']],
    ['""', ['']],
    ['"a b\tc"', ['a b\tc']],
    ['', []],
    ['   \t ', []],
  ] as const)('splits %j', (line, expected) => {
    expect(splitCommandLine(line)).toEqual(expected);
  });
});

describe('CommandGameLauncher', () => {
  let dir: string;
  let dataDir: string;
  let dataHome: string;
  let calls: [string, string[]][];
  const run = (command: string, args: readonly string[]): void => void calls.push([command, [...args]]);

  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'companion-launcher-'));
    dataDir = path.join(dir, 'data');
    dataHome = path.join(dir, 'xdg-data');
    await mkdir(dataDir, { recursive: true });
    calls = [];
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  function launcher(platform: NodeJS.Platform, env: Readonly<Record<string, string | undefined>> = { XDG_DATA_HOME: dataHome }): CommandGameLauncher {
    return new CommandGameLauncher({ dataDir, env, platform, run });
  }

  async function writeCommands(content: string): Promise<void> {
    await writeFile(path.join(dataDir, 'launch-commands.json'), content);
  }

  async function writeDesktopEntry(home: string, content: string): Promise<void> {
    await mkdir(path.join(home, 'applications'), { recursive: true });
    await writeFile(path.join(home, 'applications', `discord-${APP}.desktop`), content);
  }

  it('falls through an empty registered command or an empty Exec to the URL handler', async () => {
    await writeCommands(JSON.stringify({ [APP]: [''] }));
    await writeDesktopEntry(dataHome, '[Desktop Entry]\nExec="" %u\n');
    const result = await launcher('linux').launch(APP);
    expect(result.how).toBe('url handler');
    expect(calls).toEqual([['xdg-open', [`discord-${APP}://`]]]);
  });

  it('runs a registered command in array form', async () => {
    await writeCommands(JSON.stringify({ [APP]: ['/opt/game/run', '--connect', 'a b'] }));
    await expect(launcher('linux').launch(APP)).resolves.toEqual({ launched: true, how: 'registered command' });
    expect(calls).toEqual([['/opt/game/run', ['--connect', 'a b']]]);
  });

  it('runs a registered command in string form, split like a command line', async () => {
    await writeCommands(JSON.stringify({ [APP]: '"/opt/My Game/run" --connect \'a b\'' }));
    await expect(launcher('win32').launch(APP)).resolves.toEqual({ launched: true, how: 'registered command' });
    expect(calls).toEqual([['/opt/My Game/run', ['--connect', 'a b']]]);
  });

  it('prefers the registered command over the desktop entry', async () => {
    await writeCommands(JSON.stringify({ [APP]: ['/opt/registered'] }));
    await writeDesktopEntry(dataHome, '[Desktop Entry]\nExec=/opt/desktop %u\n');
    await expect(launcher('linux').launch(APP)).resolves.toEqual({ launched: true, how: 'registered command' });
    expect(calls).toEqual([['/opt/registered', []]]);
  });

  it('runs the Linux desktop entry under $XDG_DATA_HOME with the field code removed', async () => {
    await writeDesktopEntry(dataHome, '[Desktop Entry]\nName=Game\nType=Application\nExec=/opt/game/run --join %u\nNoDisplay=true\n');
    await expect(launcher('linux').launch(APP)).resolves.toEqual({ launched: true, how: 'desktop entry' });
    expect(calls).toEqual([['/opt/game/run', ['--join']]]);
  });

  it('finds the desktop entry under $HOME/.local/share when XDG_DATA_HOME is not set', async () => {
    const home = path.join(dir, 'home');
    await writeDesktopEntry(path.join(home, '.local', 'share'), '[Desktop Entry]\nExec="/opt/My Game/run" %U %f\n');
    await expect(launcher('linux', { HOME: home }).launch(APP)).resolves.toEqual({ launched: true, how: 'desktop entry' });
    expect(calls).toEqual([['/opt/My Game/run', []]]);
  });

  it('ignores a desktop entry for another application', async () => {
    await mkdir(path.join(dataHome, 'applications'), { recursive: true });
    await writeFile(path.join(dataHome, 'applications', 'discord-42.desktop'), '[Desktop Entry]\nExec=/opt/other\n');
    await expect(launcher('linux').launch(APP)).resolves.toEqual({ launched: true, how: 'url handler' });
    expect(calls).toEqual([['xdg-open', [`discord-${APP}://`]]]);
  });

  it('falls back to the URL handler when the desktop entry has no Exec line or only field codes', async () => {
    await writeDesktopEntry(dataHome, '[Desktop Entry]\nName=Game\n');
    await expect(launcher('linux').launch(APP)).resolves.toEqual({ launched: true, how: 'url handler' });
    await writeDesktopEntry(dataHome, '[Desktop Entry]\nExec=%u\n');
    await expect(launcher('linux').launch(APP)).resolves.toEqual({ launched: true, how: 'url handler' });
    expect(calls).toEqual([
      ['xdg-open', [`discord-${APP}://`]],
      ['xdg-open', [`discord-${APP}://`]],
    ]);
  });

  it('does not use desktop entries off Linux', async () => {
    await writeDesktopEntry(dataHome, '[Desktop Entry]\nExec=/opt/game/run %u\n');
    await expect(launcher('darwin').launch(APP)).resolves.toEqual({ launched: true, how: 'url handler' });
    expect(calls).toEqual([['open', [`discord-${APP}://`]]]);
  });

  it.each([
    ['linux', ['xdg-open', [`discord-${APP}://`]]],
    ['freebsd', ['xdg-open', [`discord-${APP}://`]]],
    ['darwin', ['open', [`discord-${APP}://`]]],
    ['win32', ['cmd', ['/c', 'start', '', `discord-${APP}://`]]],
  ] as const)('opens the URL handler on %s when nothing is registered', async (platform, expected) => {
    await expect(launcher(platform).launch(APP)).resolves.toEqual({ launched: true, how: 'url handler' });
    expect(calls).toEqual([expected]);
  });

  it.each([
    ['malformed JSON', '{"1234567890123456789": ["/opt/game"'],
    ['JSON null', 'null'],
    ['a JSON array', '["/opt/game"]'],
    ['an entry for another app only', JSON.stringify({ '42': ['/opt/other'] })],
    ['an empty array', JSON.stringify({ [APP]: [] })],
    ['an array with a non-string part', JSON.stringify({ [APP]: ['/opt/game', 1] })],
    ['a blank string', JSON.stringify({ [APP]: '   ' })],
    ['an object entry', JSON.stringify({ [APP]: { command: '/opt/game' } })],
  ])('falls through past launch-commands.json with %s', async (_label, content) => {
    await writeCommands(content);
    await writeDesktopEntry(dataHome, '[Desktop Entry]\nExec=/opt/game/run --join %u\n');
    await expect(launcher('linux').launch(APP)).resolves.toEqual({ launched: true, how: 'desktop entry' });
    expect(calls).toEqual([['/opt/game/run', ['--join']]]);
  });
});

describe('CommandGameLauncher with real processes', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'companion-launch-real-'));
    await mkdir(path.join(dir, 'bin'));
    await mkdir(path.join(dir, 'data'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function fakeCommand(name: string, script: string): Promise<void> {
    await writeFile(path.join(dir, 'bin', name), `#!/bin/sh\n${script}\n`, { mode: 0o755 });
  }
  const launcher = (): CommandGameLauncher =>
    new CommandGameLauncher({ dataDir: path.join(dir, 'data'), env: { PATH: path.join(dir, 'bin'), XDG_DATA_HOME: path.join(dir, 'xdg') }, platform: 'linux' });

  it('reports an opener that exits non-zero (no handler for the link) as a failure', async () => {
    await fakeCommand('xdg-open', 'exit 2');
    await expect(launcher().launch(APP)).resolves.toEqual({ launched: false, how: 'url handler', failure: "xdg-open exited with code 2 (nothing handles the game's link)" });
  });

  it('reports a missing opener as a failure', async () => {
    await expect(launcher().launch(APP)).resolves.toEqual({ launched: false, how: 'url handler', failure: 'xdg-open was not found' });
  });

  it('takes an opener that exits 0 as launched', async () => {
    await fakeCommand('xdg-open', `echo "$1" > "${dir}/opened"`);
    await expect(launcher().launch(APP)).resolves.toEqual({ launched: true, how: 'url handler' });
  });

  it('takes a game that keeps running as launched, and one that fails at once as not', async () => {
    await writeFile(path.join(dir, 'data', 'launch-commands.json'), JSON.stringify({ [APP]: [process.execPath, '-e', 'setTimeout(() => {}, 2000)'] }));
    await expect(launcher().launch(APP)).resolves.toEqual({ launched: true, how: 'registered command' });
    await writeFile(path.join(dir, 'data', 'launch-commands.json'), JSON.stringify({ [APP]: ['/bin/sh', '-c', 'exit 3'] }));
    await expect(launcher().launch(APP)).resolves.toEqual({ launched: false, how: 'registered command', failure: '/bin/sh exited with code 3' });
  });
});
