import { mkdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DetectableApplication } from '../../../../platform/src/wire/index.js';
import { makeTempDir } from '../../../../rpc/test/support/test-server.js';
import { GameDetector, type DetectedGame } from '../../../src/host/detection/game-detector.js';
import { PsProcessSource, splitCommandLine } from '../../../src/host/detection/process-source-ps.js';
import { parsePsOutput, type PsListing } from '../../../src/host/detection/ps-process-list.js';
import { renamedCopy, SLEEP, startProcess, type TestProcess } from './support/processes.js';

/** The shape of `LC_ALL=C ps -axww -o pid=,lstart=,args=` on macOS (written by hand after its man page, not captured on a Mac). */
const MAC_OUTPUT = [
  '    1 Sat Nov 28 08:16:50 2026 /sbin/launchd',
  '  412 Sat Nov 28 09:01:07 2026 /Applications/Some Game.app/Contents/MacOS/Some Game -fullscreen -w 1920',
  ' 9021 Sun Nov  8 17:02:30 2026 /Applications/CrossOver.app/Contents/SharedSupport/CrossOver/bin/wine64-preloader C:\\Games\\Fix\\Fix.exe',
  '',
].join('\n');

describe('issue 30 §2 macOS: the ps listing', () => {
  it("reads pid, start and command line, the day of the month padded with a space", () => {
    expect(parsePsOutput(MAC_OUTPUT)).toEqual([
      { pid: 1, started: 'Sat Nov 28 08:16:50 2026', args: '/sbin/launchd' },
      { pid: 412, started: 'Sat Nov 28 09:01:07 2026', args: '/Applications/Some Game.app/Contents/MacOS/Some Game -fullscreen -w 1920' },
      { pid: 9021, started: 'Sun Nov  8 17:02:30 2026', args: '/Applications/CrossOver.app/Contents/SharedSupport/CrossOver/bin/wine64-preloader C:\\Games\\Fix\\Fix.exe' },
    ]);
  });

  it('refuses a line not in the shape asked for (a ps that ignored the columns)', () => {
    expect(() => parsePsOutput('  PID STARTED COMMAND\n')).toThrow(/ps printed a line not in the shape asked for/);
  });

  it('cuts a command line where the longest prefix that is a file ends (paths with spaces)', () => {
    const files = new Set(['/Applications/Some Game.app/Contents/MacOS/Some Game']);
    expect(splitCommandLine('/Applications/Some Game.app/Contents/MacOS/Some Game -fullscreen -w 1920', (p) => files.has(p))).toEqual([
      '/Applications/Some Game.app/Contents/MacOS/Some Game',
      '-fullscreen',
      '-w',
      '1920',
    ]);
    // A program we cannot see: cut at the first space.
    expect(splitCommandLine('/private/bin/tool --flag', () => false)).toEqual(['/private/bin/tool', '--flag']);
  });
});

describe('issue 30 §2 macOS: the ps source is incremental and notices a reused PID', () => {
  it('reports a process once, again when its PID starts another process, and gone when it is no longer listed', async () => {
    let listing: PsListing = { rows: [{ pid: 7, started: 'Sat Nov 28 09:00:00 2026', args: '/opt/a' }], ownPid: 99 };
    const source = new PsProcessSource(async () => listing, () => false);
    expect((await source.scan()).processes.map((p) => p.pid)).toEqual([7]);
    expect(await source.scan()).toEqual({ processes: [], gone: [], complete: false });
    listing = { rows: [{ pid: 7, started: 'Sat Nov 28 09:05:00 2026', args: '/opt/b' }, { pid: 99, started: 'Sat Nov 28 09:05:00 2026', args: 'ps -axww' }], ownPid: 99 };
    const reused = await source.scan();
    expect(reused.processes.map((p) => p.candidates[0]?.path)).toEqual(['/opt/b']);
    listing = { rows: [], ownPid: 100 };
    expect((await source.scan()).gone).toEqual([7]);
  });
});

const LIST: DetectableApplication[] = [{ id: '4242', name: 'Fix Game', executables: [{ os: 'darwin', name: 'fix game.app/contents/macos/fix game', is_launcher: false }] }];

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

describe.skipIf(process.platform !== 'linux' && process.platform !== 'darwin')('issue 30 §2 macOS: games found through ps (run for real with this machine\'s ps)', () => {
  it('a game in an app bundle with spaces in its path is detected with its start time, once, and ends when it exits', async () => {
    const dir = await makeTempDir('companion-ps-');
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    const folder = path.join(dir, 'Fix Game.app', 'Contents', 'MacOS');
    mkdirSync(folder, { recursive: true });
    const before = Date.now();
    const game: TestProcess = await startProcess(renamedCopy(SLEEP, folder, 'Fix Game'), ['1000']);
    cleanup.push(() => game.kill());
    const detector = new GameDetector({ source: new PsProcessSource(), os: 'darwin' });
    cleanup.push(async () => detector.stop());
    detector.setList(LIST);
    const started: DetectedGame[] = [];
    const ended: DetectedGame[] = [];
    detector.on('start', (g) => started.push(g));
    detector.on('end', (g) => ended.push(g));
    await detector.scanOnce();
    expect(started).toHaveLength(1);
    expect(started[0]).toMatchObject({ applicationId: '4242', pid: game.pid, path: path.join(folder, 'Fix Game').toLowerCase() });
    // ps says when it started to the second.
    expect(started[0]?.startedAt).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 - 1000);
    expect(started[0]?.startedAt).toBeLessThanOrEqual(Date.now());
    await detector.scanOnce();
    expect(started).toHaveLength(1);
    await game.kill();
    await detector.scanOnce();
    expect(ended.map((g) => g.applicationId)).toEqual(['4242']);
  });
});
