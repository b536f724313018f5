import { describe, expect, it } from 'vitest';
import type { PresenceUpdateCommand, WireActivity } from '../../../../platform/src/wire/index.js';
import { fitPresence, MAX_GATEWAY_PAYLOAD_BYTES } from '../../../src/host/presence/fit-presence.js';

const url = (n: number): string => `https://example.com/${'p'.repeat(n - 20)}`;
const text = (n: number, char = 'x'): string => char.repeat(n);

/** Every field at its RPC limit: valid for SET_ACTIVITY, far too big for one gateway payload. */
function largest(char = 'x'): WireActivity {
  return {
    name: text(128, char),
    type: 0,
    application_id: '1234567890123456789',
    created_at: 1_700_000_000_000,
    details: text(128, char),
    state: text(128, char),
    details_url: url(256),
    state_url: url(256),
    timestamps: { start: 1_700_000_000_000, end: 1_700_000_360_000 },
    assets: {
      large_image: text(300),
      large_text: text(128, char),
      large_url: url(256),
      small_image: text(300),
      small_text: text(128, char),
      small_url: url(256),
      invite_cover_image: text(300),
    },
    party: { id: text(128), size: [1, 4] },
    secrets: { join: `j${text(127)}`, spectate: `s${text(127)}`, match: `m${text(127)}` },
    buttons: [
      { label: text(32, char), url: url(512) },
      { label: text(32, char), url: url(512) },
    ],
    supported_platforms: Array.from({ length: 10 }, () => text(32)),
  };
}

const presence = (activity: WireActivity): PresenceUpdateCommand => ({ since: 0, activities: [activity], status: 'online', afk: false });
const bytes = (payload: PresenceUpdateCommand): number => Buffer.byteLength(JSON.stringify({ op: 3, d: payload }));

describe('fitPresence', () => {
  it('leaves a presence that fits untouched (the same object)', () => {
    const payload = presence({ name: 'Game', type: 0, state: 'In a match', party: { id: 'p', size: [1, 4] }, secrets: { join: 'j' } });
    const fitted = fitPresence(payload);
    expect(fitted.payload).toBe(payload);
    expect(fitted.dropped).toEqual([]);
  });

  it('trims the largest valid activity into one gateway payload, keeping the name, party and secrets', () => {
    const payload = presence(largest());
    expect(bytes(payload)).toBeGreaterThan(MAX_GATEWAY_PAYLOAD_BYTES);
    const { payload: fitted, dropped } = fitPresence(payload);
    expect(bytes(fitted)).toBeLessThanOrEqual(MAX_GATEWAY_PAYLOAD_BYTES);
    expect(dropped[0]).toBe('supported_platforms');
    const [activity] = fitted.activities;
    expect(activity).toMatchObject({ name: text(128), party: { id: text(128), size: [1, 4] }, secrets: largest().secrets, timestamps: largest().timestamps });
    expect(activity!.supported_platforms).toBeUndefined();
    // Only as much as needed: with ASCII text the details and state survive.
    expect(activity!.state).toBe(text(128));
    expect(payload.activities[0]!.supported_platforms).toHaveLength(10); // the input is not changed
  });

  it('still fits when every text is three-byte UTF-8, by dropping details and state last', () => {
    const { payload: fitted, dropped } = fitPresence(presence(largest('한')));
    expect(bytes(fitted)).toBeLessThanOrEqual(MAX_GATEWAY_PAYLOAD_BYTES);
    expect(fitted.activities[0]!.secrets).toEqual(largest().secrets);
    expect(dropped.length).toBeGreaterThan(1);
  });
});
