/**
 * WINDOWS TEST, about half a minute (one Wine session): issue 30 §2's Windows process source,
 * proven under Wine. A program of our own (detection-fixtures/idle-game.c, built with mingw-w64)
 * runs as `C:\Games\Foo Bar, Inc\foo.exe` in the session; the built GameDetector with
 * `defaultProcessSource()` runs on Node's official Windows build (node.exe, cached) through
 * detection-fixtures/detect.mjs, with a list naming foo.exe. Checked: the source on win32 is the
 * Windows one, the game is found by its process (its Windows PID), scans after the first are
 * incremental, and the game ends when the program exits. Where Wine, mingw-w64 or node.exe is
 * missing it says how to get them in one line and skips (under CI=true that is a failure).
 */
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/cli-process.js';
import { buildWindowsC } from '../support/wine/mingw.js';
import { describeUnderWine } from '../support/wine/wine-suite.js';
import { WinePrefix, windowsPath } from '../support/wine/wine-prefix.js';

const FIXTURES = path.join(REPO_ROOT, 'main/test/windows/detection-fixtures');
const DETECTION_OUT = path.join(REPO_ROOT, 'out/main/src/host/detection');
const FOO_ID = '300000000000000001';

const LIST = [
  { id: FOO_ID, name: 'Foo', executables: [{ os: 'win32', name: 'foo.exe', is_launcher: false }] },
  { id: '300000000000000002', name: 'Not Running', executables: [{ os: 'win32', name: 'bar.exe', is_launcher: false }] },
  { id: '300000000000000003', name: 'A Linux Foo', executables: [{ os: 'linux', name: 'foo', is_launcher: false }] },
];

interface Event {
  readonly applicationId: string;
  readonly name: string;
  readonly executable: string;
  readonly pid: number;
  readonly pids: readonly number[];
}

function events(stdout: string, kind: 'START' | 'END'): Event[] {
  return [...stdout.matchAll(new RegExp(`^${kind} (.*)$`, 'gm'))].map((match) => JSON.parse(match[1] ?? '') as Event);
}

describeUnderWine('issue 30 §2 Windows: a game running under Wine is found through the OS process list by node.exe, and ends when it exits', 'detection-windows.test.ts', (needs) => {
  let dir: string;
  let prefix: WinePrefix;
  let game: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'companion-wine-detect-'));
    const built = await buildWindowsC([path.join(FIXTURES, 'idle-game.c')], path.join(dir, 'idle-game.exe'), { gcc: needs.tools.gcc });
    prefix = await WinePrefix.create(path.join(dir, 'prefix'), needs.tools);
    const folder = path.join(prefix.dir, 'drive_c', 'Games', 'Foo Bar, Inc');
    mkdirSync(folder, { recursive: true });
    game = path.join(folder, 'foo.exe');
    copyFileSync(built, game);
    writeFileSync(path.join(dir, 'list.json'), JSON.stringify(LIST));
  }, 180_000);

  afterAll(async () => {
    if (prefix !== undefined) await prefix.end();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  }, 60_000);

  it('C:\\Games\\Foo Bar, Inc\\foo.exe is detected as Foo (its PID, the entry foo.exe) with incremental scans, and ends when it exits', async () => {
    const running = prefix.run(game, [], { stdout: path.join(dir, 'game.out'), stderr: path.join(dir, 'game.err'), stdin: 'pipe' });
    const [, pid] = await running.waitForStdout(/^RUNNING (\d+)/m, 30_000);

    const stop = path.join(dir, 'stop');
    const detector = prefix.run(
      needs.node,
      [windowsPath(path.join(FIXTURES, 'detect.mjs')), windowsPath(DETECTION_OUT), windowsPath(path.join(dir, 'list.json')), '45000', windowsPath(stop)],
      { stdout: path.join(dir, 'detect.out'), stderr: path.join(dir, 'detect.err') },
    );
    await detector.waitForStdout(/^START /m, 40_000);
    expect(detector.stdout).toMatch(/^SOURCE WindowsProcessSource$/m);
    const [started] = events(detector.stdout, 'START');
    expect(started).toMatchObject({ applicationId: FOO_ID, name: 'Foo', executable: 'foo.exe', pid: Number(pid), pids: [Number(pid)] });
    // A steady scan reads nothing: every process known, the script's own cscript.exe left out.
    await detector.waitForStdout(/^SCAN \d+ incremental \+0 -0$/m, 20_000);

    running.input('');
    expect(await running.finish()).toBe(0);
    await detector.waitForStdout(/^END /m, 20_000);
    expect(events(detector.stdout, 'END')).toMatchObject([{ applicationId: FOO_ID, pid: Number(pid), pids: [] }]);

    writeFileSync(stop, '');
    expect(await detector.finish(20_000)).toBe(0);
    expect(detector.stdout).toMatch(/^STOPPED$/m);
    expect(events(detector.stdout, 'START')).toHaveLength(1);
    expect(detector.stdout, detector.stderr).not.toMatch(/^ERROR /m);
  }, 120_000);
});
