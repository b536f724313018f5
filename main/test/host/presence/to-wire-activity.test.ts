import { describe, expect, it } from 'vitest';
import { normalizeActivity, type ActivityInput, type GatewayActivity } from '../../../../rpc/src/index.js';
import { toWireActivity } from '../../../src/host/presence/to-wire-activity.js';
import { PresenceRelay } from '../../../src/host/presence/presence-relay.js';
import type { PresenceUpdateCommand } from '../../../../platform/src/wire/index.js';
import { FakeClock } from './fake-clock.js';

const APP = '1234567890123456789';
const NOW = 1_700_000_000_000;

function normalized(input: ActivityInput): GatewayActivity {
  return normalizeActivity(input, { applicationId: APP, applicationName: 'Demo Game', transport: 'ipc', now: () => NOW });
}

describe('toWireActivity', () => {
  it('maps a full activity with party, secrets, assets and timestamps field by field', () => {
    const wire = toWireActivity(
      normalized({
        name: 'Custom Name',
        type: 0,
        status_display_type: 1,
        state: 'In a group',
        state_url: 'https://example.com/state',
        details: 'Ranked',
        details_url: 'https://example.com/details',
        timestamps: { start: 1_700_000_000, end: 1_700_000_600_000 },
        assets: {
          large_image: 'logo',
          large_text: 'Big',
          large_url: 'https://example.com/large',
          small_image: 'cover',
          small_text: 'Small',
          small_url: 'https://example.com/small',
          invite_cover_image: 'invite',
        },
        party: { id: 'party-1', size: [2, 4], privacy: 1 },
        secrets: { join: 'join-secret', spectate: 'spectate-secret', match: 'match-secret' },
        instance: true,
        supported_platforms: ['desktop', 'android'],
      }),
      APP,
      NOW - 5000,
    );
    expect(wire).toEqual({
      name: 'Custom Name',
      type: 0,
      application_id: APP,
      created_at: NOW - 5000,
      status_display_type: 1,
      state: 'In a group',
      state_url: 'https://example.com/state',
      details: 'Ranked',
      details_url: 'https://example.com/details',
      // Seconds were turned into milliseconds by the RPC normaliser; kept as they are.
      timestamps: { start: 1_700_000_000_000, end: 1_700_000_600_000 },
      assets: {
        large_image: 'logo',
        large_text: 'Big',
        large_url: 'https://example.com/large',
        small_image: 'cover',
        small_text: 'Small',
        small_url: 'https://example.com/small',
        invite_cover_image: 'invite',
      },
      party: { id: 'party-1', size: [2, 4], privacy: 1 },
      // Secrets stay in op 3: the platform strips them when it fans out.
      secrets: { join: 'join-secret', spectate: 'spectate-secret', match: 'match-secret' },
      instance: true,
      // Instance | Join | Spectate | PartyPrivacyFriends | PartyPrivacyVoiceChannel
      flags: 1 | 2 | 4 | 64 | 128,
      supported_platforms: ['desktop', 'android'],
    });
    expect(wire).not.toHaveProperty('platform');
    expect(wire).not.toHaveProperty('metadata');
  });

  it('sends buttons as {label, url} and leaves metadata out', () => {
    const wire = toWireActivity(
      normalized({ buttons: [{ label: 'Watch', url: 'https://example.com/w' }, { label: 'Site', url: 'https://example.com/' }] }),
      APP,
    );
    expect(wire.buttons).toEqual([{ label: 'Watch', url: 'https://example.com/w' }, { label: 'Site', url: 'https://example.com/' }]);
    expect(wire).not.toHaveProperty('metadata');
    expect(wire).not.toHaveProperty('created_at');
  });

  it('maps a minimal activity to name, type and application only; a private party has no privacy', () => {
    expect(toWireActivity(normalized({}), APP)).toEqual({ name: 'Demo Game', type: 0, application_id: APP });
    const wire = toWireActivity(normalized({ party: { id: 'p1' } }), APP);
    expect(wire.party).toEqual({ id: 'p1' });
    expect(wire).not.toHaveProperty('flags');
  });

  it('keeps a created_at the activity already carries', () => {
    const withCreatedAt = { ...normalized({}), created_at: 42 } as GatewayActivity;
    expect(toWireActivity(withCreatedAt, APP, 99).created_at).toBe(42);
  });

  it('does not share arrays with the RPC activity', () => {
    const source = normalized({ party: { id: 'p1', size: [1, 2] }, supported_platforms: ['desktop'] });
    const wire = toWireActivity(source, APP);
    source.party?.size?.splice(0, 2, 9, 9);
    source.supported_platforms?.push('ios');
    expect(wire.party?.size).toEqual([1, 2]);
    expect(wire.supported_platforms).toEqual(['desktop']);
  });

  it('is what the relay puts in op 3, secrets included', () => {
    const clock = new FakeClock(NOW);
    const sent: PresenceUpdateCommand[] = [];
    const relay = new PresenceRelay({ clock, send: (payload) => sent.push(payload) > 0 });
    const source = normalized({ party: { id: 'p1', size: [1, 4] }, secrets: { join: 'jj-secret' } });
    relay.activityChanged({ connectionId: 'c1', applicationId: APP, pid: 1, activity: source });
    expect(sent[0]?.activities).toEqual([toWireActivity(source, APP, NOW)]);
    expect(sent[0]?.activities[0]?.secrets).toEqual({ join: 'jj-secret' });
  });
});
