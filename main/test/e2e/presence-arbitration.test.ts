/**
 * Relay outcomes, arbitration and privacy through real hosts: alice's games (the real
 * @xhayper/discord-rpc client and our SDK) on her host, bob watching as her friend on the same
 * emulator. What bob's host receives is what a friend sees.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '../../../rpc/client/index.js';
import { controlCommand } from '../../src/shells/cli/control.js';
import type { Host } from '../../src/host/compose/host.js';
import type { AnnouncedApplication } from '../../src/host/presence/presence-settings-store.js';
import type { RelayOutcome } from '../../src/host/presence/relay-outcomes.js';
import type { WireActivity } from '../../../platform/src/wire/index.js';
import { DEMO_APP_ID, eventually, startTestHost, World, type Player } from './support/world.js';

const OTHER_APP_ID = '2234567890123456789';

let world: World;
const sdkClients: Client[] = [];
const extraHosts: Host[] = [];
afterEach(async () => {
  for (const client of sdkClients.splice(0)) await client.disconnect();
  for (const host of extraHosts.splice(0)) await host.close();
  await world.close();
});

async function twoFriends(limits?: Record<string, unknown>, relayLimit?: { count: number; windowMs: number }): Promise<[Player, Player]> {
  world = await World.start(limits);
  const alice = await world.player('alice', relayLimit === undefined ? {} : { relayLimit });
  const bob = await world.player('bob');
  return [alice, bob];
}

/** alice's activities as bob's host last heard them (undefined: alice unknown or offline). */
function bobSees(alice: Player, bob: Player, host: Host = alice.host): readonly WireActivity[] | undefined {
  return bob.host.friends.get(host.session.user!.id)?.presence.activities;
}

/** Every PRESENCE_UPDATE about alice that reaches bob's host, in order. */
function watchFriendView(alice: Player, bob: Player): { activities: readonly WireActivity[] }[] {
  const seen: { activities: readonly WireActivity[] }[] = [];
  const aliceId = alice.host.session.user!.id;
  bob.host.session.on('dispatch', (t, d) => {
    const update = d as { user: { id: string }; activities: WireActivity[] };
    if (t === 'PRESENCE_UPDATE' && update.user.id === aliceId) seen.push({ activities: update.activities });
  });
  return seen;
}

async function sdkGame(runtimeDir: string, applicationId: string): Promise<Client> {
  const client = new Client({
    env: { XDG_RUNTIME_DIR: runtimeDir },
    logger: { sink: () => undefined },
    connection: { backoff: { initialMs: 100, maxMs: 400 } },
  });
  sdkClients.push(client);
  client.setApplicationId(applicationId);
  const result = await client.connect();
  expect(result.successful, result.error).toBe(true);
  return client;
}

async function presenceCli(player: Player, ...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await controlCommand(['presence', ...argv, '--runtime-dir', player.runtimeDir], {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    env: {},
    version: '0.0.0-test',
  });
  return { code, stdout, stderr };
}

/** Opens the control API's event stream (GET /v1/events); `take` reads it until `count` events of `type` came. */
async function openEvents(host: Host, signal: AbortSignal): Promise<{ take(type: string, count: number): Promise<unknown[]> }> {
  const response = await fetch(`${host.control.url}/v1/events`, { headers: { Authorization: `Bearer ${host.control.token}` }, signal });
  return { take: (type, count) => readEvents(response, type, count) };
}

async function readEvents(response: Response, type: string, count: number): Promise<unknown[]> {
  const found: unknown[] = [];
  let buffer = '';
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
    buffer += Buffer.from(chunk).toString('utf8');
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      if (block.includes(`event: ${type}\n`)) found.push(JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? 'null'));
      if (found.length === count) return found;
    }
  }
  return found;
}

function outcomesOf(host: Host, connectionId: string): RelayOutcome[] {
  return host.presence.view().recent_outcomes.filter((outcome) => outcome.connection_id === connectionId);
}

describe('relay outcomes through a real host', () => {
  it('a burst of 10 updates in 5 s: every SET_ACTIVITY is answered, the last state reaches bob, who never sees alice without it', async () => {
    // The real count with a 3 s window on both sides: the burst goes over it, and the test takes seconds.
    const window = { count: 5, windowMs: 3000 };
    const [alice, bob] = await twoFriends({ gameActivityLimit: window }, window);
    const friendView = watchFriendView(alice, bob);
    const events: RelayOutcome[] = [];
    alice.host.presence.on('outcome', (outcome) => events.push(outcome));
    const game = await alice.game();
    for (let i = 1; i <= 10; i++) {
      const reply = await game.client.user!.setActivity({ state: `update ${i}`, details: 'Burst' });
      expect(reply).toMatchObject({ state: `update ${i}` });
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    await eventually(() => bobSees(alice, bob)?.[0]?.state === 'update 10', 'the last state at bob', 10_000);

    const withGame = friendView.findIndex((update) => update.activities.length > 0);
    expect(withGame).toBeGreaterThanOrEqual(0);
    expect(friendView.slice(withGame).every((update) => update.activities.length === 1)).toBe(true);

    const [connection] = alice.host.presence.view().games;
    // Every update got an outcome event; every held one was followed by its send.
    for (let update = 1; update <= 10; update++) expect(events.some((o) => o.update === update), `update ${update}`).toBe(true);
    const held = events.filter((o) => o.kind === 'held').length;
    expect(held).toBeGreaterThan(0);
    const delivered = events.reduce((sum, o) => sum + (o.kind === 'sent' ? 1 : o.kind === 'coalesced' ? o.count : 0), 0);
    expect(delivered).toBe(10);
    expect(events.at(-1)).toMatchObject({ update: 10 });
    expect(['sent', 'coalesced']).toContain(events.at(-1)?.kind);
    // The host keeps the same, with runs of held folded.
    const outcomes = outcomesOf(alice.host, connection!.connection_id);
    expect(outcomes.at(-1)).toEqual(events.at(-1));
    expect(connection).toMatchObject({ application_id: DEMO_APP_ID, shown: true, outcome: events.at(-1) });
  }, 30_000);

  it("rejected: the platform's RATE_LIMITED is reported for the update it dropped, which goes out again after retry_after", async () => {
    // The relay allows more than the platform does, so the platform says RATE_LIMITED.
    const [alice, bob] = await twoFriends({ gameActivityLimit: { count: 2, windowMs: 1500 } }, { count: 10, windowMs: 1500 });
    const game = await alice.game();
    for (let i = 1; i <= 3; i++) await game.client.user!.setActivity({ state: `step ${i}` });
    const connectionId = alice.host.presence.view().games[0]!.connection_id;
    const rejected = await eventually(() => outcomesOf(alice.host, connectionId).find((o) => o.kind === 'rejected'), 'a rejected outcome');
    expect(rejected).toMatchObject({ update: 3, reason: 'rate_limited' });
    expect(rejected.kind === 'rejected' && rejected.retry_after_ms).toBeGreaterThan(0);
    await eventually(() => bobSees(alice, bob)?.[0]?.state === 'step 3', 'the dropped state at bob after the retry', 10_000);
    expect(outcomesOf(alice.host, connectionId).at(-1)).toMatchObject({ update: 3, kind: 'sent' });
  });

  it('clear then close: both are in the outcome list, and bob sees no activity', async () => {
    const [alice, bob] = await twoFriends();
    const aborter = new AbortController();
    const streamed = (await openEvents(alice.host, aborter.signal)).take('presence-outcome', 3);
    const game = await alice.game();
    await game.client.user!.setActivity({ state: 'about to leave' });
    await eventually(() => bobSees(alice, bob)?.[0]?.state === 'about to leave', 'the activity at bob');
    const connectionId = alice.host.presence.view().games[0]!.connection_id;
    await game.client.user!.clearActivity();
    await game.client.destroy();
    const outcomes = await eventually(() => {
      const own = outcomesOf(alice.host, connectionId);
      return own.length === 3 ? own : undefined;
    }, 'three outcomes');
    expect(outcomes.map((o) => [o.update, o.cause, o.cleared, o.kind])).toEqual([
      [1, 'command', false, 'sent'],
      [2, 'command', true, 'sent'],
      [3, 'disconnect', true, 'unchanged'],
    ]);
    await eventually(() => bobSees(alice, bob)?.length === 0, 'no activity at bob');
    expect(alice.host.presence.view().games).toEqual([]);
    // The same three on the control API's event stream.
    expect(await streamed).toEqual(outcomes);
    aborter.abort();
  });
});

describe('arbitration between two games of two libraries', () => {
  it('most-recent shows the latest; a pinned app wins; first-connected keeps the first game; bob sees the expected one', async () => {
    const [alice, bob] = await twoFriends();
    const first = await alice.game(DEMO_APP_ID); // @xhayper/discord-rpc
    const second = await sdkGame(alice.runtimeDir, OTHER_APP_ID); // companion/client
    await first.client.user!.setActivity({ state: 'first game' });
    await eventually(() => bobSees(alice, bob)?.[0]?.state === 'first game', 'the first game at bob');
    expect((await second.updateRichPresence({ state: 'second game' })).successful).toBe(true);
    await eventually(() => bobSees(alice, bob)?.[0]?.application_id === OTHER_APP_ID, 'most-recent: the second game at bob');

    const pinned = await alice.control('PATCH', '/v1/presence/settings', { pinned_application_id: DEMO_APP_ID });
    expect(pinned.status).toBe(200);
    await eventually(() => bobSees(alice, bob)?.[0]?.state === 'first game', 'the pinned game at bob');
    expect((await second.updateRichPresence({ state: 'second, again' })).successful).toBe(true);
    const view = await eventually(() => {
      const current = alice.host.presence.view();
      return current.games.find((g) => g.application_id === OTHER_APP_ID)?.outcome?.kind === 'shadowed' ? current : undefined;
    }, 'the second game shadowed');
    expect(view.games.find((g) => g.application_id === OTHER_APP_ID)?.outcome).toMatchObject({ kind: 'shadowed', by_application_id: DEMO_APP_ID });
    expect(view.games.find((g) => g.application_id === DEMO_APP_ID)?.shown).toBe(true);

    // first-connected without the pin: the xhayper game connected first and stays shown.
    const settings = await alice.control('PATCH', '/v1/presence/settings', { pinned_application_id: null, policy: 'first-connected' });
    expect(settings.body).toEqual({ policy: 'first-connected', pinned_application_id: null, hide_all: false, rules: {} });
    expect((await second.updateRichPresence({ state: 'second, third time' })).successful).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(bobSees(alice, bob)?.map((a) => a.state)).toEqual(['first game']);

    // Back to most-recent: the second game's latest update is what bob sees.
    await alice.control('PATCH', '/v1/presence/settings', { policy: 'most-recent' });
    await eventually(() => bobSees(alice, bob)?.[0]?.state === 'second, third time', 'most-recent again at bob');
    expect(bobSees(alice, bob)).toHaveLength(1);
  });
});

describe('privacy', () => {
  it('hide-all clears what bob sees and un-hiding restores it; redact drops the fields bob sees (companion control presence)', async () => {
    const [alice, bob] = await twoFriends();
    const game = await alice.game();
    await game.client.user!.setActivity({ state: 'In a squad', details: 'Ranked', partyId: 'party-1', partySize: 1, partyMax: 4, largeImageKey: 'logo' });
    await eventually(() => bobSees(alice, bob)?.[0]?.details === 'Ranked', 'the activity at bob');

    const hide = await presenceCli(alice, 'set', '--hide-all', 'on');
    expect(hide, hide.stderr).toMatchObject({ code: 0 });
    expect(hide.stdout).toContain('hide all: on');
    await eventually(() => bobSees(alice, bob)?.length === 0, 'no activity at bob');
    expect(bob.host.friends.get(alice.host.session.user!.id)?.presence.status).toBe('online');
    await game.client.user!.setActivity({ state: 'still here', details: 'Ranked', partyId: 'party-1', partySize: 1, partyMax: 4, largeImageKey: 'logo' });
    const shown = await presenceCli(alice, '--json');
    const view = JSON.parse(shown.stdout);
    expect(view.hide_all).toBe(true);
    expect(view.games[0]).toMatchObject({ shown: false, outcome: { kind: 'hidden', rule: 'hide-all' } });

    expect((await presenceCli(alice, 'set', '--hide-all', 'off')).code).toBe(0);
    await eventually(() => bobSees(alice, bob)?.[0]?.state === 'still here', 'the activity back at bob');

    const redact = await presenceCli(alice, 'set', '--rule', `${DEMO_APP_ID}=redact:details,party`);
    expect(redact.stdout).toContain(`${DEMO_APP_ID} redact details,party`);
    const redacted = await eventually(() => {
      const activity = bobSees(alice, bob)?.[0];
      return activity !== undefined && activity.details === undefined ? activity : undefined;
    }, 'the redacted activity at bob');
    expect(redacted).toMatchObject({ state: 'still here', assets: { large_image: 'logo' } });
    expect(redacted.party).toBeUndefined();

    const text = await presenceCli(alice);
    expect(text.stdout).toMatch(/^policy: {3}most-recent$/m);
    expect(text.stdout).toMatch(/shown {2}sent$/m);

    await expect(presenceCli(alice, 'set', '--rule', `${DEMO_APP_ID}=blur`)).rejects.toThrow(/expected APP=share, APP=hide or APP=redact/);
  });
});

describe('across a host restart', () => {
  it('the first activity of an app is announced once, also after a restart; games that reconnect re-assert the presence, with no duplicate', async () => {
    const [alice, bob] = await twoFriends();
    const announcements: AnnouncedApplication[] = [];
    alice.host.presence.on('announcement', (app) => announcements.push(app));
    const events: string[] = [];
    const unsubscribe = alice.host.control.backend.subscribe((event) => void (event.type === 'presence-announcement' && events.push(event.type)));

    const game = await sdkGame(alice.runtimeDir, DEMO_APP_ID);
    expect((await game.updateRichPresence({ state: 'before the restart' })).successful).toBe(true);
    expect((await game.updateRichPresence({ state: 'playing on' })).successful).toBe(true);
    await eventually(() => bobSees(alice, bob)?.[0]?.state === 'playing on', 'the activity at bob');
    expect(announcements).toEqual([{ application_id: DEMO_APP_ID, application_name: expect.any(String), at: expect.any(Number) }]);
    expect(events).toEqual(['presence-announcement']);
    unsubscribe();
    const firstAnnouncement = announcements[0]!;
    await alice.host.close();

    const restarted = await startTestHost({
      runtimeDir: alice.runtimeDir,
      dataDir: alice.dataDir,
      platformUrl: world.platform.url,
      credentials: { username: 'alice' },
    });
    extraHosts.push(restarted);
    const again: AnnouncedApplication[] = [];
    restarted.presence.on('announcement', (app) => again.push(app));
    const friendView: { activities: readonly WireActivity[] }[] = [];
    bob.host.session.on('dispatch', (t, d) => {
      const update = d as { user: { id: string }; activities: WireActivity[] };
      if (t === 'PRESENCE_UPDATE' && update.user.id === restarted.session.user?.id) friendView.push({ activities: update.activities });
    });

    // The SDK reconnects by itself and sends its presence again.
    await eventually(() => bobSees(alice, bob, restarted)?.[0]?.state === 'playing on', 'the re-asserted activity at bob', 10_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(bobSees(alice, bob, restarted)).toHaveLength(1);
    expect(friendView.every((update) => update.activities.length <= 1)).toBe(true);
    expect(restarted.presence.view().games).toHaveLength(1);
    expect(again).toEqual([]);
    expect(restarted.presence.view().announced_applications).toEqual([firstAnnouncement]);

    // A new app is still announced, once.
    const other = await sdkGame(alice.runtimeDir, OTHER_APP_ID);
    expect((await other.updateRichPresence({ state: 'new game' })).successful).toBe(true);
    expect((await other.updateRichPresence({ state: 'new game, again' })).successful).toBe(true);
    expect(again.map((app) => app.application_id)).toEqual([OTHER_APP_ID]);
  }, 30_000);
});
