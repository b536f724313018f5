import type { RpcServer } from '../../../../rpc/src/index.js';
import { installVoiceSettingsCommands } from '../voice/voice-commands.js';
import { VoiceSettingsStore } from '../voice/voice-settings-store.js';
import type { HostOptions } from './host-options.js';
import type { Teardown } from './teardown.js';

/** The player's voice settings (`voice-settings.json`) and the voice RPC commands over them. */
export interface VoiceSide {
  readonly store: VoiceSettingsStore;
  readonly warning: string | null;
}

export async function startVoiceSide(options: HostOptions, server: RpcServer, teardown: Teardown): Promise<VoiceSide> {
  const { store, warning } = await VoiceSettingsStore.load(options.dataDir, { logger: options.logger });
  teardown.add(() => store.flush());
  const stop = installVoiceSettingsCommands(server, store);
  teardown.add(() => stop());
  return { store, warning };
}
