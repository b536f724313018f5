import { EventEmitter } from 'node:events';
import { parseOpenConnectedGamesSettingsArgs, parseOpenMessageArgs, RpcError, RpcErrorCode, type RpcServer } from '../../../../rpc/src/index.js';
import type { DmEntry } from './dm-book.js';

/** A view of Companion a game asked to show (the control event `open-view`). */
export type OpenViewRequest =
  | { readonly view: 'authorized-apps'; readonly application_id: string; readonly connection_id: string }
  | { readonly view: 'conversation'; readonly application_id: string; readonly connection_id: string; readonly user_id: string; readonly message_id: string }
  /** The device flow's code-entry screen (device-screen.ts), and its closing. */
  | { readonly view: 'authorize-device'; readonly application_id: string; readonly connection_id: string; readonly screen_id: string; readonly user_code: string }
  | { readonly view: 'close-authorize-device'; readonly application_id: string; readonly connection_id: string; readonly screen_id: string }
  /** The voice channel a game joined for the player with SELECT_VOICE_CHANNEL `navigate: true`. */
  | { readonly view: 'voice-channel'; readonly application_id: string; readonly connection_id: string; readonly channel_id: string };

export interface OpenInCompanionSources {
  /** The player's conversations as Companion shows them. */
  readonly conversations: () => readonly { readonly friendId: string; readonly messages: readonly DmEntry[] }[];
}

/**
 * The RPC commands of ours that ask Companion to show one of its views, for the Social SDK's
 * OpenConnectedGamesSettingsInDiscord and OpenMessageInDiscord:
 * - OPEN_CONNECTED_GAMES_SETTINGS `{pid?}`: the Authorized apps, with the asking game's
 *   application picked out (the connection's own, never one the args name);
 * - OPEN_MESSAGE `{message_id, pid?}`: the conversation holding that direct message, when it is
 *   one Companion shows and the message is the asking game's or one of no game (typed in
 *   Companion); a message of another application, or one Companion does not hold, is 4005
 *   `Invalid channel` and nothing opens.
 * Each answers null once the request is published (`open`), which the UI and the control API's
 * event stream (`open-view`) follow.
 */
export class OpenInCompanion extends EventEmitter<{ open: [OpenViewRequest] }> {
  constructor(server: Pick<RpcServer, 'setCommandHandler'>, private readonly sources: OpenInCompanionSources) {
    super();
    server.setCommandHandler('OPEN_CONNECTED_GAMES_SETTINGS', ({ connection, request }) => {
      parseOpenConnectedGamesSettingsArgs(request.args);
      this.emit('open', { view: 'authorized-apps', application_id: connection.clientId ?? '', connection_id: connection.id });
      return null;
    });
    server.setCommandHandler('OPEN_MESSAGE', ({ connection, request }) => {
      const { message_id } = parseOpenMessageArgs(request.args);
      const applicationId = connection.clientId ?? '';
      const userId = this.conversationOf(message_id, applicationId);
      if (userId === null) throw new RpcError(RpcErrorCode.InvalidChannel, `Invalid channel: no conversation of this application holds message ${message_id}`);
      this.emit('open', { view: 'conversation', application_id: applicationId, connection_id: connection.id, user_id: userId, message_id });
      return null;
    });
  }

  /** Shows a view the host decided on (SELECT_VOICE_CHANNEL's `navigate`). */
  show(request: OpenViewRequest): void {
    this.emit('open', request);
  }

  /** The friend whose conversation holds the message, if the game may open it; else null. */
  private conversationOf(messageId: string, applicationId: string): string | null {
    for (const conversation of this.sources.conversations()) {
      const message = conversation.messages.find((entry) => entry.id === messageId);
      if (message === undefined) continue;
      return message.applicationId === null || message.applicationId === applicationId ? conversation.friendId : null;
    }
    return null;
  }
}
