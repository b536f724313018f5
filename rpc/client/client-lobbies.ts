import type { ClientResult } from './client-result.js';
import { attempt } from './platform-request.js';
import * as api from './lobby-api.js';
import { sentUserOf, toLobbyHandle, toMemberHandle, toMessageHandle, type LobbyCallOptions, type LobbyHandle, type LobbyMemberHandle, type MessageHandle, type Metadata } from './lobby-api.js';
import type { UserHandle, WireUser } from './user-handle.js';
import type { PlatformDispatch } from './wire/gateway.js';

/** The Client's user cache, as the lobbies feed it (ClientUsers). */
export interface LobbyUsers {
  /** A user the platform sent with a member or a message: kept for getUser. */
  meet(user: WireUser | undefined): void;
  /** The live handle of a user (Client::GetUser). */
  get(userId: string): UserHandle | undefined;
}

const NO_USERS: LobbyUsers = { meet: () => undefined, get: () => undefined };

export type { LinkedChannelHandle, LobbyHandle, LobbyMemberHandle, MessageHandle, Metadata } from './lobby-api.js';

/** The Social SDK's lobby and message callbacks (each set or cleared on its own). */
export interface LobbyCallbacks {
  lobbyCreated?: ((lobbyId: string) => void) | undefined;
  lobbyUpdated?: ((lobbyId: string) => void) | undefined;
  lobbyDeleted?: ((lobbyId: string) => void) | undefined;
  memberAdded?: ((lobbyId: string, memberId: string) => void) | undefined;
  memberUpdated?: ((lobbyId: string, memberId: string) => void) | undefined;
  memberRemoved?: ((lobbyId: string, memberId: string) => void) | undefined;
  messageCreated?: ((messageId: string) => void) | undefined;
  /** Client::SetMessageUpdatedCallback: a message (lobby or DM) was edited, or its moderation metadata set; its handle is the new one. */
  messageUpdated?: ((messageId: string) => void) | undefined;
  /** Client::SetMessageDeletedCallback: a message was deleted (its handle is gone); `channelId` is the DM channel, or the lobby's id. */
  messageDeleted?: ((messageId: string, channelId: string) => void) | undefined;
}

/** Messages kept for getMessageHandle (the newest). */
const MESSAGES_KEPT = 1000;

/**
 * The Client's lobby calls in the Social SDK's shape: each resolves with its ClientResult (and
 * what it made) and calls the callback when one is given; none throws. The lobbies the game is
 * in are kept (getLobbyHandle answers from them), refreshed by every answer and by the game's
 * own gateway connection (`dispatch`), which also calls the lobby and message callbacks. The
 * messages kept (getMessageHandle) follow edits (MESSAGE_UPDATE, LOBBY_MESSAGE_UPDATE) and
 * deletions (MESSAGE_DELETE, LOBBY_MESSAGE_DELETE), of lobbies and DMs alike.
 */
export class ClientLobbies {
  private readonly known = new Map<string, LobbyHandle>();
  private readonly messages = new Map<string, MessageHandle>();
  readonly callbacks: LobbyCallbacks = {};

  /** The options of a call now (the platform base, the token set by updateToken, the timeout); the user cache members and authors go to. */
  constructor(
    private readonly options: () => LobbyCallOptions,
    private readonly users: LobbyUsers = NO_USERS,
  ) {}

  /** Client::CreateOrJoinLobby(WithMetadata): the lobby of this secret for the game, joined or made. */
  async createOrJoin(secret: string, lobbyMetadata: Metadata | undefined, memberMetadata: Metadata | undefined, callback?: (result: ClientResult, lobbyId: string | null) => void): Promise<{ result: ClientResult; lobbyId: string | null }> {
    const outcome = await attempt(async () => this.keep(await api.createOrJoinLobby(this.options(), secret, lobbyMetadata, memberMetadata)).id);
    callback?.(outcome.result, outcome.value);
    return { result: outcome.result, lobbyId: outcome.value };
  }

  /** Client::LeaveLobby. */
  async leave(lobbyId: string, callback?: (result: ClientResult) => void): Promise<ClientResult> {
    const outcome = await attempt(async () => {
      await api.leaveLobby(this.options(), lobbyId);
      this.known.delete(lobbyId);
      return null;
    });
    callback?.(outcome.result);
    return outcome.result;
  }

  /** Fetches the lobby again (the platform's view now) and keeps it. */
  async refresh(lobbyId: string): Promise<{ result: ClientResult; lobby: LobbyHandle | null }> {
    const outcome = await attempt(async () => this.keep(await api.getLobby(this.options(), lobbyId)));
    return { result: outcome.result, lobby: outcome.value };
  }

  /** Client::LinkChannelToLobby (or, `channelId` null, UnlinkChannelFromLobby): the member needs CanLinkLobby and Manage Channels in the channel's server. */
  async linkChannel(lobbyId: string, channelId: string | null, callback?: (result: ClientResult) => void): Promise<ClientResult> {
    const outcome = await attempt(async () => this.keep(await api.linkChannel(this.options(), lobbyId, channelId)));
    callback?.(outcome.result);
    return outcome.result;
  }

  /** Client::GetLobbyHandle: a lobby the game is in, as last seen; null for another. */
  handle(lobbyId: string): LobbyHandle | null {
    return this.known.get(lobbyId) ?? null;
  }

  /** Client::GetLobbyIds. */
  ids(): string[] {
    return [...this.known.keys()];
  }

  /** Client::SendLobbyMessage. */
  async sendMessage(lobbyId: string, content: string, callback?: (result: ClientResult, messageId: string | null) => void, metadata?: Metadata): Promise<{ result: ClientResult; messageId: string | null }> {
    const outcome = await attempt(async () => this.remember(await api.sendLobbyMessage(this.options(), lobbyId, content, metadata)).id);
    callback?.(outcome.result, outcome.value);
    return { result: outcome.result, messageId: outcome.value };
  }

  /** Client::GetLobbyMessagesWithLimit: newest first, at most 200, none older than 72 hours. */
  async messagesWithLimit(lobbyId: string, limit: number, callback?: (result: ClientResult, messages: readonly MessageHandle[]) => void): Promise<{ result: ClientResult; messages: readonly MessageHandle[] }> {
    const outcome = await attempt(() => api.getLobbyMessagesWithLimit(this.options(), lobbyId, limit));
    const messages = outcome.value ?? [];
    for (const message of messages) this.users.meet(sentUserOf(message));
    callback?.(outcome.result, messages);
    return { result: outcome.result, messages };
  }

  /** The author edits a lobby message **(ours: the Social SDK has no lobby edit)**; its handle is the edited message. */
  async editMessage(lobbyId: string, messageId: string, content: string, callback?: (result: ClientResult) => void): Promise<ClientResult> {
    const outcome = await attempt(async () => this.remember(await api.editLobbyMessage(this.options(), lobbyId, messageId, content)));
    callback?.(outcome.result);
    return outcome.result;
  }

  /** The author deletes a lobby message **(ours)**; getMessageHandle no longer answers it. */
  async deleteMessage(lobbyId: string, messageId: string, callback?: (result: ClientResult) => void): Promise<ClientResult> {
    const outcome = await attempt(async () => {
      await api.deleteLobbyMessage(this.options(), lobbyId, messageId);
      this.forget(messageId);
      return null;
    });
    callback?.(outcome.result);
    return outcome.result;
  }

  /** Client::GetMessageHandle: a message the game sent or was told of (the newest 1,000). */
  message(messageId: string): MessageHandle | null {
    return this.messages.get(messageId) ?? null;
  }

  /** A dispatch of the game's own gateway connection (checked): lobby and message events update what is kept and call back. */
  dispatch(event: PlatformDispatch): void {
    switch (event.t) {
      case 'READY':
        if (event.d.lobbies !== undefined) this.ready(event.d.lobbies.map(toLobbyHandle));
        return;
      case 'LOBBY_CREATE':
      case 'LOBBY_UPDATE': {
        const lobby = this.keep(toLobbyHandle(event.d));
        (event.t === 'LOBBY_CREATE' ? this.callbacks.lobbyCreated : this.callbacks.lobbyUpdated)?.(lobby.id);
        return;
      }
      case 'LOBBY_DELETE':
        if (this.known.delete(event.d.id)) this.callbacks.lobbyDeleted?.(event.d.id);
        return;
      case 'LOBBY_MEMBER_ADD':
      case 'LOBBY_MEMBER_UPDATE':
      case 'LOBBY_MEMBER_REMOVE':
        return this.memberEvent(event.t, event.d.lobby_id, this.withUser(toMemberHandle(event.d.member)));
      case 'LOBBY_MESSAGE_CREATE':
      case 'MESSAGE_CREATE': {
        // Lobby messages, and direct messages (the game's token reads DMs with the Social SDK's scopes).
        const message = this.remember(toMessageHandle(event.d));
        this.callbacks.messageCreated?.(message.id);
        return;
      }
      case 'LOBBY_MESSAGE_UPDATE':
      case 'MESSAGE_UPDATE': {
        const message = this.remember(toMessageHandle(event.d));
        this.callbacks.messageUpdated?.(message.id);
        return;
      }
      case 'LOBBY_MESSAGE_DELETE':
      case 'MESSAGE_DELETE': {
        const { id } = event.d;
        this.forget(id);
        this.callbacks.messageDeleted?.(id, event.d.channel_id ?? event.d.lobby_id ?? '');
        return;
      }
      default:
        return;
    }
  }

  private memberEvent(t: 'LOBBY_MEMBER_ADD' | 'LOBBY_MEMBER_UPDATE' | 'LOBBY_MEMBER_REMOVE', lobbyId: string, seen: LobbyMemberHandle): void {
    const lobby = this.known.get(lobbyId);
    if (lobby === undefined) return;
    const memberId = seen.id;
    const others = lobby.lobbyMembers.filter((m) => m.id !== memberId);
    const present = others.length !== lobby.lobbyMembers.length;
    // An update keeps the member's place; an add comes last; a remove drops it.
    const members = t === 'LOBBY_MEMBER_REMOVE' ? others : present ? lobby.lobbyMembers.map((m) => (m.id === memberId ? seen : m)) : [...lobby.lobbyMembers, seen];
    this.keep({ ...lobby, lobbyMembers: members, lobbyMemberIds: members.map((m) => m.id) });
    const callback = t === 'LOBBY_MEMBER_ADD' ? this.callbacks.memberAdded : t === 'LOBBY_MEMBER_UPDATE' ? this.callbacks.memberUpdated : this.callbacks.memberRemoved;
    callback?.(lobbyId, memberId);
  }

  /** Keeps a message for getMessageHandle (the newest 1,000 of every kind); its author goes to the user cache. */
  readonly remember = (message: MessageHandle): MessageHandle => {
    this.users.meet(sentUserOf(message));
    this.messages.set(message.id, message);
    if (this.messages.size > MESSAGES_KEPT) this.messages.delete(this.messages.keys().next().value as string);
    return message;
  };

  /** Drops a deleted message from what getMessageHandle answers. */
  readonly forget = (messageId: string): void => {
    this.messages.delete(messageId);
  };

  /**
   * READY's lobbies are the ones the player is in: the game hears of a lobby new to it
   * (lobbyCreated) and of one it knew that the player is no longer in (lobbyDeleted), once;
   * the others are brought up to date without a callback.
   */
  private ready(lobbies: readonly LobbyHandle[]): void {
    const current = new Set(lobbies.map((lobby) => lobby.id));
    for (const id of [...this.known.keys()]) {
      if (current.has(id)) continue;
      this.known.delete(id);
      this.callbacks.lobbyDeleted?.(id);
    }
    for (const lobby of lobbies) {
      const isNew = !this.known.has(lobby.id);
      this.keep(lobby);
      if (isNew) this.callbacks.lobbyCreated?.(lobby.id);
    }
  }

  /** Keeps a lobby; its members' users go to the user cache and each member's `user()` answers from it. */
  private keep(lobby: LobbyHandle): LobbyHandle {
    const members = lobby.lobbyMembers.map((member) => this.withUser(member));
    const kept = { ...lobby, lobbyMembers: members };
    this.known.set(lobby.id, kept);
    return kept;
  }

  /** The member, its user met, with `user()` reading the user cache (LobbyMemberHandle::User). */
  private withUser(member: LobbyMemberHandle): LobbyMemberHandle {
    this.users.meet(sentUserOf(member));
    const { users } = this;
    const id = member.id;
    return { ...member, user: () => users.get(id) };
  }
}
