/**
 * Issue 27 §2, end to end: a Windows game under Wine (bridge-fixtures/bridge-game.c, talking to
 * \\?\pipe\discord-ipc-N as the official C library does) reaches alice's Linux host through
 * companion-bridge.exe in the same Wine session, and bob, her friend on the same emulator, sees
 * the presence. Then two games at once, the Linux host restarting, the log, and the bridge
 * ending with the Wine session.
 */
import { writeFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import type { Host } from '../../src/host/compose/host.js';
import { buildDoctorReport } from '../../src/diagnostics/doctor/doctor-report.js';
import { readProcesses } from '../../src/diagnostics/doctor/wine-games.js';
import { WinePrefix, windowsPath } from '../support/wine/wine-prefix.js';
import type { WineProcess } from '../support/wine/wine-process.js';
import { DEMO_APP_ID, eventually, startTestHost, World, type Player } from '../e2e/support/world.js';
import { buildBridge, buildBridgeGame, describeWithWine } from './support/bridge-run.js';
import { PiecemealServer } from './support/piecemeal-server.js';

const OTHER_APP_ID = '2234567890123456789';

describeWithWine("issue 27 §2: the Proton bridge: a Windows game under Wine reaches the Linux host, and a friend sees its presence", 'bridge.test.ts', (tools) => {
  let world: World;
  let alice: Player;
  let bob: Player;
  let prefix: WinePrefix;
  let dir: string;
  let bridgeExe: string;
  let gameExe: string;
  let bridge: WineProcess;
  const games: WineProcess[] = [];
  const restartedHosts: Host[] = [];
  let aliceHost: Host;

  const bridgeLog = (): string => readFileSync(path.join(dir, 'bridge.log'), 'utf8');
  const stopFile = (): string => path.join(dir, 'stop');

  function startGame(name: string, applicationId: string, state: string): WineProcess {
    const game = prefix.run(gameExe, [applicationId, state, windowsPath(stopFile())], { stdout: path.join(dir, `${name}.out`), stderr: path.join(dir, `${name}.err`) });
    games.push(game);
    return game;
  }

  /** Alice's host again, on her runtime and data dirs (as after a restart of Companion). */
  async function startAliceAgain(): Promise<void> {
    aliceHost = await startTestHost({ runtimeDir: alice.runtimeDir, dataDir: alice.dataDir, platformUrl: world.platform.url, credentials: { username: 'alice' } });
    restartedHosts.push(aliceHost);
    await eventually(() => aliceHost.session.status.status === 'ready', "alice's restarted host READY");
  }

  function bobSeesState(): string | undefined {
    return bob.host.friends.get(aliceHost.session.user!.id)?.presence.activities[0]?.state;
  }

  beforeAll(async () => {
    world = await World.start();
    alice = await world.player('alice');
    bob = await world.player('bob');
    aliceHost = alice.host;
    dir = await world.tempDir('companion-bridge-test-');
    bridgeExe = buildBridge();
    gameExe = await buildBridgeGame(dir, tools);
    prefix = await WinePrefix.create(path.join(dir, 'prefix'), tools);
    // The bridge sees the Linux environment Wine was started with, as under Proton.
    bridge = prefix.run(bridgeExe, ['--log', windowsPath(path.join(dir, 'bridge.log'))], {
      stdout: path.join(dir, 'bridge.out'),
      stderr: path.join(dir, 'bridge.err'),
      env: { XDG_RUNTIME_DIR: alice.runtimeDir },
    });
  }, 180_000);

  afterAll(async () => {
    await prefix?.remove();
    for (const host of restartedHosts) await host.close();
    await world?.close();
  }, 60_000);

  it('a game connects to \\\\?\\pipe\\discord-ipc-0, gets READY through the bridge, and its SET_ACTIVITY reaches alice\'s host and bob', async () => {
    const game = startGame('first', DEMO_APP_ID, 'Bridged from Wine');
    await game.waitForStdout(/CONNECTED 0\r?\nREADY\r?\nACTIVITY_OK/);
    await eventually(() => bobSeesState() === 'Bridged from Wine', 'the bridged presence at bob', 10_000);
    expect(alice.host.presence.view().games).toHaveLength(1);
    expect(bridgeLog()).toContain(`relayed to ${alice.runtimeDir}/discord-ipc-0`);
  }, 60_000);

  it('two games at once: the second connects while the first stays connected, both relayed', async () => {
    const second = startGame('second', OTHER_APP_ID, 'The second game');
    await second.waitForStdout(/READY\r?\nACTIVITY_OK/);
    await eventually(() => alice.host.presence.view().games.length === 2, 'two games at alice\'s host');
    expect(games[0]!.stdout).not.toContain('DISCONNECTED');
  }, 60_000);

  it('a CLOSE from the host (an empty client id: 4000) reaches the game through the bridge before its pipe closes', async () => {
    const refused = startGame('refused', '', 'Never shown');
    await refused.waitForStdout(/CONNECTED 0\r?\nCLOSE_FRAME\r?\nDISCONNECTED/);
    refused.kill('SIGKILL');
    await refused.exited;
    games.splice(games.indexOf(refused), 1);
  }, 60_000);

  it('a second bridge in the same Wine session leaves the pipes to the first and exits', async () => {
    const second = prefix.run(bridgeExe, [], { stdout: path.join(dir, 'bridge2.out'), stderr: path.join(dir, 'bridge2.err') });
    expect(await second.finish(30_000)).toBe(0);
    expect(second.stderr).toContain('another companion-bridge already serves this Wine session');
    expect(bridge.running).toBe(true);
  }, 60_000);

  it('the Linux host restarting: the games see their connection drop, reconnect through the bridge, and bob sees the presence again', async () => {
    await aliceHost.close();
    await Promise.all(games.map((game) => game.waitForStdout(/DISCONNECTED/)));
    await startAliceAgain();
    await Promise.all(games.map((game) => game.waitForStdout(/DISCONNECTED[\s\S]*READY\r?\nACTIVITY_OK/)));
    await eventually(() => aliceHost.presence.view().games.length === 2, 'both games at the restarted host', 10_000);
    await eventually(() => bobSeesState() !== undefined, 'a bridged presence at bob again', 10_000);
    expect(bridgeLog()).toMatch(/closed: the Linux side closed it/);
  }, 90_000);

  it('the bridge logs connections, pipe index and socket path, never a frame\'s bytes', () => {
    const log = bridgeLog();
    expect(log).toMatch(/connection \d+ on discord-ipc-0: opened/);
    for (const payload of ['Bridged from Wine', 'The second game', 'SET_ACTIVITY', 'client_id', DEMO_APP_ID, aliceHost.control.token]) {
      expect(log).not.toContain(payload);
    }
  });

  it('frames the Linux side writes in parts or together reach each game whole (READY split over two writes, a reply and a PING in one)', async () => {
    await aliceHost.close();
    await Promise.all(games.map((game) => eventually(() => game.stdout.endsWith('DISCONNECTED\n') || game.stdout.endsWith('DISCONNECTED\r\n'), 'the game dropped')));
    const seen = games.map((game) => game.stdout.length);
    const server = await PiecemealServer.start(path.join(alice.runtimeDir, 'discord-ipc-0'));
    try {
      await Promise.all(games.map((game, i) => eventually(() => /READY\r?\nACTIVITY_OK/.test(game.stdout.slice(seen[i])), 'READY and the reply at the game', 15_000)));
      await eventually(() => server.pongs.length >= games.length, 'a PONG from each game');
      for (const game of games) expect(game.stdout).not.toContain('PARTIAL_FRAME');
    } finally {
      await server.close();
      await startAliceAgain();
    }
    // Generous: under CI's load (Vitest's workers beside Wine) the reconnect has taken over 15 s once.
    await eventually(() => aliceHost.presence.view().games.length === games.length, 'the games back at alice\'s host', 45_000).catch((error: unknown) => {
      const tail = (text: string): string => text.slice(-400);
      throw new Error(`${(error as Error).message}\n--- games\n${games.map((game) => tail(game.stdout)).join('\n---\n')}\n--- bridge log\n${tail(bridgeLog())}`);
    });
  }, 90_000);

  it('the bridge exits when the Wine session ends (the last game gone), without keeping the session alive', async () => {
    writeFileSync(stopFile(), '');
    for (const game of games) expect(await game.finish(30_000)).toBe(0);
    expect((await bridge.finish(30_000))).toBe(0);
    expect(bridgeLog()).toContain('the Wine session is ending');
  }, 90_000);

  it('companion doctor names a game in a Wine session without the bridge, with the one-line fix, and is quiet once the bridge runs', async () => {
    rmSync(stopFile());
    const ownSession = async (): Promise<{ findings: string[]; bridged: boolean | undefined }> => {
      const report = await buildDoctorReport({ env: { XDG_RUNTIME_DIR: alice.runtimeDir }, wineProcesses: async () => (await readProcesses()).filter((proc) => proc.winePrefix === prefix.dir) });
      return { findings: report.findings.filter((line) => line.includes(prefix.dir)), bridged: report.wine?.sessions.find((s) => s.prefix === prefix.dir)?.bridge };
    };
    const alone = startGame('alone', DEMO_APP_ID, 'No bridge');
    await alone.waitForStdout(/STARTED/);
    const before = await ownSession();
    expect(before.bridged).toBe(false);
    expect(before.findings).toHaveLength(1);
    expect(before.findings[0]).toMatch(/^a Windows game under Wine cannot reach Companion: bridge-game\.exe .* PROTON_REMOTE_DEBUG_CMD=".*companion-bridge\.exe" .*%command%/);
    const late = prefix.run(bridgeExe, [], { stdout: path.join(dir, 'late-bridge.out'), stderr: path.join(dir, 'late-bridge.err'), env: { XDG_RUNTIME_DIR: alice.runtimeDir } });
    await alone.waitForStdout(/ACTIVITY_OK/);
    const after = await ownSession();
    expect(after).toEqual({ findings: [], bridged: true });
    writeFileSync(stopFile(), '');
    expect(await alone.finish(30_000)).toBe(0);
    expect(await late.finish(30_000)).toBe(0);
  }, 90_000);
});
