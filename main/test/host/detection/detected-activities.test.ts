import { describe, expect, it } from 'vitest';
import { PresenceRelay } from '../../../src/host/presence/presence-relay.js';
import { DEFAULT_PRESENCE_SETTINGS, type PresenceSettings } from '../../../src/host/presence/presence-privacy.js';
import type { PresenceUpdateCommand } from '../../../../platform/src/wire/index.js';
import type { GatewayActivity } from '../../../../rpc/src/index.js';
import { DetectedActivities } from '../../../src/host/detection/detected-activities.js';
import type { DetectedGame } from '../../../src/host/detection/game-detector.js';
import { FakeClock } from '../presence/fake-clock.js';

const GAME: DetectedGame = { applicationId: '100', name: 'Native Game', executable: 'nativegame', path: '/games/nativegame', pid: 42, pids: [42], startedAt: 1_700_000_000_000 };
const OTHER: DetectedGame = { ...GAME, applicationId: '200', name: 'Other Game', pid: 43, pids: [43] };

/** A real relay on a simulated clock; what it sent is what friends would see. */
function setUp(settings: PresenceSettings = DEFAULT_PRESENCE_SETTINGS): { relay: PresenceRelay; sent: PresenceUpdateCommand[]; switches: { enabled: boolean; excluded: Set<string> }; activities: DetectedActivities } {
  const sent: PresenceUpdateCommand[] = [];
  const relay = new PresenceRelay({ send: (payload) => (sent.push(payload), true), clock: new FakeClock(), settings: () => settings, limit: { count: 100, windowMs: 1000 } });
  const switches = { enabled: true, excluded: new Set<string>() };
  const activities = new DetectedActivities({ relay, enabled: () => switches.enabled, excluded: (id) => switches.excluded.has(id) });
  return { relay, sent, switches, activities };
}

const shownNames = (sent: readonly PresenceUpdateCommand[]): string[] => (sent.at(-1)?.activities ?? []).map((activity) => activity.name);

function rpcActivity(applicationId: string, details: string): GatewayActivity {
  return { name: 'Native Game', type: 0, application_id: applicationId, platform: 'desktop', details, metadata: {} };
}

describe('issue 30 §2 wiring: detected games as relay activities', () => {
  it('a detected game is "Playing <name>" since it was seen, under detected:<id>; it goes when it ends', () => {
    const { relay, sent, activities } = setUp();
    activities.started(GAME);
    expect(relay.live().map((live) => live.connectionId)).toEqual(['detected:100']);
    expect(sent.at(-1)?.activities).toEqual([expect.objectContaining({ name: 'Native Game', type: 0, application_id: '100', timestamps: { start: GAME.startedAt } })]);
    activities.ended(GAME);
    expect(relay.live()).toEqual([]);
    expect(sent.at(-1)?.activities).toEqual([]);
  });

  it('the game\'s own RPC activity wins: the detected one steps aside while it lasts and comes back after', () => {
    const { relay, sent, activities } = setUp();
    activities.started(GAME);
    relay.activityChanged({ connectionId: 'c1', applicationId: '100', pid: 42, activity: rpcActivity('100', 'In a match') });
    activities.rpcChanged('100');
    expect(relay.live().map((live) => live.connectionId)).toEqual(['c1']);
    expect(activities.showing('100')).toBe('rpc');
    expect(sent.at(-1)?.activities).toEqual([expect.objectContaining({ details: 'In a match' })]);
    relay.activityChanged({ connectionId: 'c1', applicationId: '100', pid: 42, activity: null, cause: 'disconnect' });
    activities.rpcChanged('100');
    expect(relay.live().map((live) => live.connectionId)).toEqual(['detected:100']);
    expect(sent.at(-1)?.activities).toEqual([expect.not.objectContaining({ details: expect.anything() })]);
  });

  it('another game\'s RPC activity does not take a detected game out (arbitration chooses between them)', () => {
    const { relay, activities } = setUp();
    activities.started(GAME);
    relay.activityChanged({ connectionId: 'c2', applicationId: '200', pid: 50, activity: rpcActivity('200', 'Elsewhere') });
    activities.rpcChanged('200');
    expect(relay.live().map((live) => live.connectionId).sort()).toEqual(['c2', 'detected:100']);
  });

  it('a game switched off, or every game with the global switch, never reaches the relay; switched on, it does', () => {
    const { relay, sent, switches, activities } = setUp();
    switches.excluded.add('100');
    activities.started(GAME);
    activities.started(OTHER);
    expect(relay.live().map((live) => live.connectionId)).toEqual(['detected:200']);
    expect(activities.showing('100')).toBe('excluded');
    switches.enabled = false;
    activities.settingsChanged();
    expect(relay.live()).toEqual([]);
    expect(activities.showing('200')).toBe('off');
    switches.enabled = true;
    switches.excluded.clear();
    activities.settingsChanged();
    expect(relay.live().map((live) => live.connectionId).sort()).toEqual(['detected:100', 'detected:200']);
    expect(shownNames(sent)).toHaveLength(1);
  });

  it('the privacy rules of RPC activities apply: a hidden app is never sent, a redacted one loses its fields', () => {
    const hidden = setUp({ ...DEFAULT_PRESENCE_SETTINGS, rules: { '100': { mode: 'hide' } } });
    hidden.activities.started(GAME);
    expect(hidden.sent.flatMap((payload) => payload.activities)).toEqual([]);
    const redacted = setUp({ ...DEFAULT_PRESENCE_SETTINGS, rules: { '100': { mode: 'redact', fields: ['timestamps'] } } });
    redacted.activities.started(GAME);
    expect(redacted.sent.at(-1)?.activities).toEqual([expect.objectContaining({ name: 'Native Game' })]);
    expect(redacted.sent.at(-1)?.activities[0]?.timestamps).toBeUndefined();
  });

  it('clear() takes every detected activity out (detection stops)', () => {
    const { relay, activities } = setUp();
    activities.started(GAME);
    activities.started(OTHER);
    activities.clear();
    expect(relay.live()).toEqual([]);
  });
});
