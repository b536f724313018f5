import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeActivity, type ActivityInput, type GatewayActivity } from '../../../../rpc/src/index.js';
import type { PresenceUpdateCommand } from '../../../../platform/src/wire/index.js';
import { mostRecentlyUpdated, type LiveActivity } from '../../../src/host/presence/arbitration.js';
import { DEFAULT_PRESENCE_SETTINGS, type PresenceSettings } from '../../../src/host/presence/presence-privacy.js';
import { PresenceRelay, jsonEqual, type PresenceRelayOptions } from '../../../src/host/presence/presence-relay.js';
import { FakeClock } from './fake-clock.js';

const APP_A = '1234567890123456789';
const APP_B = '2234567890123456789';
const WINDOW = 20_000;

function activity(input: ActivityInput, applicationId = APP_A): GatewayActivity {
  return normalizeActivity(input, { applicationId, applicationName: 'Demo Game', transport: 'ipc', now: () => 1_700_000_000_000 });
}

interface Sent {
  readonly at: number;
  readonly payload: PresenceUpdateCommand;
}

function setup(overrides: Partial<PresenceRelayOptions> = {}) {
  const clock = new FakeClock();
  const sent: Sent[] = [];
  const state = { accept: true, attempts: 0 };
  const relay = new PresenceRelay({
    clock,
    marginMs: 0,
    send: (payload) => {
      state.attempts++;
      if (!state.accept) return false;
      sent.push({ at: clock.now(), payload });
      return true;
    },
    ...overrides,
  });
  return { clock, sent, state, relay };
}

/** Every sliding window of WINDOW ms holds at most `count` game-activity sends. */
function expectWithinLimit(sent: readonly Sent[], count = 5, windowMs = WINDOW): void {
  const times = sent.filter((s) => s.payload.activities.length > 0).map((s) => s.at);
  for (let i = 0; i + count < times.length; i++) {
    // The (i+count)th send after send i must be a full window later, else count+1 share a window.
    expect((times[i + count] as number) - (times[i] as number), `sends ${i}..${i + count}`).toBeGreaterThanOrEqual(windowMs);
  }
}

function stateOf(payload: PresenceUpdateCommand | undefined): string | undefined {
  return payload?.activities[0]?.state;
}

describe('PresenceRelay', () => {
  it('sends a single change at once, as op 3 with status online, since 0, afk false', () => {
    const { relay, sent } = setup();
    const events: PresenceUpdateCommand[] = [];
    relay.on('sent', (payload) => events.push(payload));
    relay.activityChanged({ connectionId: 'c1', applicationId: APP_A, pid: 42, activity: activity({ state: 'in menu' }) });
    expect(sent).toHaveLength(1);
    expect(sent[0]?.payload).toMatchObject({ since: 0, status: 'online', afk: false });
    expect(sent[0]?.payload.activities).toHaveLength(1);
    expect(sent[0]?.payload.activities[0]).toMatchObject({ state: 'in menu', application_id: APP_A, name: 'Demo Game' });
    expect(events).toEqual([sent[0]?.payload]);
    expect(relay.current()).toEqual(sent[0]?.payload);
  });

  it('coalesces 1,000 changes within a few seconds: at most 5 per 20 s window, the final state arrives last', () => {
    const { relay, sent, clock } = setup();
    for (let i = 0; i < 1000; i++) {
      relay.activityChanged({ connectionId: 'c1', applicationId: APP_A, pid: 1, activity: activity({ state: `step ${i}` }) });
      clock.advance(3); // 1,000 calls in 3 s
    }
    clock.advance(120_000);
    expectWithinLimit(sent);
    // 5 at once, then exactly one trailing flush: the intermediate states are skipped.
    expect(sent).toHaveLength(6);
    expect(sent.slice(0, 5).map((s) => stateOf(s.payload))).toEqual(['step 0', 'step 1', 'step 2', 'step 3', 'step 4']);
    const last = sent.at(-1);
    expect(stateOf(last?.payload)).toBe('step 999');
    expect(last?.at).toBe((sent[0]?.at as number) + WINDOW); // the earliest moment the window allows
    expect(last?.payload).toEqual(relay.current());
    expect(clock.pending).toBe(0);
  });

  it('keeps the limit and delivers the final state for any sequence of changes, clears and reconnects', () => {
    const step = fc.record({
      gap: fc.integer({ min: 0, max: 9_000 }),
      connection: fc.constantFrom('c1', 'c2', 'c3'),
      action: fc.constantFrom('set', 'set', 'set', 'clear', 'connected'),
      state: fc.constantFrom('aa', 'bb', 'cc'),
    });
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 150 }), (steps) => {
        const { relay, sent, clock } = setup();
        for (const s of steps) {
          clock.advance(s.gap);
          if (s.action === 'connected') relay.connected();
          else relay.activityChanged({
            connectionId: s.connection,
            applicationId: s.connection === 'c2' ? APP_B : APP_A,
            pid: 7,
            activity: s.action === 'clear' ? null : activity({ state: s.state }, s.connection === 'c2' ? APP_B : APP_A),
          });
        }
        clock.advance(60_000);
        expectWithinLimit(sent);
        // Nothing lost: what the platform got last is what it should show (or nothing was ever needed).
        const last = sent.at(-1)?.payload;
        if (last !== undefined) expect(last).toEqual(relay.current());
        else expect(relay.current().activities).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('skips a send when the wire state equals the last one sent', () => {
    const { relay, sent } = setup();
    const change = { connectionId: 'c1', applicationId: APP_A, pid: 1, activity: activity({ state: 'same' }) };
    relay.activityChanged(change);
    relay.activityChanged({ ...change, activity: activity({ state: 'same' }) });
    relay.activityChanged({ ...change, pid: 2, activity: activity({ state: 'same' }) });
    expect(sent).toHaveLength(1);
  });

  it('does not send an intermediate state that was reverted before the slot came', () => {
    const { relay, sent, clock } = setup();
    for (let i = 0; i < 5; i++) relay.activityChanged({ connectionId: 'c1', applicationId: APP_A, pid: 1, activity: activity({ state: `s${i}` }) });
    relay.activityChanged({ connectionId: 'c1', applicationId: APP_A, pid: 1, activity: activity({ state: 'later' }) });
    relay.activityChanged({ connectionId: 'c1', applicationId: APP_A, pid: 1, activity: activity({ state: 's4' }) });
    clock.advance(WINDOW * 2);
    expect(sent.map((s) => stateOf(s.payload))).toEqual(['s0', 's1', 's2', 's3', 's4']);
  });

  it('removes a disconnecting game: the next winner is shown, then nothing', () => {
    const { relay, sent, clock } = setup();
    relay.activityChanged({ connectionId: 'c1', applicationId: APP_A, pid: 1, activity: activity({ state: 'game A' }) });
    clock.advance(1000);
    relay.activityChanged({ connectionId: 'c2', applicationId: APP_B, pid: 2, activity: activity({ state: 'game B' }, APP_B) });
    expect(stateOf(sent.at(-1)?.payload)).toBe('game B');
    clock.advance(1000);
    relay.activityChanged({ connectionId: 'c2', applicationId: APP_B, pid: 2, activity: null });
    expect(sent.at(-1)?.payload.activities).toMatchObject([{ state: 'game A', application_id: APP_A }]);
    expect(relay.live().map((live) => live.connectionId)).toEqual(['c1']);
    clock.advance(1000);
    relay.activityChanged({ connectionId: 'c1', applicationId: APP_A, pid: 1, activity: null });
    expect(sent.at(-1)?.payload.activities).toEqual([]);
    expect(relay.live()).toEqual([]);
    expect(sent).toHaveLength(4);
  });

  it('sends a clear at once even when the game-activity window is full', () => {
    const { relay, sent } = setup();
    for (let i = 0; i < 5; i++) relay.activityChanged({ connectionId: 'c1', applicationId: APP_A, pid: 1, activity: activity({ state: `s${i}` }) });
    relay.activityChanged({ connectionId: 'c1', applicationId: APP_A, pid: 1, activity: null });
    expect(sent).toHaveLength(6);
    expect(sent.at(-1)?.payload.activities).toEqual([]);
  });

  it('shows the most recently updated game', () => {
    const { relay, clock } = setup();
    relay.activityChanged({ connectionId: 'c1', applicationId: APP_A, pid: 1, activity: activity({ state: 'one' }) });
    clock.advance(10);
    relay.activityChanged({ connectionId: 'c2', applicationId: APP_B, pid: 2, activity: activity({ state: 'two' }, APP_B) });
    clock.advance(10);
    relay.activityChanged({ connectionId: 'c1', applicationId: APP_A, pid: 1, activity: activity({ state: 'one again' }) });
    expect(relay.current().activities).toMatchObject([{ state: 'one again', application_id: APP_A }]);
  });

  it('uses an injected policy', () => {
    const { relay } = setup({ policy: (candidates) => candidates.find((c) => c.applicationId === APP_B) });
    relay.activityChanged({ connectionId: 'c2', applicationId: APP_B, pid: 2, activity: activity({ state: 'b' }, APP_B) });
    relay.activityChanged({ connectionId: 'c1', applicationId: APP_A, pid: 1, activity: activity({ state: 'a' }) });
    expect(relay.current().activities).toMatchObject([{ state: 'b' }]);
  });

  it('resends the current presence after connected(), at once when the window allows', () => {
    const { relay, sent } = setup();
    relay.activityChanged({ connectionId: 'c1', applicationId: APP_A, pid: 1, activity: activity({ state: 'playing' }) });
    relay.connected();
    expect(sent).toHaveLength(2);
    expect(sent[1]?.payload).toEqual(sent[0]?.payload);
  });

  it('resends after connected() at the next slot when the window is full', () => {
    const { relay, sent, clock } = setup();
    for (let i = 0; i < 5; i++) relay.activityChanged({ connectionId: 'c1', applicationId: APP_A, pid: 1, activity: activity({ state: `s${i}` }) });
    clock.advance(5000);
    relay.connected();
    expect(sent).toHaveLength(5);
    clock.advance(WINDOW - 5000 - 1);
    expect(sent).toHaveLength(5);
    clock.advance(1);
    expect(sent).toHaveLength(6);
    expect(stateOf(sent[5]?.payload)).toBe('s4');
  });

  it('delivers after send returned false once connected() is called', () => {
    const { relay, sent, state } = setup({ retryMs: 60_000 });
    state.accept = false;
    relay.activityChanged({ connectionId: 'c1', applicationId: APP_A, pid: 1, activity: activity({ state: 'offline start' }) });
    expect(state.attempts).toBe(1);
    expect(sent).toHaveLength(0);
    state.accept = true;
    relay.connected();
    expect(sent).toHaveLength(1);
    expect(stateOf(sent[0]?.payload)).toBe('offline start');
  });

  it('retries a refused send after retryMs without connected()', () => {
    const { relay, sent, state, clock } = setup({ retryMs: 1000 });
    state.accept = false;
    relay.activityChanged({ connectionId: 'c1', applicationId: APP_A, pid: 1, activity: activity({ state: 'x1' }) });
    clock.advance(1000);
    expect(state.attempts).toBe(2);
    state.accept = true;
    clock.advance(1000);
    expect(sent.map((s) => stateOf(s.payload))).toEqual(['x1']);
    clock.advance(10_000);
    expect(state.attempts).toBe(3); // no more retries once delivered
  });

  it('treats a throwing send as not sent and retries', () => {
    const clock = new FakeClock();
    let fail = true;
    const sent: PresenceUpdateCommand[] = [];
    const relay = new PresenceRelay({
      clock,
      retryMs: 500,
      send: (payload) => {
        if (fail) throw new Error('socket gone');
        sent.push(payload);
        return true;
      },
    });
    expect(() => relay.activityChanged({ connectionId: 'c1', applicationId: APP_A, pid: 1, activity: activity({ state: 'x' }) })).not.toThrow();
    fail = false;
    clock.advance(500);
    expect(sent.map((payload) => stateOf(payload))).toEqual(['x']);
  });

  it('after RATE_LIMITED, waits retry_after and sends the current state again', () => {
    const { relay, sent, clock } = setup();
    relay.activityChanged({ connectionId: 'c1', applicationId: APP_A, pid: 1, activity: activity({ state: 'dropped' }) });
    relay.rateLimited(3000);
    expect(sent).toHaveLength(1);
    clock.advance(2999);
    expect(sent).toHaveLength(1);
    clock.advance(1);
    expect(sent).toHaveLength(2);
    expect(stateOf(sent[1]?.payload)).toBe('dropped');
  });

  it('keeps a safety margin beyond the window by default', () => {
    const { relay, sent, clock } = setup({ marginMs: 250 });
    for (let i = 0; i < 6; i++) relay.activityChanged({ connectionId: 'c1', applicationId: APP_A, pid: 1, activity: activity({ state: `s${i}` }) });
    clock.advance(WINDOW);
    expect(sent).toHaveLength(5);
    clock.advance(250);
    expect(sent).toHaveLength(6);
  });

  it('honours a custom limit and the status callback', () => {
    let status: 'online' | 'idle' = 'online';
    const { relay, sent, clock } = setup({ limit: { count: 2, windowMs: 1000 }, status: () => status });
    for (let i = 0; i < 10; i++) relay.activityChanged({ connectionId: 'c1', applicationId: APP_A, pid: 1, activity: activity({ state: `s${i}` }) });
    expect(sent).toHaveLength(2);
    clock.advance(1000);
    expect(sent).toHaveLength(3);
    expectWithinLimit(sent, 2, 1000);
    clock.advance(1000);
    status = 'idle';
    relay.refresh();
    expect(sent.at(-1)?.payload.status).toBe('idle');
  });

  it('sets created_at when the game activity began and keeps it across updates', () => {
    const { relay, clock } = setup();
    const start = clock.now();
    relay.activityChanged({ connectionId: 'c1', applicationId: APP_A, pid: 1, activity: activity({ state: 'one' }) });
    clock.advance(5000);
    relay.activityChanged({ connectionId: 'c1', applicationId: APP_A, pid: 1, activity: activity({ state: 'two' }) });
    expect(relay.current().activities[0]?.created_at).toBe(start);
    relay.activityChanged({ connectionId: 'c1', applicationId: APP_A, pid: 1, activity: null });
    relay.activityChanged({ connectionId: 'c1', applicationId: APP_A, pid: 1, activity: activity({ state: 'three' }) });
    expect(relay.current().activities[0]?.created_at).toBe(start + 5000);
  });

  it('sends nothing and schedules nothing after dispose()', () => {
    const { relay, sent, clock } = setup();
    for (let i = 0; i < 6; i++) relay.activityChanged({ connectionId: 'c1', applicationId: APP_A, pid: 1, activity: activity({ state: `s${i}` }) });
    relay.dispose();
    clock.advance(WINDOW * 2);
    relay.connected();
    expect(sent).toHaveLength(5);
    expect(clock.pending).toBe(0);
  });

  it('refuses a limit without room', () => {
    expect(() => setup({ limit: { count: 0, windowMs: 1000 } })).toThrow(RangeError);
  });
});

describe('mostRecentlyUpdated', () => {
  const live = (connectionId: string, updatedAt: number): LiveActivity => ({
    connectionId,
    applicationId: APP_A,
    activity: activity({ state: connectionId }),
    updatedAt,
    pid: null,
  });

  it('picks the latest update, the later connection on a tie, and nothing from nothing', () => {
    expect(mostRecentlyUpdated([live('a', 5), live('b', 9), live('c', 7)])?.connectionId).toBe('b');
    expect(mostRecentlyUpdated([live('a', 9), live('b', 9), live('c', 7)])?.connectionId).toBe('b');
    expect(mostRecentlyUpdated([])).toBeUndefined();
  });
});

describe('jsonEqual', () => {
  it('compares deeply, ignoring key order and undefined members', () => {
    expect(jsonEqual({ a: [1, { b: 2 }], c: undefined }, { a: [1, { b: 2 }] })).toBe(true);
    expect(jsonEqual({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(true);
    expect(jsonEqual({ a: [1, 2] }, { a: [2, 1] })).toBe(false);
    expect(jsonEqual({ a: 1 }, { b: 1 })).toBe(false);
    expect(jsonEqual([1], { 0: 1 })).toBe(false);
  });
});

describe('PresenceRelay.sharedActivityOf: the preview of what friends see', () => {
  const game = activity({ state: 'In a match', details: 'Ranked', party: { id: 'p1', size: [1, 4] }, buttons: [{ label: 'Watch', url: 'https://example.com/w' }] });

  it('is the activity the relay sends for the game, under share, redact and hide', () => {
    let settings: PresenceSettings = DEFAULT_PRESENCE_SETTINGS;
    const { relay, sent, clock } = setup({ settings: () => settings });
    relay.activityChanged({ connectionId: 'c1', applicationId: APP_A, pid: 42, activity: game });
    expect(relay.sharedActivityOf('c1')).toEqual(sent.at(-1)?.payload.activities[0]);

    settings = { ...settings, rules: { [APP_A]: { mode: 'redact', fields: ['details', 'state', 'buttons'] } } };
    relay.settingsChanged();
    clock.advance(WINDOW);
    const redacted = relay.sharedActivityOf('c1');
    expect(redacted).toEqual(sent.at(-1)?.payload.activities[0]);
    expect(redacted).not.toHaveProperty('state');
    expect(redacted).not.toHaveProperty('details');
    expect(redacted).toHaveProperty('party');

    settings = { ...settings, rules: { [APP_A]: { mode: 'hide' } } };
    relay.settingsChanged();
    clock.advance(WINDOW);
    expect(sent.at(-1)?.payload.activities).toEqual([]);
    expect(relay.sharedActivityOf('c1')).toBeNull();
    settings = { ...DEFAULT_PRESENCE_SETTINGS, hide_all: true };
    expect(relay.sharedActivityOf('c1')).toBeNull();
  });

  it('is null for a game without an activity or unknown', () => {
    const { relay } = setup();
    expect(relay.sharedActivityOf('c9')).toBeNull();
    relay.activityChanged({ connectionId: 'c1', applicationId: APP_A, pid: 42, activity: game });
    relay.activityChanged({ connectionId: 'c1', applicationId: APP_A, pid: 42, activity: null });
    expect(relay.sharedActivityOf('c1')).toBeNull();
  });
});
