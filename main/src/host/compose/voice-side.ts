import type { RpcServer } from '../../../../rpc/src/index.js';
import type { GuildSource } from '../guilds/guild-source.js';
import type { KnownUsers } from '../presence/known-users.js';
import type { PlatformSession } from '../session/platform-session.js';
import type { OpenInCompanion } from '../social/open-in-companion.js';
import { PlayerVoice } from '../voice/player-voice.js';
import { installVoiceChannelCommands } from '../voice/voice-channel-commands.js';
import { VoiceChannelBook } from '../voice/voice-channel-book.js';
import { installVoiceSettingsCommands } from '../voice/voice-commands.js';
import { installVoiceEvents } from '../voice/voice-rpc-events.js';
import { VoicePanel } from '../voice/voice-panel.js';
import { VoiceSettingsStore } from '../voice/voice-settings-store.js';
import type { HostOptions } from './host-options.js';
import type { Teardown } from './teardown.js';

/** The player's voice settings (`voice-settings.json`), their voice channel, and the voice RPC commands and events over them. */
export interface VoiceSide {
  readonly store: VoiceSettingsStore;
  readonly warning: string | null;
  /** Who is in which voice channel of the player's servers, and who speaks. */
  readonly book: VoiceChannelBook;
  /** The player's own voice channel (audio-less: state only). */
  readonly player: PlayerVoice;
  /** What Companion shows of it and the player's mute and deafen (UI, control API). */
  readonly panel: VoicePanel;
}

export interface VoiceSideParts {
  readonly server: RpcServer;
  readonly session: PlatformSession;
  readonly channels: Pick<GuildSource, 'channel'>;
  readonly users: Pick<KnownUsers, 'get'>;
  readonly opens: Pick<OpenInCompanion, 'show'>;
  /** The platform's URL: its host names the voice connection. */
  readonly platformUrl: string;
}

export async function startVoiceSide(options: HostOptions, parts: VoiceSideParts, teardown: Teardown): Promise<VoiceSide> {
  const { server, session } = parts;
  const { store, warning } = await VoiceSettingsStore.load(options.dataDir, { logger: options.logger });
  teardown.add(() => store.flush());
  const stopSettings = installVoiceSettingsCommands(server, store);
  teardown.add(() => stopSettings());

  const book = new VoiceChannelBook((id) => parts.users.get(id));
  const player = new PlayerVoice(session, book, () => store.settings, hostnameOf(parts.platformUrl));
  const onDispatch = (t: string, d: unknown): void => book.dispatch(t, d);
  let accountId = session.user?.id ?? null;
  const onAccount = (user: { readonly id: string } | null): void => {
    if ((user?.id ?? null) !== accountId) {
      book.clear();
      player.accountChanged();
    }
    accountId = user?.id ?? null;
  };
  const onReady = (): void => player.sessionReady();
  session.on('dispatch', onDispatch);
  session.on('account', onAccount);
  session.on('ready', onReady);
  store.on('change', (settings) => player.settingsChanged(settings));
  installVoiceChannelCommands(server, {
    player,
    book,
    channels: parts.channels,
    navigate: ({ channelId, applicationId, connectionId }) => parts.opens.show({ view: 'voice-channel', channel_id: channelId, application_id: applicationId, connection_id: connectionId }),
  });
  const stopEvents = installVoiceEvents(server, book, player);
  const panel = new VoicePanel(store, book, player);
  teardown.add(() => {
    stopEvents();
    panel.dispose();
    player.dispose();
    session.off('dispatch', onDispatch);
    session.off('account', onAccount);
    session.off('ready', onReady);
  });
  return { store, warning, book, player, panel };
}

function hostnameOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
