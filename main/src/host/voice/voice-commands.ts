import { parseSetVoiceSettingsArgs, type RpcServer, type VoiceSettings } from '../../../../rpc/src/index.js';
import type { VoiceSettingsChanger, VoiceSettingsStore } from './voice-settings-store.js';

export const VOICE_SETTINGS_UPDATE = 'VOICE_SETTINGS_UPDATE';

/**
 * GET_VOICE_SETTINGS and SET_VOICE_SETTINGS over the player's voice settings, and
 * VOICE_SETTINGS_UPDATE to every subscribed game whenever they change (from a game or from the
 * player). The RPC core has checked the scopes (rpc or rpc.voice.read / rpc.voice.write) first.
 * Returns a function that stops the dispatch.
 */
export function installVoiceSettingsCommands(server: Pick<RpcServer, 'setCommandHandler' | 'dispatch'>, store: VoiceSettingsStore): () => void {
  server.setCommandHandler('GET_VOICE_SETTINGS', () => store.settings);
  server.setCommandHandler('SET_VOICE_SETTINGS', ({ connection, request }) =>
    store.update(parseSetVoiceSettingsArgs(request.args), { kind: 'rpc', connectionId: connection.id }),
  );
  const onChange = (settings: VoiceSettings, _by: VoiceSettingsChanger): void => {
    server.dispatch(VOICE_SETTINGS_UPDATE, settings);
  };
  store.on('change', onChange);
  return () => store.off('change', onChange);
}
