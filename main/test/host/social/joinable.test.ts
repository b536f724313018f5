import { describe, expect, it } from 'vitest';
import type { GatewayActivity } from '../../../../rpc/src/index.js';
import { isJoinable } from '../../../src/host/social/joinable.js';

const APP = '1234567890123456789';

function activity(overrides: Partial<GatewayActivity> = {}): GatewayActivity {
  return {
    name: 'Demo Game',
    type: 0,
    application_id: APP,
    platform: 'desktop',
    metadata: {},
    party: { id: 'party-1', size: [1, 4] },
    secrets: { join: 'join-secret' },
    ...overrides,
  };
}

function without(key: 'party' | 'secrets'): GatewayActivity {
  const copy: Partial<GatewayActivity> = { ...activity() };
  delete copy[key];
  return copy as GatewayActivity;
}

describe('isJoinable', () => {
  const joinable: readonly (readonly [string, GatewayActivity])[] = [
    ['a party id, a free slot and a join secret', activity()],
    ['one slot left', activity({ party: { id: 'party-1', size: [3, 4] } })],
    ['a max of 0 (no limit shown)', activity({ party: { id: 'party-1', size: [12, 0] } })],
    ['a max of 0 with nobody in yet', activity({ party: { id: 'party-1', size: [0, 0] } })],
    ['a join secret alongside others', activity({ secrets: { join: 'j', spectate: 's', match: 'm' } })],
  ];

  it.each(joinable)('is joinable with %s', (_label, value) => {
    expect(isJoinable(value)).toBe(true);
  });

  const notJoinable: readonly (readonly [string, GatewayActivity | null | undefined])[] = [
    ['null', null],
    ['undefined', undefined],
    ['no party', without('party')],
    ['no party id', activity({ party: { size: [1, 4] } })],
    ['an empty party id', activity({ party: { id: '', size: [1, 4] } })],
    ['no secrets', without('secrets')],
    ['no join secret', activity({ secrets: { spectate: 'spectate-secret' } })],
    ['an empty join secret', activity({ secrets: { join: '' } })],
    ['no party size', activity({ party: { id: 'party-1' } })],
    ['a party size with one number', activity({ party: { id: 'party-1', size: [1] } })],
    ['a full party', activity({ party: { id: 'party-1', size: [4, 4] } })],
    ['an overfull party', activity({ party: { id: 'party-1', size: [5, 4] } })],
  ];

  it.each(notJoinable)('is not joinable with %s', (_label, value) => {
    expect(isJoinable(value)).toBe(false);
  });
});
