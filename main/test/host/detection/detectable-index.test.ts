import { describe, expect, it } from 'vitest';
import type { DetectableApplication, DetectableExecutable } from '../../../../platform/src/wire/index.js';
import { DetectableIndex, detectableOsOf } from '../../../src/host/detection/detectable-index.js';
import type { ProcessCandidate, ScannedProcess } from '../../../src/host/detection/process-source.js';

function app(id: string, name: string, executables: DetectableExecutable[]): DetectableApplication {
  return { id, name, executables };
}

function exe(os: DetectableExecutable['os'], name: string, extra: Partial<DetectableExecutable> = {}): DetectableExecutable {
  return { os, name, is_launcher: false, ...extra };
}

function proc(candidates: (string | ProcessCandidate)[], args = ''): ScannedProcess {
  return { pid: 1, candidates: candidates.map((c) => (typeof c === 'string' ? { path: c, os: 'linux' as const } : c)), args };
}

const win = (path: string): ProcessCandidate => ({ path, os: 'win32' });

const LIST: DetectableApplication[] = [
  app('1', 'Plain', [exe('linux', 'plaingame')]),
  app('2', 'Folders', [exe('win32', 'steamapps/common/folders/game.exe')]),
  app('3', 'Ends', [exe('win32', '>ends.exe')]),
  app('4', 'Ends with folder', [exe('linux', '>bin/tail_game')]),
  app('5', 'TF2', [exe('linux', 'hl2_linux', { arguments: '-game tf' })]),
  app('6', 'GMod', [exe('linux', 'hl2_linux', { arguments: '-game garrysmod' })]),
  app('7', 'Minecraft', [exe('linux', 'java', { arguments: 'net.minecraft.client.main.Main' })]),
  app('8', 'Launcher', [exe('linux', 'gamelauncher', { is_launcher: true })]),
  app('9', 'Mac only', [exe('darwin', 'maconly')]),
  app('10', 'Windows only', [exe('win32', 'winonly.exe')]),
  app('11', 'Upper', [exe('win32', 'Games\\Upper\\UPPER.exe')]),
];

const index = new DetectableIndex(LIST, 'linux');
const idOf = (process: ScannedProcess): string | null => index.match(process)?.application.id ?? null;

describe('issue 30 §2: the detectable index', () => {
  it('matches a plain name by the basename only', () => {
    expect(idOf(proc(['/opt/games/plaingame']))).toBe('1');
    expect(idOf(proc(['plaingame']))).toBe('1');
    expect(idOf(proc(['/opt/plaingame2']))).toBeNull();
    expect(idOf(proc(['/opt/xplaingame']))).toBeNull();
  });

  it("matches a name with folders by the path's last segments, at a segment boundary", () => {
    expect(idOf(proc([win('z:/home/u/.steam/steamapps/common/folders/game.exe')]))).toBe('2');
    expect(idOf(proc([win('steamapps/common/folders/game.exe')]))).toBe('2');
    expect(idOf(proc([win('z:/other/common/folders/game.exe')]))).toBeNull();
    expect(idOf(proc([win('z:/xsteamapps/common/folders/game.exe')]))).toBeNull();
  });

  it('matches a `>` name as an ending of the path', () => {
    expect(idOf(proc([win('c:/games/ends.exe')]))).toBe('3');
    expect(idOf(proc([win('c:/games/myends.exe')]))).toBe('3');
    expect(idOf(proc([win('c:/games/ends.exe.bak')]))).toBeNull();
    expect(idOf(proc(['/usr/local/bin/tail_game']))).toBe('4');
    expect(idOf(proc(['/usr/local/xbin/tail_game']))).toBe('4');
    expect(idOf(proc(['/usr/local/lib/tail_game']))).toBeNull();
  });

  it('needs the arguments when the entry has some, and tells entries sharing a basename apart by them', () => {
    expect(idOf(proc(['/steam/hl2_linux'], '-steam -game tf -novid'))).toBe('5');
    expect(idOf(proc(['/steam/hl2_linux'], '-game garrysmod'))).toBe('6');
    expect(idOf(proc(['/steam/hl2_linux'], '-steam'))).toBeNull();
    expect(idOf(proc(['/usr/lib/jvm/bin/java'], '-xmx2g -cp mc.jar net.minecraft.client.main.main --version 1.20'))).toBe('7');
    expect(idOf(proc(['/usr/lib/jvm/bin/java'], '-jar build.jar'))).toBeNull();
  });

  it('never reports a launcher as a game', () => {
    expect(idOf(proc(['/opt/gamelauncher']))).toBeNull();
  });

  it('ignores case and takes both separators, in the list and in the path', () => {
    expect(idOf(proc([win('Z:\\STEAMAPPS\\Common\\Folders\\GAME.EXE')]))).toBe('2');
    expect(idOf(proc([win('c:/games/upper/upper.exe')]))).toBe('11');
    expect(idOf(proc(['/OPT/PlainGame']))).toBe('1');
  });

  it('matches a Wine candidate against win32 entries and a native one against the OS its own', () => {
    expect(idOf(proc([win('c:/x/winonly.exe')]))).toBe('10');
    expect(idOf(proc(['/x/winonly.exe']))).toBeNull();
    expect(idOf(proc(['/Applications/maconly']))).toBeNull();
    expect(idOf(proc(['/x/none', '/x/plaingame']))).toBe('1');
  });

  it('compiles the list for one OS: on darwin the linux and win32 entries are not there', () => {
    const mac = new DetectableIndex(LIST, 'darwin');
    expect(mac.match(proc([{ path: '/applications/maconly', os: 'darwin' }]))?.application.id).toBe('9');
    expect(mac.match(proc([{ path: '/opt/plaingame', os: 'darwin' }]))).toBeNull();
    expect(detectableOsOf('linux')).toBe('linux');
    expect(detectableOsOf('freebsd')).toBeNull();
  });

  it('explains why a process is not detected: launcher, argument missing, other OS, no entry', () => {
    expect(index.explain(proc(['/opt/plaingame'])).kind).toBe('detected');
    expect(index.explain(proc(['/opt/gamelauncher']))).toMatchObject({ kind: 'launcher', match: { application: { id: '8' } } });
    const missing = index.explain(proc(['/steam/hl2_linux'], '-steam'));
    expect(missing.kind).toBe('argument-missing');
    expect(missing.kind === 'argument-missing' ? missing.arguments : null).toMatch(/^-game (tf|garrysmod)$/);
    expect(index.explain(proc(['/Applications/maconly']))).toMatchObject({ kind: 'other-os', os: ['darwin'] });
    expect(index.explain(proc(['/x/winonly.exe']))).toMatchObject({ kind: 'other-os', os: ['win32'] });
    expect(index.explain(proc(['/x/nothing-like-it']))).toEqual({ kind: 'no-entry' });
  });
});
