import { parseSetVoiceSettingsArgs, type RpcConnection, type RpcServer, type VoiceSettings } from '../../../../rpc/src/index.js';
import { VoiceSettingsLease } from './voice-settings-lease.js';
import type { VoiceSettingsChanger, VoiceSettingsStore } from './voice-settings-store.js';

export const VOICE_SETTINGS_UPDATE = 'VOICE_SETTINGS_UPDATE';

/**
 * GET_VOICE_SETTINGS and SET_VOICE_SETTINGS over the player's voice settings, and
 * VOICE_SETTINGS_UPDATE to every subscribed game whenever they change (from a game or from the
 * player). One application at a time may change them (see VoiceSettingsLease). The RPC core
 * has checked the scopes (rpc or rpc.voice.read / rpc.voice.write) first. Returns a function
 * that stops the dispatch and the lease.
 */
export function installVoiceSettingsCommands(server: Pick<RpcServer, 'setCommandHandler' | 'dispatch' | 'on' | 'off'>, store: VoiceSettingsStore): () => void {
  const lease = new VoiceSettingsLease(store);
  server.setCommandHandler('GET_VOICE_SETTINGS', () => store.settings);
  server.setCommandHandler('SET_VOICE_SETTINGS', ({ connection, request }) => lease.set(connection.id, parseSetVoiceSettingsArgs(request.args)));
  const onChange = (settings: VoiceSettings, _by: VoiceSettingsChanger): void => {
    server.dispatch(VOICE_SETTINGS_UPDATE, settings);
  };
  const onDisconnect = (connection: RpcConnection): void => lease.disconnected(connection);
  store.on('change', onChange);
  server.on('disconnect', onDisconnect);
  return () => {
    store.off('change', onChange);
    server.off('disconnect', onDisconnect);
    lease.dispose();
  };
}
