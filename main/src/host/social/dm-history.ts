import type { PlatformChannel, PlatformMessage } from '../../../../platform/src/wire/index.js';
import { DM_KEPT_FRIENDS, DM_KEPT_PER_FRIEND } from './dm-book.js';
import { newerId } from './dm-read-marks.js';

/** The platform call the history needs (the host's HTTP client fits it). */
export interface DmHistoryPlatform {
  /** A DM channel's newest messages, newest first. */
  channelMessages(channelId: string, limit: number): Promise<PlatformMessage[]>;
}

/** The DM channels of READY the player has with one other user: at most DM_KEPT_FRIENDS of them. */
export function directChannels(channels: readonly PlatformChannel[], meId: string): PlatformChannel[] {
  return channels.filter((channel) => channel.type === 1 && (channel.recipients ?? []).some((user) => user.id !== meId)).slice(0, DM_KEPT_FRIENDS);
}

/**
 * The recent messages of the player's DM channels, oldest first (the order to add them in): what
 * the host shows of each conversation after it starts (or signs in), so that conversations and
 * their unread state survive a restart of the desktop app. One channel at a time; a channel the
 * platform refuses is skipped (`failed` counts them; no message text is ever reported).
 */
export async function recentDirectMessages(platform: DmHistoryPlatform, channels: readonly PlatformChannel[]): Promise<{ messages: PlatformMessage[]; failed: number }> {
  const messages: PlatformMessage[] = [];
  let failed = 0;
  for (const channel of channels) {
    try {
      messages.push(...(await platform.channelMessages(channel.id, DM_KEPT_PER_FRIEND)));
    } catch {
      failed += 1;
    }
  }
  messages.sort((a, b) => (a.id === b.id ? 0 : newerId(a.id, b.id) ? 1 : -1));
  return { messages, failed };
}
