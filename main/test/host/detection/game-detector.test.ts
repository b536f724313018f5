import { mkdirSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DetectableApplication, DetectableExecutable } from '../../../../platform/src/wire/index.js';
import { makeTempDir } from '../../../../rpc/test/support/test-server.js';
import { GameDetector, type DetectedGame } from '../../../src/host/detection/game-detector.js';
import { LinuxProcessSource } from '../../../src/host/detection/process-source-linux.js';
import type { ProcessScan, ProcessSource } from '../../../src/host/detection/process-source.js';
import { BASH, renamedCopy, SLEEP, startProcess, startWaiting, waitForArgv0, type TestProcess } from './support/processes.js';

const exe = (os: DetectableExecutable['os'], name: string, extra: Partial<DetectableExecutable> = {}): DetectableExecutable => ({ os, name, is_launcher: false, ...extra });

const LIST: DetectableApplication[] = [
  { id: '100', name: 'Native Game', executables: [exe('linux', 'nativegame_x64'), exe('win32', 'nativegame.exe')] },
  { id: '200', name: 'Proton Game', executables: [exe('win32', 'steamapps/common/protongame/protongame.exe')] },
  { id: '300', name: 'Team Fortress 2', executables: [exe('linux', 'hl2_linux', { arguments: '-game tf' })] },
  { id: '400', name: 'Minecraft', executables: [exe('linux', 'java', { arguments: 'net.minecraft.client.main.Main' })] },
  { id: '500', name: 'Some Launcher', executables: [exe('linux', 'somelauncher', { is_launcher: true })] },
  { id: '600', name: 'Wine Argument Game', executables: [exe('win32', 'winargame.exe')] },
  { id: '700', name: 'Relative Game', executables: [exe('win32', 'games/relative/relgame.exe')] },
  { id: '800', name: 'Cwd Game', executables: [exe('win32', 'cwdgame.exe')] },
  { id: '900', name: 'Multi Process', executables: [exe('linux', 'multiproc_game')] },
];

const dirs: string[] = [];
const processes: TestProcess[] = [];
const detectors: GameDetector[] = [];
afterEach(async () => {
  for (const detector of detectors.splice(0)) detector.stop();
  await Promise.all(processes.splice(0).map((p) => p.kill()));
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function tempDir(): Promise<string> {
  const dir = await makeTempDir('companion-detection-');
  dirs.push(dir);
  return dir;
}

function track(process: TestProcess): TestProcess {
  processes.push(process);
  return process;
}

/** A detector on the real /proc with LIST, its events recorded; no timer (scans are driven by the test). */
function detector(): { detector: GameDetector; started: DetectedGame[]; ended: DetectedGame[] } {
  const made = new GameDetector({ source: new LinuxProcessSource(), os: 'linux', clock: () => 1_700_000_000_000 });
  made.setList(LIST);
  detectors.push(made);
  const started: DetectedGame[] = [];
  const ended: DetectedGame[] = [];
  made.on('start', (game) => started.push(game));
  made.on('end', (game) => ended.push(game));
  return { detector: made, started, ended };
}

const ids = (games: readonly DetectedGame[]): string[] => games.map((game) => game.applicationId).sort();

describe.skipIf(process.platform !== 'linux')('issue 30 §2: running games are detected within one scan and end when they exit', () => {
  it('a renamed binary under a linux entry', async () => {
    const { detector: d, started, ended } = detector();
    await d.scanOnce();
    const dir = await tempDir();
    const game = track(await startProcess(renamedCopy(SLEEP, dir, 'nativegame_x64'), ['1000']));
    await d.scanOnce();
    expect(started).toHaveLength(1);
    expect(started[0]).toMatchObject({ applicationId: '100', name: 'Native Game', executable: 'nativegame_x64', pid: game.pid, startedAt: 1_700_000_000_000 });
    expect(started[0]?.path).toBe(path.join(dir, 'nativegame_x64').toLowerCase());
    expect(ids(d.running())).toEqual(['100']);
    await game.kill();
    await d.scanOnce();
    expect(ids(ended)).toEqual(['100']);
    expect(d.running()).toEqual([]);
  });

  it("a Proton game: the Windows path of its command line (`exec -a 'Z:\\…\\Game.exe'`) against a win32 entry with folders", async () => {
    const { detector: d, started, ended } = detector();
    const game = track(await startProcess(SLEEP, ['1000'], { argv0: 'Z:\\home\\u\\.steam\\steamapps\\common\\ProtonGame\\ProtonGame.exe' }));
    await d.scanOnce();
    expect(started).toMatchObject([{ applicationId: '200', pid: game.pid, path: 'z:/home/u/.steam/steamapps/common/protongame/protongame.exe' }]);
    await game.kill();
    await d.scanOnce();
    expect(ids(ended)).toEqual(['200']);
  });

  it("a Wine game whose loader is the binary: the .exe in its arguments, relative to its working directory, or the working directory's .exe", async () => {
    const { detector: d, started } = detector();
    const dir = await tempDir();
    track(await startWaiting(dir, 'wine64-preloader', ['C:\\windows\\system32\\steam.exe', 'Z:\\games\\WinArGame.exe']));
    const relative = path.join(dir, 'Games', 'Relative');
    mkdirSync(relative, { recursive: true });
    const winePreloader = renamedCopy(BASH, dir, 'wine-preloader');
    track(await startProcess(winePreloader, ['-c', 'read', 'x', 'RelGame.exe'], { cwd: relative }));
    const cwdOnly = path.join(dir, 'CwdGame');
    mkdirSync(cwdOnly);
    writeFileSync(path.join(cwdOnly, 'CwdGame.exe'), '');
    track(await startProcess(winePreloader, ['-c', 'read'], { cwd: cwdOnly }));
    await d.scanOnce();
    expect(ids(started)).toEqual(['600', '700', '800']);
  });

  it('games that need arguments: hl2_linux -game tf, and java … net.minecraft.client.main.Main', async () => {
    const { detector: d, started, ended } = detector();
    const dir = await tempDir();
    const tf2 = track(await startWaiting(dir, 'hl2_linux', ['-steam', '-game', 'tf']));
    const minecraft = track(await startWaiting(dir, 'java', ['-Xmx2G', '-cp', 'client.jar', 'net.minecraft.client.main.Main', '--username', 'x']));
    await d.scanOnce();
    expect(ids(started)).toEqual(['300', '400']);
    await tf2.kill();
    await minecraft.kill();
    await d.scanOnce();
    expect(ids(ended)).toEqual(['300', '400']);
  });

  it('one game in several processes is one game, until its last process exits', async () => {
    const { detector: d, started, ended } = detector();
    const dir = await tempDir();
    const binary = renamedCopy(SLEEP, dir, 'multiproc_game');
    const first = track(await startProcess(binary, ['1000']));
    const second = track(await startProcess(binary, ['1000']));
    await d.scanOnce();
    expect(started).toHaveLength(1);
    expect([...(started[0]?.pids ?? [])].sort()).toEqual([first.pid, second.pid].sort());
    await first.kill();
    await d.scanOnce();
    expect(ended).toEqual([]);
    expect(d.running()).toMatchObject([{ applicationId: '900', pid: second.pid }]);
    await second.kill();
    await d.scanOnce();
    expect(ids(ended)).toEqual(['900']);
  });
});

describe.skipIf(process.platform !== 'linux')('issue 30 §2: a game running before detection started', () => {
  it('shows since its process started, not since it was first seen', async () => {
    const dir = await tempDir();
    const before = Date.now();
    track(await startProcess(renamedCopy(SLEEP, dir, 'nativegame_x64'), ['1000']));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const made = new GameDetector({ source: new LinuxProcessSource(), os: 'linux' });
    made.setList(LIST);
    detectors.push(made);
    const seenAt = Date.now();
    await made.scanOnce();
    const game = made.running().find((each) => each.applicationId === '100');
    // /proc counts in hundredths of a second since boot: allow a few of them, and the uptime's rounding.
    expect(game?.startedAt).toBeGreaterThanOrEqual(before - 100);
    expect(game?.startedAt).toBeLessThan(seenAt - 1000);
  });
});

describe.skipIf(process.platform !== 'linux')('issue 30 §2: what is not a game', () => {
  it('a program sharing only a basename with an entry that needs arguments is not detected', async () => {
    const { detector: d, started } = detector();
    const dir = await tempDir();
    track(await startWaiting(dir, 'hl2_linux', ['-steam', '-game', 'hl2']));
    track(await startWaiting(dir, 'java', ['-jar', 'some-build-tool.jar']));
    await d.scanOnce();
    expect(started).toEqual([]);
  });

  it('a launcher is not shown', async () => {
    const { detector: d, started } = detector();
    const dir = await tempDir();
    track(await startProcess(renamedCopy(SLEEP, dir, 'somelauncher'), ['1000']));
    await d.scanOnce();
    expect(started).toEqual([]);
    const processes = await d.processes();
    const launcher = processes.find((p) => p.candidates.some((c) => c.path.endsWith('/somelauncher')));
    expect(launcher === undefined ? null : d.explain(launcher)).toMatchObject({ kind: 'launcher' });
  });
});

describe.skipIf(process.platform !== 'linux')('issue 30 §2: the detector starts, stops and takes a new list', () => {
  it('scans on its own once started, ends every game when stopped, and matches again with a new list', async () => {
    const made = new GameDetector({ source: new LinuxProcessSource(), os: 'linux', interval: 50 });
    detectors.push(made);
    const started: DetectedGame[] = [];
    const ended: DetectedGame[] = [];
    made.on('start', (game) => started.push(game)).on('end', (game) => ended.push(game));
    const dir = await tempDir();
    track(await startProcess(renamedCopy(SLEEP, dir, 'nativegame_x64'), ['1000']));
    made.start();
    made.setList(LIST);
    while (started.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(ids(started)).toEqual(['100']);
    made.setList(LIST.filter((app) => app.id !== '100'));
    while (ended.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(ids(ended)).toEqual(['100']);
    made.setList(LIST);
    while (started.length === 1) await new Promise((resolve) => setTimeout(resolve, 20));
    made.stop();
    expect(ids(ended)).toEqual(['100', '100']);
    expect(made.running()).toEqual([]);
  });
});

describe.skipIf(process.platform !== 'linux')('issue 30 §2: the Linux scanner is incremental', () => {
  it('reports a process once, then only when it is gone', async () => {
    const source = new LinuxProcessSource();
    const dir = await tempDir();
    const game = track(await startProcess(renamedCopy(SLEEP, dir, 'nativegame_x64'), ['1000']));
    const first = await source.scan();
    expect(first.complete).toBe(true);
    expect(first.processes.map((p) => p.pid)).toContain(game.pid);
    await source.scan(); // the scan after the first read looks once more (a program may exec another)
    const third = await source.scan();
    expect(third.complete).toBe(false);
    expect(third.processes.map((p) => p.pid)).not.toContain(game.pid);
    expect(third.gone).not.toContain(game.pid);
    await game.kill();
    const fourth = await source.scan();
    expect(fourth.gone).toContain(game.pid);
    source.forget();
    expect((await source.scan()).complete).toBe(true);
  });

  it('a launch script that execs the game under the same PID is detected at the next scan', async () => {
    const { detector: d, started } = detector();
    const dir = await tempDir();
    const gamePath = renamedCopy(SLEEP, dir, 'nativegame_x64');
    const script = track(await startProcess(BASH, ['-c', 'read -r line; exec "$0" 1000', gamePath]));
    await d.scanOnce();
    expect(started).toEqual([]);
    script.write('go\n');
    await waitForArgv0(script.pid, gamePath);
    await d.scanOnce();
    expect(started).toMatchObject([{ applicationId: '100', pid: script.pid }]);
  });
});

describe('issue 30 §2: a listener that throws', () => {
  it('is reported to onError and stops neither the other listeners nor the detector', async () => {
    const scans: ProcessScan[] = [
      { processes: [{ pid: 7, candidates: [{ path: '/opt/nativegame_x64', os: 'linux' }], args: '' }], gone: [], complete: true },
      { processes: [], gone: [7], complete: false },
    ];
    const source: ProcessSource = { scan: () => Promise.resolve(scans.shift() ?? { processes: [], gone: [], complete: false }), forget: () => undefined, snapshot: () => Promise.resolve([]) };
    const errors: unknown[] = [];
    const made = new GameDetector({ source, os: 'linux', onError: (error) => errors.push(error) });
    made.setList(LIST);
    const seen: string[] = [];
    made.on('start', () => {
      throw new Error('listener failed');
    });
    made.on('start', (game) => seen.push(`start ${game.applicationId}`)).on('end', (game) => seen.push(`end ${game.applicationId}`));
    await made.scanOnce();
    await made.scanOnce();
    expect(seen).toEqual(['start 100', 'end 100']);
    expect(errors).toMatchObject([{ message: 'listener failed' }]);
  });
});
