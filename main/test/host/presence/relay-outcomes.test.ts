import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeActivity, type ActivityInput, type GatewayActivity } from '../../../../rpc/src/index.js';
import type { PresenceUpdateCommand } from '../../../../platform/src/wire/index.js';
import { PresenceRelay, type PresenceRelayOptions, type RelayActivityChange } from '../../../src/host/presence/presence-relay.js';
import { DEFAULT_PRESENCE_SETTINGS, type PresenceSettings } from '../../../src/host/presence/presence-privacy.js';
import { chooseShown } from '../../../src/host/presence/arbitration.js';
import { RelayOutcomeLog, type RelayOutcome } from '../../../src/host/presence/relay-outcomes.js';
import { FakeClock } from './fake-clock.js';

const APP_A = '1234567890123456789';
const APP_B = '2234567890123456789';
const WINDOW = 20_000;

function activity(input: ActivityInput, applicationId = APP_A): GatewayActivity {
  return normalizeActivity(input, { applicationId, applicationName: `Game ${applicationId.slice(0, 1)}`, transport: 'ipc', now: () => 1_700_000_000_000 });
}

function setup(overrides: Partial<PresenceRelayOptions> = {}) {
  const clock = new FakeClock();
  const sent: { at: number; payload: PresenceUpdateCommand }[] = [];
  const outcomes: RelayOutcome[] = [];
  const settings: { current: PresenceSettings } = { current: DEFAULT_PRESENCE_SETTINGS };
  let computed = 0;
  const relay = new PresenceRelay({
    clock,
    marginMs: 0,
    settings: () => settings.current,
    // Called once per payload built: counts how often the relay computes one.
    status: () => {
      computed++;
      return 'online';
    },
    send: (payload) => {
      sent.push({ at: clock.now(), payload });
      return true;
    },
    ...overrides,
  });
  relay.on('outcome', (outcome) => outcomes.push(outcome));
  const set = (connectionId: string, state: string, applicationId = connectionId === 'b' ? APP_B : APP_A, extra: Partial<RelayActivityChange> = {}): void =>
    relay.activityChanged({ connectionId, applicationId, pid: 1, activity: activity({ state }, applicationId), ...extra });
  const clear = (connectionId: string, applicationId = connectionId === 'b' ? APP_B : APP_A): void =>
    relay.activityChanged({ connectionId, applicationId, pid: 1, activity: null });
  return { clock, sent, outcomes, settings, relay, set, clear, computed: () => computed };
}

const kinds = (outcomes: readonly RelayOutcome[]): string[] => outcomes.map((o) => `${o.connection_id}#${o.update} ${o.kind}`);
const stateOf = (payload: PresenceUpdateCommand | undefined): string | undefined => payload?.activities[0]?.state;

describe('relay outcomes', () => {
  it('sent, then unchanged for an identical update', () => {
    const { set, outcomes, sent } = setup();
    set('a', 'in menu');
    set('a', 'in menu');
    expect(sent).toHaveLength(1);
    expect(outcomes).toMatchObject([
      { connection_id: 'a', application_id: APP_A, update: 1, cause: 'command', cleared: false, kind: 'sent' },
      { connection_id: 'a', update: 2, kind: 'unchanged' },
    ]);
  });

  it('held by the rate limit until the slot frees, then coalesced (n) into the send that follows', () => {
    const { set, outcomes, sent, clock, computed } = setup();
    const start = clock.now();
    for (let i = 1; i <= 5; i++) set('a', `s${i}`);
    const builtBefore = computed();
    for (let i = 6; i <= 10; i++) {
      clock.advance(100);
      set('a', `s${i}`);
    }
    // While held, an update builds no payload.
    expect(computed()).toBe(builtBefore + 1); // the 6th update found the window full (one payload), the rest were cheap
    const held = outcomes.filter((o) => o.kind === 'held');
    expect(held.map((o) => o.update)).toEqual([6, 7, 8, 9, 10]);
    expect(held.map((o) => (o.kind === 'held' ? [o.until, o.count] : null))).toEqual([1, 2, 3, 4, 5].map((n) => [start + WINDOW, n]));
    clock.advance(WINDOW);
    expect(sent.map((s) => stateOf(s.payload))).toEqual(['s1', 's2', 's3', 's4', 's5', 's10']);
    expect(outcomes.at(-1)).toMatchObject({ connection_id: 'a', update: 10, kind: 'coalesced', count: 5, at: start + WINDOW });
  });

  it('a single held update is reported sent when it goes out', () => {
    const { set, outcomes, clock } = setup();
    for (let i = 1; i <= 6; i++) set('a', `s${i}`);
    clock.advance(WINDOW);
    expect(kinds(outcomes.slice(5))).toEqual(['a#6 held', 'a#6 sent']);
  });

  it('shadowed: a pinned app wins whenever it has an activity; the other game is told which app is shown', () => {
    const { set, clear, outcomes, settings, sent } = setup();
    settings.current = { ...DEFAULT_PRESENCE_SETTINGS, pinned_application_id: APP_B };
    set('b', 'pinned game');
    set('a', 'other game');
    expect(outcomes.at(-1)).toMatchObject({ connection_id: 'a', kind: 'shadowed', by_application_id: APP_B, by_connection_id: 'b' });
    expect(sent.map((s) => stateOf(s.payload))).toEqual(['pinned game']);
    // A clear of the shadowed game changes nothing the platform shows.
    clear('a');
    expect(outcomes.at(-1)).toMatchObject({ connection_id: 'a', cleared: true, kind: 'shadowed', by_application_id: APP_B });
    set('a', 'back');
    // The pinned game leaves: the other one is shown.
    clear('b');
    expect(outcomes.at(-1)).toMatchObject({ connection_id: 'b', cleared: true, kind: 'sent' });
    expect(stateOf(sent.at(-1)?.payload)).toBe('back');
  });

  it('first-connected: the game that connected first stays shown; most-recent: the latest update wins', () => {
    const { relay, set, outcomes, settings, clock } = setup();
    settings.current = { ...DEFAULT_PRESENCE_SETTINGS, policy: 'first-connected' };
    set('b', 'connected later', APP_B, { connectedAt: 2000 });
    set('a', 'connected first', APP_A, { connectedAt: 1000 });
    expect(stateOf(relay.current())).toBe('connected first');
    clock.advance(10);
    set('b', 'update from b', APP_B, { connectedAt: 2000 });
    expect(outcomes.at(-1)).toMatchObject({ connection_id: 'b', kind: 'shadowed', by_application_id: APP_A });
    settings.current = DEFAULT_PRESENCE_SETTINGS;
    relay.refresh();
    expect(stateOf(relay.current())).toBe('update from b');
  });

  it('hidden by an app rule or by hide-all; hide-all sends a clear and un-hiding restores the activity', () => {
    const { relay, set, outcomes, settings, sent } = setup();
    settings.current = { ...DEFAULT_PRESENCE_SETTINGS, rules: { [APP_A]: { mode: 'hide' } } };
    set('a', 'secret game');
    expect(outcomes.at(-1)).toMatchObject({ connection_id: 'a', kind: 'hidden', rule: 'app' });
    expect(sent).toHaveLength(0);
    set('b', 'public game');
    expect(stateOf(sent.at(-1)?.payload)).toBe('public game');

    settings.current = { ...settings.current, hide_all: true };
    relay.settingsChanged();
    expect(sent.at(-1)?.payload.activities).toEqual([]);
    // Each game's latest update is worked out again.
    expect(kinds(outcomes.slice(-2))).toEqual(['a#1 hidden', 'b#1 hidden']);
    set('b', 'still playing');
    expect(outcomes.at(-1)).toMatchObject({ connection_id: 'b', kind: 'hidden', rule: 'hide-all' });
    expect(sent.at(-1)?.payload.activities).toEqual([]);

    settings.current = DEFAULT_PRESENCE_SETTINGS;
    relay.settingsChanged();
    // Most recent among both, now that nothing is hidden.
    expect(stateOf(sent.at(-1)?.payload)).toBe('still playing');
    expect(outcomes.slice(-2)).toMatchObject([
      { connection_id: 'a', update: 1, kind: 'shadowed', by_application_id: APP_B },
      { connection_id: 'b', update: 2, kind: 'sent' },
    ]);
  });

  it('redact drops the named fields (party takes the secrets and join flags too)', () => {
    const { relay, settings } = setup();
    relay.activityChanged({
      connectionId: 'a',
      applicationId: APP_A,
      pid: 1,
      activity: activity({
        state: 'In a squad',
        details: 'Ranked',
        party: { id: 'party-1', size: [1, 4] },
        secrets: { join: 'join-secret-1' },
        assets: { large_image: 'logo', large_text: 'Level 5' },
        timestamps: { start: 1_700_000_000_000 },
        instance: true,
      }),
    });
    settings.current = { ...DEFAULT_PRESENCE_SETTINGS, rules: { [APP_A]: { mode: 'redact', fields: ['details', 'party', 'assets'] } } };
    const [shown] = relay.current().activities;
    expect(shown).toMatchObject({ state: 'In a squad', timestamps: { start: 1_700_000_000_000 }, instance: true, flags: 1 });
    expect(shown).not.toHaveProperty('details');
    expect(shown).not.toHaveProperty('party');
    expect(shown).not.toHaveProperty('secrets');
    expect(shown).not.toHaveProperty('assets');
  });

  it('rejected: a RATE_LIMITED about the update that carried it, then sent again after retry_after', () => {
    const { relay, set, outcomes, clock, sent } = setup();
    set('a', 'dropped by the platform');
    relay.rateLimited(3000);
    expect(outcomes.at(-1)).toMatchObject({ connection_id: 'a', update: 1, kind: 'rejected', reason: 'rate_limited', retry_after_ms: 3000 });
    clock.advance(3000);
    expect(sent).toHaveLength(2);
    expect(outcomes.at(-1)).toMatchObject({ connection_id: 'a', update: 1, kind: 'sent' });
    // An error dispatch: reported, not resent.
    relay.rejected('invalid_payload');
    expect(outcomes.at(-1)).toMatchObject({ kind: 'rejected', reason: 'invalid_payload', retry_after_ms: null });
    clock.advance(60_000);
    expect(sent).toHaveLength(2);
  });

  it('clear then close: both are reported, and nothing is shown', () => {
    const { relay, set, clear, outcomes, sent } = setup();
    set('a', 'playing');
    clear('a');
    relay.connectionClosed('a');
    relay.connectionClosed('a'); // reported once
    expect(kinds(outcomes)).toEqual(['a#1 sent', 'a#2 sent', 'a#3 unchanged']);
    expect(outcomes.map((o) => [o.cause, o.cleared])).toEqual([['command', false], ['command', true], ['disconnect', true]]);
    expect(sent.at(-1)?.payload.activities).toEqual([]);
  });

  it('a close with an activity is one cleared update (the disconnect change), not two', () => {
    const { relay, set, outcomes, sent } = setup();
    set('a', 'playing');
    relay.activityChanged({ connectionId: 'a', applicationId: APP_A, pid: 1, activity: null, cause: 'disconnect' });
    relay.connectionClosed('a');
    expect(kinds(outcomes)).toEqual(['a#1 sent', 'a#2 sent']);
    expect(outcomes[1]).toMatchObject({ cause: 'disconnect', cleared: true });
    expect(sent.at(-1)?.payload.activities).toEqual([]);
    // A connection that never set an activity has no updates to report.
    relay.connectionClosed('never-played');
    expect(outcomes).toHaveLength(2);
  });

  it('a burst of 10 updates in 5 s: each gets an outcome, the last state is relayed, the presence is never empty between', () => {
    const { set, outcomes, sent, clock } = setup();
    for (let i = 1; i <= 10; i++) {
      set('a', `update ${i}`);
      clock.advance(500);
    }
    clock.advance(WINDOW);
    for (let update = 1; update <= 10; update++) expect(outcomes.some((o) => o.update === update), `update ${update}`).toBe(true);
    expect(stateOf(sent.at(-1)?.payload)).toBe('update 10');
    expect(sent.every((s) => s.payload.activities.length === 1)).toBe(true);
    // Every held update was followed by its send.
    expect(outcomes.at(-1)).toMatchObject({ update: 10, kind: 'coalesced', count: 5 });
  });

  it('the shortcut for the default policy agrees with arbitration over every game (same-millisecond updates, a clock that steps back)', () => {
    const { relay, set, outcomes, settings } = setup();
    const clockNow = { at: 1_700_000_000_000 };
    // A clock the test moves freely, back as well (wall time can).
    const stepping = setup({ clock: { now: () => clockNow.at, setTimer: () => 0, clearTimer: () => undefined } });
    for (const [relayUnderTest, setter, log] of [
      [relay, set, outcomes],
      [stepping.relay, stepping.set, stepping.outcomes],
    ] as const) {
      fc.assert(
        fc.property(
          fc.array(fc.record({ connection: fc.constantFrom('a', 'b', 'c'), step: fc.integer({ min: -5, max: 5 }) }), { minLength: 1, maxLength: 40 }),
          (updates) => {
            for (const { connection, step } of updates) {
              clockNow.at += step;
              const before = log.length;
              setter(connection, `s${clockNow.at}`);
              const outcome = log[before];
              const expected = chooseShown(relayUnderTest.live(), settings.current);
              if (outcome?.kind === 'shadowed') expect(expected?.connectionId).not.toBe(connection);
              else expect(expected?.connectionId).toBe(connection);
            }
          },
        ),
        { numRuns: 100 },
      );
    }
  });

  it('a settings change re-announces the latest update without counting it as one more: a real update held after it is sent, not coalesced', () => {
    const { relay, set, outcomes, clock, settings } = setup();
    set('b', 'b0');
    for (let i = 1; i <= 5; i++) set('a', `a${i}`);
    set('a', 'a6'); // the window is full: held
    settings.current = { ...DEFAULT_PRESENCE_SETTINGS };
    relay.settingsChanged();
    expect(outcomes.filter((o) => o.connection_id === 'b').map((o) => o.kind)).toEqual(['sent', 'held']);
    set('b', 'b1'); // now the latest: held behind the same window
    clock.advance(20_000);
    const last = outcomes.filter((o) => o.connection_id === 'b').at(-1);
    expect(last).toMatchObject({ update: 2, kind: 'sent' });
  });

  it('no update is left held: after the flushes, each connection ends on a final outcome', () => {
    const step = fc.record({
      gap: fc.integer({ min: 0, max: 6_000 }),
      connection: fc.constantFrom('a', 'b', 'c'),
      action: fc.constantFrom('set', 'set', 'set', 'clear', 'close', 'connected', 'limited', 'settings'),
      state: fc.constantFrom('aa', 'bb'),
      settings: fc.constantFrom<PresenceSettings>(
        DEFAULT_PRESENCE_SETTINGS,
        { ...DEFAULT_PRESENCE_SETTINGS, policy: 'first-connected' },
        { ...DEFAULT_PRESENCE_SETTINGS, pinned_application_id: APP_B },
        { ...DEFAULT_PRESENCE_SETTINGS, rules: { [APP_A]: { mode: 'hide' } } },
        { ...DEFAULT_PRESENCE_SETTINGS, hide_all: true },
      ),
    });
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 120 }), (steps) => {
        const { relay, set, clear, outcomes, settings, clock, sent } = setup();
        const updates = new Map<string, number>();
        const closed = new Set<string>();
        for (const s of steps) {
          clock.advance(s.gap);
          const app = s.connection === 'b' ? APP_B : APP_A;
          if (s.action === 'connected') relay.connected();
          else if (s.action === 'limited') relay.rateLimited(1000);
          else if (s.action === 'settings') {
            settings.current = s.settings;
            relay.settingsChanged();
          } else if (closed.has(s.connection)) continue;
          else if (s.action === 'close') {
            closed.add(s.connection);
            relay.activityChanged({ connectionId: s.connection, applicationId: app, pid: 1, activity: null, cause: 'disconnect' });
            relay.connectionClosed(s.connection);
            updates.set(s.connection, (updates.get(s.connection) ?? 0) + 1);
          } else {
            if (s.action === 'clear') clear(s.connection, app);
            else set(s.connection, s.state, app);
            updates.set(s.connection, (updates.get(s.connection) ?? 0) + 1);
          }
        }
        clock.advance(120_000);
        for (const [connection, count] of updates) {
          const own = outcomes.filter((o) => o.connection_id === connection);
          for (let update = 1; update <= count; update++) expect(own.some((o) => o.update === update)).toBe(true);
          expect(own.at(-1)?.kind).not.toBe('held');
          expect(own.at(-1)?.kind).not.toBe('rejected');
        }
        const last = sent.at(-1)?.payload;
        if (last !== undefined) expect(last).toEqual(relay.current());
      }),
      { numRuns: 300 },
    );
  });
});

describe('RelayOutcomeLog', () => {
  const outcome = (connection: string, update: number, extra: Partial<RelayOutcome> = {}): RelayOutcome =>
    ({ connection_id: connection, application_id: APP_A, update, cause: 'command', cleared: false, at: update, kind: 'sent', ...extra }) as RelayOutcome;

  it('keeps the last outcome per connection and a bounded ring, oldest first', () => {
    const log = new RelayOutcomeLog(3);
    for (let i = 1; i <= 5; i++) log.record(outcome(i % 2 === 0 ? 'x' : 'y', i));
    expect(log.recent().map((o) => o.update)).toEqual([3, 4, 5]);
    expect(log.last('x')?.update).toBe(4);
    expect(log.last('y')?.update).toBe(5);
    log.forget('x');
    expect(log.last('x')).toBeNull();
  });

  it('folds a run of held outcomes of one connection with one deadline into its latest', () => {
    const log = new RelayOutcomeLog(10);
    log.record(outcome('x', 1));
    for (let i = 2; i <= 50; i++) log.record(outcome('x', i, { kind: 'held', until: 99, count: i - 1 } as Partial<RelayOutcome>));
    log.record(outcome('x', 50, { kind: 'coalesced', count: 49 } as Partial<RelayOutcome>));
    expect(log.recent().map((o) => `${o.update} ${o.kind}`)).toEqual(['1 sent', '50 held', '50 coalesced']);
  });
});
