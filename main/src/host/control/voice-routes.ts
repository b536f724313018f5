import { parseSetVoiceSettingsArgs, RpcError } from '../../../../rpc/src/index.js';
import type { VoiceSettingsStore } from '../voice/voice-settings-store.js';
import type { VoicePanel } from '../voice/voice-panel.js';
import { ControlError } from './control-backend.js';
import type { ControlRouteEntry } from './control-server.js';

const VOICE_PATCH_KEYS = new Set(['mute', 'deaf']);

/** `PATCH /v1/voice`'s body: `{mute?, deaf?}` booleans, nothing else. */
function voicePatch(body: unknown): { mute?: boolean; deaf?: boolean } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new ControlError(400, 'the body must be an object {mute?, deaf?}', 'invalid_request');
  const entries = Object.entries(body as Record<string, unknown>);
  for (const [key, value] of entries) {
    if (!VOICE_PATCH_KEYS.has(key)) throw new ControlError(400, `unknown field '${key}' (only mute and deaf)`, 'invalid_request');
    if (typeof value !== 'boolean') throw new ControlError(400, `'${key}' must be a boolean`, 'invalid_request');
  }
  return Object.fromEntries(entries) as { mute?: boolean; deaf?: boolean };
}

/**
 * `GET /v1/voice`: the player's voice channel (null: none), who is in it and who speaks, and their
 * mute and deafen (the host's voice connection is audio-less: `audio: false`); `PATCH /v1/voice`
 * `{mute?, deaf?}`: the player mutes or deafens (the voice settings).
 *
 * `GET /v1/voice/settings` (the voice settings object GET_VOICE_SETTINGS answers) and
 * `PATCH /v1/voice/settings` (the player's change: any subset, as SET_VOICE_SETTINGS takes;
 * answers the full settings). A change reaches the subscribed games as VOICE_SETTINGS_UPDATE.
 * A bad body is 400 with the same text a game gets.
 */
export function voiceRoutes(store: Pick<VoiceSettingsStore, 'settings' | 'update'>, panel: Pick<VoicePanel, 'view' | 'set'>): ControlRouteEntry[] {
  return [
    ['GET', '/v1/voice', async () => panel.view()],
    ['PATCH', '/v1/voice', async ({ body }) => panel.set(voicePatch(body))],
    ['GET', '/v1/voice/settings', async () => store.settings],
    ['PATCH', '/v1/voice/settings', async ({ body }) => {
      try {
        return store.update(parseSetVoiceSettingsArgs(body), { kind: 'player' });
      } catch (error) {
        if (error instanceof RpcError) throw new ControlError(400, error.message, 'invalid_request');
        throw error;
      }
    }],
  ];
}
