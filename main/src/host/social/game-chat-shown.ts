import { parseSetShowingChatArgs, type RpcServer } from '../../../../rpc/src/index.js';
import type { DmEntry } from './dm-book.js';

export interface GameChatShownSources {
  /** The player's conversations as Companion keeps them. */
  readonly conversations: () => readonly { readonly friendId: string; readonly messages: readonly DmEntry[] }[];
  /** Marks a conversation read up to its newest message. */
  readonly readNow: (friendId: string) => void;
}

/**
 * SET_SHOWING_CHAT `{showing, pid?}` (ours; the Social SDK's SetShowingChat): while a game says it
 * shows its chat, a direct message of that game (its `application_id`) that arrives is read at
 * once: the player sees it in the game, so Companion does not count it unread. Per connection;
 * a connection that closes shows nothing. Messages of other games, or of none, are left alone.
 */
export class GameChatShown {
  /** Connection id → its application, for the connections showing their chat. */
  private readonly showing = new Map<string, string>();

  constructor(
    server: Pick<RpcServer, 'setCommandHandler' | 'on'>,
    private readonly sources: GameChatShownSources,
  ) {
    server.setCommandHandler('SET_SHOWING_CHAT', ({ connection, request }) => {
      const { showing } = parseSetShowingChatArgs(request.args);
      if (showing && connection.clientId !== null) this.showing.set(connection.id, connection.clientId);
      else this.showing.delete(connection.id);
      return null;
    });
    server.on('disconnect', (connection) => this.showing.delete(connection.id));
  }

  /** A direct message arrived or changed: read at once when a game showing its chat sent it. */
  messageChanged(messageId: string): void {
    if (this.showing.size === 0) return;
    const shownApps = new Set(this.showing.values());
    for (const conversation of this.sources.conversations()) {
      const message = conversation.messages.find((entry) => entry.id === messageId);
      if (message === undefined) continue;
      if (message.applicationId !== null && shownApps.has(message.applicationId)) this.sources.readNow(conversation.friendId);
      return;
    }
  }
}
