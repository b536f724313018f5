/**
 * The detection phase's running processes: the fixture cases (each a process started the way a
 * real game shows up, with the application it should be detected as, or none), games of the
 * synthetic list running under their executable's name, and fillers up to the total (services
 * and Wine's own processes that match nothing). Copies of `sleep` where the arguments do not
 * matter, of `bash` waiting on `read` where they do; `exec -a` for argv[0]. Every process ends
 * by itself if the bench dies (sleep's time runs out, or `read` meets the end of its stdin).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { DetectableApplication, DetectableExecutable } from '../../../platform/src/wire/index.js';

const SLEEP = '/bin/sleep';
const BASH = '/bin/bash';
/** A filler's lifetime if nothing kills it (the bench's own run is far shorter). */
const SLEEP_S = '1800';

export interface FixtureCase {
  readonly label: string;
  /** The application it should be detected as; null: it must not be detected. */
  readonly expected: string | null;
}

interface FixtureSpec extends FixtureCase {
  readonly app: DetectableApplication;
  readonly start: (spawner: Spawner) => Promise<void>;
}

const app = (id: string, name: string, executable: DetectableExecutable): DetectableApplication => ({ id, name, executables: [executable] });
const linux = (name: string, extra: Partial<DetectableExecutable> = {}): DetectableExecutable => ({ os: 'linux', name, is_launcher: false, ...extra });
const win32 = (name: string): DetectableExecutable => ({ os: 'win32', name, is_launcher: false });

/** Starts processes in a folder of its own and ends them all. */
export class Spawner {
  private readonly children: ChildProcess[] = [];

  constructor(readonly dir: string) {}

  get count(): number {
    return this.children.length;
  }

  /** `binary` copied to `name` under the folder (folders created), executable. */
  copy(binary: string, name: string): string {
    const target = path.join(this.dir, name);
    mkdirSync(path.dirname(target), { recursive: true });
    copyFileSync(binary, target);
    chmodSync(target, 0o755);
    return target;
  }

  folder(name: string, files: readonly string[] = []): string {
    const folder = path.join(this.dir, name);
    mkdirSync(folder, { recursive: true });
    for (const file of files) writeFileSync(path.join(folder, file), '');
    return folder;
  }

  /** Runs `file args`, argv[0] replaced by `argv0` when given; resolves once it runs as that. */
  async start(file: string, args: readonly string[], options: { argv0?: string; cwd?: string } = {}): Promise<void> {
    const argv0 = options.argv0 ?? file;
    const child =
      options.argv0 === undefined
        ? spawn(file, [...args], { stdio: ['pipe', 'ignore', 'ignore'], cwd: options.cwd })
        : spawn(BASH, ['-c', 'exec -a "$0" "$@"', argv0, file, ...args], { stdio: ['pipe', 'ignore', 'ignore'], cwd: options.cwd });
    this.children.push(child);
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', reject);
    });
    await runningAs(child.pid ?? -1, argv0);
  }

  sleeping(name: string): Promise<void> {
    return this.start(this.copy(SLEEP, name), [SLEEP_S]);
  }

  async killAll(): Promise<void> {
    const exits = this.children.map((child) =>
      child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise<void>((resolve) => child.once('exit', () => resolve())),
    );
    for (const child of this.children) child.kill('SIGKILL');
    await Promise.all(exits);
    this.children.length = 0;
  }
}

async function runningAs(pid: number, argv0: string): Promise<void> {
  for (let tries = 0; tries < 500; tries++) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0] === argv0) return;
    } catch {
      throw new Error(`fixture process ${pid} exited before it ran as ${argv0}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`fixture process ${pid} never ran as ${argv0}`);
}

const ID = (n: number): string => `13000000000000000${String(n).padStart(2, '0')}`;

/** The cases issue 30 names, arRPC's known misses among them. */
export const FIXTURES: readonly FixtureSpec[] = [
  {
    label: 'native game, a renamed binary',
    expected: ID(1),
    app: app(ID(1), 'Fixture Native', linux('fixnative_x64')),
    start: (s) => s.sleeping('fixnative_x64'),
  },
  {
    label: "Proton game, argv[0] 'Z:\\…\\steamapps\\common\\FixProton\\FixProton.exe' (a win32 entry with folders)",
    expected: ID(2),
    app: app(ID(2), 'Fixture Proton', win32('steamapps/common/fixproton/fixproton.exe')),
    start: (s) => s.start(SLEEP, [SLEEP_S], { argv0: 'Z:\\home\\player\\.steam\\steamapps\\common\\FixProton\\FixProton.exe' }),
  },
  {
    label: "Wine game, argv[0] the loader and the .exe an argument ('wine64-preloader … Z:\\…\\FixWineArg.exe')",
    expected: ID(3),
    app: app(ID(3), 'Fixture Wine Argument', win32('fixwinearg.exe')),
    start: (s) => s.start(s.copy(BASH, 'wine64/wine64-preloader'), ['-c', 'read', 'x', 'C:\\windows\\system32\\steam.exe', 'Z:\\games\\FixWineArg\\FixWineArg.exe']),
  },
  {
    label: "Wine game, argv[0] a relative 'FixRelative.exe', its folder the working directory (a win32 entry with folders)",
    expected: ID(4),
    app: app(ID(4), 'Fixture Wine Relative', win32('games/fixrelative/fixrelative.exe')),
    start: (s) => s.start(s.copy(BASH, 'wine/wine-preloader'), ['-c', 'read'], { argv0: 'FixRelative.exe', cwd: s.folder('Games/FixRelative') }),
  },
  {
    label: 'Wine game, no .exe in the command line, its .exe in the working directory',
    expected: ID(5),
    app: app(ID(5), 'Fixture Wine Cwd', win32('fixcwd.exe')),
    start: (s) => s.start(s.copy(BASH, 'wine-cwd/wine-preloader'), ['-c', 'read'], { cwd: s.folder('FixCwd', ['FixCwd.exe']) }),
  },
  {
    label: "native game started as './fixfolder.x86_64' from its folder (a linux entry with folders)",
    expected: ID(6),
    app: app(ID(6), 'Fixture Folder', linux('fixfolder/bin/fixfolder.x86_64')),
    start: async (s) => {
      const binary = s.copy(SLEEP, 'FixFolder/bin/fixfolder.x86_64');
      await s.start('./fixfolder.x86_64', [SLEEP_S], { cwd: path.dirname(binary) });
    },
  },
  {
    label: 'Team Fortress 2: hl2_linux -game tf (arguments)',
    expected: ID(7),
    app: app(ID(7), 'Fixture TF2', linux('hl2_linux', { arguments: '-game tf' })),
    start: (s) => s.start(s.copy(BASH, 'tf2/hl2_linux'), ['-c', 'read', 'hl2_linux', '-steam', '-game', 'tf']),
  },
  {
    label: 'Minecraft: java … net.minecraft.client.main.Main (arguments)',
    expected: ID(8),
    app: app(ID(8), 'Fixture Minecraft', linux('java', { arguments: 'net.minecraft.client.main.Main' })),
    start: (s) => s.start(s.copy(BASH, 'jvm/bin/java'), ['-c', 'read', 'java', '-Xmx2G', '-cp', 'client.jar', 'net.minecraft.client.main.Main', '--version', '1.20']),
  },
  {
    label: 'hl2_linux -game hl2mp: only the basename of an entry that needs arguments (not a game)',
    expected: null,
    app: app(ID(9), 'Fixture GMod', linux('hl2_linux', { arguments: '-game garrysmod' })),
    start: (s) => s.start(s.copy(BASH, 'hl2mp/hl2_linux'), ['-c', 'read', 'hl2_linux', '-game', 'hl2mp']),
  },
  {
    label: 'a launcher (not shown)',
    expected: null,
    app: app(ID(10), 'Fixture Launcher', linux('fixlauncher', { is_launcher: true })),
    start: (s) => s.sleeping('fixlauncher'),
  },
];

const WINE_SERVICES = ['services.exe', 'winedevice.exe', 'plugplay.exe', 'explorer.exe', 'rpcss.exe', 'svchost.exe', 'conhost.exe'];

/** Fixtures, `games` of the list's runnable games, then fillers up to `total`; what each should be detected as. */
export async function startFixtureProcesses(spawner: Spawner, runnable: readonly { id: string; executable: string }[], games: number, total: number): Promise<{ expected: readonly FixtureCase[] }> {
  const expected: FixtureCase[] = [];
  for (const fixture of FIXTURES) {
    await fixture.start(spawner);
    expected.push({ label: fixture.label, expected: fixture.expected });
  }
  const step = Math.max(1, Math.floor(runnable.length / games));
  for (let i = 0; i < games && i * step < runnable.length; i++) {
    const game = runnable[i * step];
    if (game === undefined) break;
    await spawner.sleeping(`games/${i}/${game.executable}`);
    expected.push({ label: `a game of the list: ${game.executable}`, expected: game.id });
  }
  for (let i = 0; spawner.count < total; i++) {
    if (i % 10 === 0) await spawner.start(SLEEP, [SLEEP_S], { argv0: `C:\\windows\\system32\\${WINE_SERVICES[(i / 10) % WINE_SERVICES.length] ?? 'services.exe'}` });
    else if (i % 2 === 0) await spawner.sleeping(`fillers/${i}/service-worker-${i}`);
    else await spawner.start(SLEEP, [SLEEP_S], { argv0: `/usr/libexec/filler-daemon-${i}` });
  }
  return { expected };
}
