import { describe, expect, it } from 'vitest';
import { getDefaultCommunicationScopes, getDefaultPresenceScopes } from '../../client/scopes.js';
import { loadOAuthWire } from './support/platform.js';

describe('default scopes', () => {
  it('are the seed\'s sets', () => {
    expect(getDefaultCommunicationScopes()).toBe('openid sdk.social_layer');
    expect(getDefaultPresenceScopes()).toBe('openid sdk.social_layer_presence');
  });

  it('equal the platform\'s DEFAULT_COMMUNICATION_SCOPES and DEFAULT_PRESENCE_SCOPES', async () => {
    const wire = await loadOAuthWire();
    expect(getDefaultCommunicationScopes()).toBe(wire.DEFAULT_COMMUNICATION_SCOPES.join(' '));
    expect(getDefaultPresenceScopes()).toBe(wire.DEFAULT_PRESENCE_SCOPES.join(' '));
  });
});
