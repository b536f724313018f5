import * as v from 'valibot';
import type { ClientResult } from './client-result.js';
import type { LobbyHandle, MessageHandle } from './lobby-api.js';
import { answerOf, attempt, bearerCall, type BearerCallOptions } from './platform-request.js';
import { ChannelType } from './guild-api.js';

/** Client::GetChannelHandle's answer: a DM or a lobby's channel. */
export interface ChannelHandle {
  readonly id: string;
  /** A DM: the other player's display name when the SDK knows the user, else ''; a lobby: ''. */
  readonly name: string;
  /** ChannelType.Dm (1) or ChannelType.Lobby (17). */
  readonly type: (typeof ChannelType)['Dm' | 'Lobby'];
  /** A DM: both players' ids (the player's first, when known); a lobby: its members' ids. */
  readonly recipients: readonly string[];
}

/** UserMessageSummary: a DM conversation of the player's, for an inbox. */
export interface UserMessageSummary {
  /** The other player (the player's own id for a DM with themselves). */
  readonly userId: string;
  /** The newest message of the conversation. */
  readonly lastMessageId: string;
}

const DmChannelListSchema = v.array(
  v.looseObject({
    id: v.string(),
    type: v.number(),
    recipients: v.exactOptional(v.array(v.looseObject({ id: v.string() }))),
    last_message_id: v.exactOptional(v.nullable(v.string())),
  }),
);

export interface ChannelSources {
  /** The player's id (the game's platform session), when known. */
  readonly me: () => string | undefined;
  readonly lobby: (lobbyId: string) => LobbyHandle | null;
  readonly message: (messageId: string) => MessageHandle | null;
  /** A user's display name, when the SDK knows the user. */
  readonly userName: (userId: string) => string | undefined;
  /** The DM channels the game opened: recipient id → channel id. */
  readonly openedDms: () => ReadonlyMap<string, string>;
}

/**
 * What the Client knows of channels: getChannelHandle (a lobby the game is in, or a DM channel it
 * opened or listed), getUserMessageSummaries (`GET /users/@me/channels`: the DM channels with
 * their `last_message_id`, newest first) and canOpenMessageInDiscord (a DM message the SDK holds).
 */
export class ClientChannels {
  /** DM channel id → the other recipient, from the listing. */
  private readonly listed = new Map<string, string>();

  constructor(
    private readonly options: () => BearerCallOptions,
    private readonly sources: ChannelSources,
  ) {}

  /** Client::GetUserMessageSummaries: the player's DM conversations with a message, newest first. */
  async summaries(callback?: (result: ClientResult, summaries: readonly UserMessageSummary[]) => void): Promise<{ result: ClientResult; summaries: readonly UserMessageSummary[] }> {
    const outcome = await attempt(async () => {
      const channels = answerOf(DmChannelListSchema, await bearerCall(this.options(), 'GET', '/users/@me/channels'), 'channels');
      const me = this.sources.me();
      const found: UserMessageSummary[] = [];
      for (const channel of channels) {
        if (channel.type !== ChannelType.Dm) continue;
        const ids = (channel.recipients ?? []).map((user) => user.id);
        const other = ids.find((id) => id !== me) ?? ids[0];
        if (other === undefined) continue;
        this.listed.set(channel.id, other);
        if (typeof channel.last_message_id === 'string') found.push({ userId: other, lastMessageId: channel.last_message_id });
      }
      return found.sort((a, b) => compareIds(b.lastMessageId, a.lastMessageId));
    });
    const summaries = outcome.value ?? [];
    callback?.(outcome.result, summaries);
    return { result: outcome.result, summaries };
  }

  /** Client::GetChannelHandle: null for a channel the game does not know. */
  channel(channelId: string): ChannelHandle | null {
    const lobby = this.sources.lobby(channelId);
    if (lobby !== null) return { id: lobby.id, name: '', type: ChannelType.Lobby, recipients: [...lobby.lobbyMemberIds] };
    const other = this.dmRecipient(channelId);
    if (other === undefined) return null;
    const me = this.sources.me();
    const recipients = me === undefined || me === other ? [other] : [me, other];
    return { id: channelId, name: this.sources.userName(other) ?? '', type: ChannelType.Dm, recipients };
  }

  /** Client::CanOpenMessageInDiscord: a direct message the SDK holds (lobby messages are not shown in Companion). */
  canOpen(messageId: string): boolean {
    const message = this.sources.message(messageId);
    return message !== null && message.lobbyId === null && message.channelId !== '';
  }

  private dmRecipient(channelId: string): string | undefined {
    const listed = this.listed.get(channelId);
    if (listed !== undefined) return listed;
    for (const [recipient, id] of this.sources.openedDms()) if (id === channelId) return recipient;
    return undefined;
  }
}

/** Snowflakes in numeric order (longer is larger). */
function compareIds(a: string, b: string): number {
  return a.length === b.length ? (a < b ? -1 : a > b ? 1 : 0) : a.length - b.length;
}
