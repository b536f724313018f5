/**
 * Game detection through real hosts: a real process started under the demo app's executable
 * name on alice's machine (a copy of /bin/sleep), alice's host scanning /proc, bob watching as
 * her friend on the same emulator. What bob's host receives is what a friend sees. Linux only:
 * the scanner reads /proc (other OSes have no process source yet).
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readRecording } from '../../src/host/record/record-reader.js';
import { timelineLine } from '../../src/host/record/timeline.js';
import type { WireActivity } from '../../../platform/src/wire/index.js';
import type { HostEvent } from '../../src/host/record/host-events.js';
import { controlCommand } from '../../src/shells/cli/control.js';
import { doctorCommand } from '../../src/shells/cli/doctor.js';
import { renamedCopy, SLEEP, startProcess, startWaiting, type TestProcess } from '../host/detection/support/processes.js';
import { DEMO_APP_ID, eventually, World, type Player } from './support/world.js';

/** The seeded demo app's Linux executable (platform/src/state/seed.ts). */
const DEMO_EXECUTABLE = 'companion-demo-game';
const DEMO_NAME = 'Companion Demo Game';
/** Short scans: the test waits for a start and an end. */
const SCAN = { scan: true, intervalMs: 200 };

let world: World;
const processes: TestProcess[] = [];
afterEach(async () => {
  await Promise.all(processes.splice(0).map((p) => p.kill()));
  await world.close();
});

async function aliceAndBob(): Promise<[Player, Player]> {
  world = await World.start();
  const alice = await world.player('alice', { detection: SCAN });
  const bob = await world.player('bob');
  await eventually(() => alice.host.detection.view().list.source === 'platform', "alice's host fetched the detectable list");
  return [alice, bob];
}

/** The demo game run as a real process under its executable name. */
async function runDemoGame(): Promise<TestProcess> {
  const dir = await world.tempDir('companion-game-');
  const started = await startProcess(renamedCopy(SLEEP, dir, DEMO_EXECUTABLE), ['60']);
  processes.push(started);
  return started;
}

function bobSees(alice: Player, bob: Player): readonly WireActivity[] | undefined {
  return bob.host.friends.get(alice.host.session.user!.id)?.presence.activities;
}

function playing(activities: readonly WireActivity[] | undefined): boolean {
  return activities?.length === 1 && activities[0]?.name === DEMO_NAME && activities[0]?.type === 0 && activities[0]?.application_id === DEMO_APP_ID;
}

async function controlJson(player: Player, ...argv: string[]): Promise<unknown> {
  return JSON.parse(await controlText(player, ...argv, '--json')) as unknown;
}

async function controlText(player: Player, ...argv: string[]): Promise<string> {
  let stdout = '';
  const code = await controlCommand([...argv, '--runtime-dir', player.runtimeDir], {
    stdout: (text) => (stdout += text),
    stderr: () => undefined,
    env: {},
    version: '0.0.0-test',
  });
  expect(code).toBe(0);
  return stdout;
}

describe.skipIf(process.platform !== 'linux')('issue 30 §2 wiring: a detected game is "Playing <name>" for friends', () => {
  it('a real process under the demo executable name: bob sees alice playing it with a start time, and it ends when the process exits', async () => {
    const [alice, bob] = await aliceAndBob();
    const game = await runDemoGame();
    await eventually(() => playing(bobSees(alice, bob)), 'bob sees alice playing the demo game', 10_000);
    const activity = bobSees(alice, bob)?.[0];
    expect(activity?.timestamps?.start).toEqual(expect.any(Number));
    expect(alice.host.detection.running()).toEqual([expect.objectContaining({ application_id: DEMO_APP_ID, pid: game.pid, showing: 'shown' })]);
    // Announced once to the player, as a game's first RPC activity is.
    expect(alice.host.presence.view().announced_applications).toEqual([expect.objectContaining({ application_id: DEMO_APP_ID, application_name: DEMO_NAME })]);

    await game.kill();
    await eventually(() => bobSees(alice, bob)?.length === 0, 'the activity ended at bob', 10_000);
    const view = alice.host.detection.view();
    expect(view.games[0]).toMatchObject({ application_id: DEMO_APP_ID, state: 'ended', pid: game.pid });
    expect(view.games[0]?.ended_at).toEqual(expect.any(Number));
  }, 30_000);

  it('signing out stops the scanner (its game ends); signing in again finds the game again', async () => {
    const [alice] = await aliceAndBob();
    await runDemoGame();
    await eventually(() => alice.host.detection.running().length === 1, 'alice detects the game', 10_000);
    expect((await alice.control('POST', '/v1/account/logout', {})).status).toBe(200);
    expect(alice.host.detection.running()).toEqual([]);
    expect(alice.host.detection.view().games[0]).toMatchObject({ application_id: DEMO_APP_ID, state: 'ended' });
    expect((await alice.control('POST', '/v1/account/login', { username: 'alice' })).status).toBe(200);
    await eventually(() => alice.host.detection.running().length === 1, 'found again after signing in', 10_000);
  }, 30_000);

  it('a game the player excluded is not shown; the global switch off shows none; both come back when switched on', async () => {
    const [alice, bob] = await aliceAndBob();
    await alice.host.detection.update({ game: { application_id: DEMO_APP_ID, shown: false } });
    await runDemoGame();
    await eventually(() => alice.host.detection.running().length === 1, 'alice detects the game');
    expect(alice.host.detection.running()[0]?.showing).toBe('excluded');
    // Nothing was given to the relay for it, so nothing went to bob.
    expect(alice.host.relay.live()).toEqual([]);
    expect(alice.host.relay.current().activities).toEqual([]);
    expect(bobSees(alice, bob) ?? []).toEqual([]);
    await alice.host.detection.update({ game: { application_id: DEMO_APP_ID, shown: true } });
    await eventually(() => playing(bobSees(alice, bob)), 'shown once switched on', 10_000);

    await alice.host.detection.update({ enabled: false });
    await eventually(() => bobSees(alice, bob)?.length === 0, 'the global switch takes it down', 10_000);
    expect(alice.host.detection.running()).toEqual([]);
    await alice.host.detection.update({ enabled: true });
    await eventually(() => playing(bobSees(alice, bob)), 'back with the switch on', 10_000);
  }, 30_000);

  it('the privacy rules of RPC activities apply: a hidden game is not shown, a redacted one keeps its name only', async () => {
    const [alice, bob] = await aliceAndBob();
    await alice.host.presence.updateSettings({ rules: { [DEMO_APP_ID]: { mode: 'hide' } } });
    await runDemoGame();
    await eventually(() => alice.host.detection.running().length === 1, 'alice detects the game');
    await eventually(() => alice.host.presence.view().recent_outcomes.some((o) => o.connection_id === `detected:${DEMO_APP_ID}` && o.kind === 'hidden'), 'the relay hid it');
    expect(bobSees(alice, bob) ?? []).toEqual([]);
    await alice.host.presence.updateSettings({ hide_all: false, rules: { [DEMO_APP_ID]: { mode: 'redact', fields: ['timestamps'] } } });
    await eventually(() => playing(bobSees(alice, bob)), 'shown once the rule allows it', 10_000);
    expect(bobSees(alice, bob)?.[0]?.timestamps).toBeUndefined();
  }, 30_000);

  it('a game that also speaks RPC appears once, by its RPC activity; its detected one comes back when the RPC one goes', async () => {
    const [alice, bob] = await aliceAndBob();
    await runDemoGame();
    await eventually(() => playing(bobSees(alice, bob)), 'the detected activity at bob', 10_000);
    const rpc = await alice.game(DEMO_APP_ID);
    await rpc.client.user!.setActivity({ details: 'In a match', state: 'Ranked' });
    await eventually(() => bobSees(alice, bob)?.[0]?.details === 'In a match', 'the RPC activity at bob', 10_000);
    expect(bobSees(alice, bob)).toHaveLength(1);
    expect(alice.host.detection.running()[0]?.showing).toBe('rpc');
    expect(alice.host.relay.live().map((live) => live.connectionId)).not.toContain(`detected:${DEMO_APP_ID}`);

    await rpc.client.user!.clearActivity();
    await eventually(() => playing(bobSees(alice, bob)) && bobSees(alice, bob)?.[0]?.details === undefined, 'the detected activity again', 10_000);
  }, 30_000);
});

describe.skipIf(process.platform !== 'linux')('issue 30 §4: QA sees detection', () => {
  it('companion control games --json lists the detected game with detected: true, its executable and application; the event stream and the inspector show start and end', async () => {
    const [alice] = await aliceAndBob();
    const hostEvents: HostEvent[] = [];
    const unsubscribe = alice.host.hostEvents.subscribe((event) => hostEvents.push(event));
    const recordingFile = path.join(await world.tempDir('companion-rec-'), 'detection.rec');
    await alice.host.recorder.start(recordingFile, { secrets: false });
    const abort = new AbortController();
    const stream = await fetch(`${alice.host.control.url}/v1/events`, { headers: { Authorization: `Bearer ${alice.host.control.token}` }, signal: abort.signal });
    const game = await runDemoGame();
    await eventually(() => alice.host.detection.running().length === 1, 'alice detects the game', 10_000);

    const listed = (await controlJson(alice, 'games')) as { games: Record<string, unknown>[] };
    expect(listed.games).toContainEqual(
      expect.objectContaining({ detected: true, application_id: DEMO_APP_ID, application_name: DEMO_NAME, executable: DEMO_EXECUTABLE, pid: game.pid, showing: 'shown' }),
    );
    expect(String(listed.games.find((entry) => entry['detected'] === true)?.['path'])).toMatch(new RegExp(`/${DEMO_EXECUTABLE}$`));
    expect(await controlText(alice, 'games')).toMatch(new RegExp(`^detected  ${DEMO_NAME} \\(${DEMO_APP_ID}, pid ${game.pid}\\)  .*/${DEMO_EXECUTABLE}  friends see "Playing"$`, 'm'));

    await game.kill();
    await eventually(() => hostEvents.some((event) => event.kind === 'detection' && event.event === 'end'), 'the end as a host event', 10_000);
    unsubscribe();
    expect(hostEvents.filter((event) => event.kind === 'detection')).toEqual([
      expect.objectContaining({ kind: 'detection', event: 'start', connection: `detected:${DEMO_APP_ID}`, application_id: DEMO_APP_ID, executable: DEMO_EXECUTABLE }),
      expect.objectContaining({ kind: 'detection', event: 'end', connection: `detected:${DEMO_APP_ID}`, application_id: DEMO_APP_ID }),
    ]);

    const text = await readUntil(stream, 'event: detection-end');
    abort.abort();
    expect(text).toContain('event: detection-start');
    expect(text).toMatch(new RegExp(`"application_id":"${DEMO_APP_ID}"`));

    await alice.host.recorder.stop();
    const recorded = (await readRecording(recordingFile)).records.filter((record) => record.kind === 'detection');
    expect(recorded.map((record) => (record as { event: string }).event)).toEqual(['start', 'end']);
    expect(timelineLine(recorded[0]!)).toMatch(new RegExp(`· detection start: ${DEMO_NAME} \\(${DEMO_APP_ID}\\) from .*/${DEMO_EXECUTABLE}, pid ${game.pid}$`));

    const frames = (await alice.control('GET', '/v1/inspector/frames/0')).body as { frames: { cmd: string; connection_id: string }[] };
    expect(frames.frames.filter((row) => row.cmd === 'detection').map((row) => row.connection_id)).toEqual([`detected:${DEMO_APP_ID}`, `detected:${DEMO_APP_ID}`]);
  }, 30_000);
});

describe.skipIf(process.platform !== 'linux')('issue 30 §4: companion doctor explains why a running program was not detected, from the running host', () => {
  it('an argument missing, a launcher, no entry for this OS, and a program no entry names; the detected game too; no command line printed', async () => {
    world = await World.start();
    world.platform.admin.patchApp(DEMO_APP_ID, {
      executables: [
        { os: 'linux', name: DEMO_EXECUTABLE, is_launcher: false },
        { os: 'linux', name: 'companion-demo-launcher', is_launcher: true },
        { os: 'linux', name: 'companion-demo-server', is_launcher: false, arguments: '--mode game' },
        { os: 'darwin', name: 'companion-demo-mac', is_launcher: false },
      ],
    });
    const alice = await world.player('alice', { detection: SCAN });
    await eventually(() => alice.host.detection.view().list.source === 'platform', 'the list fetched');
    const dir = await world.tempDir('companion-game-');
    const secretArgument = 'token-do-not-print-4f1c';
    for (const name of [DEMO_EXECUTABLE, 'companion-demo-launcher', 'companion-demo-mac', 'issue30-unknown']) processes.push(await startProcess(renamedCopy(SLEEP, dir, name), ['60']));
    // A copy of bash waiting on stdin takes any argument (sleep would refuse this one and exit).
    processes.push(await startWaiting(dir, 'companion-demo-server', ['--mode', secretArgument]));
    await eventually(() => alice.host.detection.running().length === 1, 'the demo game detected', 10_000);

    const text = await doctor(alice, []);
    expect(text).toContain('Game detection\n  list: 1 detectable applications from the platform');
    expect(text).toMatch(new RegExp(`/${DEMO_EXECUTABLE} \\(pid \\d+\\): detected: ${DEMO_NAME} \\(${DEMO_APP_ID}\\)`));
    expect(text).toMatch(/\/companion-demo-server \(pid \d+\): not detected: Companion Demo Game's entry 'companion-demo-server' needs '--mode game' in the command line/);
    expect(text).toMatch(/\/companion-demo-launcher \(pid \d+\): not shown: 'companion-demo-launcher' is Companion Demo Game's launcher/);
    expect(text).toMatch(/\/companion-demo-mac \(pid \d+\): not detected: Companion Demo Game lists 'companion-demo-mac' for darwin only, no entry for linux/);
    expect(text).not.toContain('issue30-unknown');
    expect(text).not.toContain(secretArgument);

    const one = await doctor(alice, ['--program', 'issue30-UNKNOWN']);
    expect(one).toMatch(/\/issue30-unknown \(pid \d+\): not detected: no application of the list has an entry for this program/);
    const json = JSON.parse(await doctor(alice, ['--json'])) as { detection: { state: string; programs: { path: string; verdict: { kind: string } }[] } };
    expect(json.detection.state).toBe('explained');
    // The scanner's paths are lower-cased, as the list's names are.
    const kinds = Object.fromEntries(json.detection.programs.filter((p) => p.path.startsWith(dir.toLowerCase())).map((p) => [p.path.slice(dir.length + 1), p.verdict.kind]));
    expect(kinds).toEqual({ [DEMO_EXECUTABLE]: 'detected', 'companion-demo-launcher': 'launcher', 'companion-demo-server': 'argument-missing', 'companion-demo-mac': 'other-os', 'issue30-unknown': 'no-entry' });
  }, 30_000);
});

async function doctor(player: Player, argv: string[]): Promise<string> {
  let stdout = '';
  const home = await world.tempDir('companion-home-');
  const code = await doctorCommand([...argv, '--runtime-dir', player.runtimeDir], {
    stdout: (text) => (stdout += text),
    stderr: () => undefined,
    env: { HOME: home, XDG_CONFIG_HOME: home, XDG_RUNTIME_DIR: player.runtimeDir },
    version: '0.0.0-test',
  });
  expect(code).toBe(0);
  return stdout;
}

async function readUntil(response: Response, marker: string): Promise<string> {
  let text = '';
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
    text += Buffer.from(chunk).toString('utf8');
    if (text.includes(marker)) return text;
  }
  return text;
}
