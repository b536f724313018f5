import { parseSetVoiceSettingsArgs, RpcError } from '../../../../rpc/src/index.js';
import type { VoiceSettingsStore } from '../voice/voice-settings-store.js';
import { ControlError } from './control-backend.js';
import type { ControlRouteEntry } from './control-server.js';

/**
 * `GET /v1/voice/settings` (the voice settings object GET_VOICE_SETTINGS answers) and
 * `PATCH /v1/voice/settings` (the player's change: any subset, as SET_VOICE_SETTINGS takes;
 * answers the full settings). A change reaches the subscribed games as VOICE_SETTINGS_UPDATE.
 * A bad body is 400 with the same text a game gets.
 */
export function voiceRoutes(store: Pick<VoiceSettingsStore, 'settings' | 'update'>): ControlRouteEntry[] {
  return [
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
