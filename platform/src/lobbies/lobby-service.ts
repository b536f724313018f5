import { LOBBY_LIMITS, LobbyEvent, type LinkedChannel, type Lobby, type LobbyMember, type LobbyMessage, type LobbyMessageDeleteEvent, type LobbyMetadata } from '../wire/lobbies.js';
import type { PlatformUser } from '../wire/index.js';
import { LobbyError } from './lobby-error.js';
import { checkContent, checkMembersPerRequest, checkMetadata, checkSecret, idleTimeout, moderationMetadataProblem } from './lobby-rules.js';

/** What the lobby service needs of the platform. */
export interface LobbyServiceDeps {
  readonly nextId: () => string;
  readonly now: () => number;
  /** The user as others see them, or undefined for an unknown id. */
  readonly user: (id: string) => PlatformUser | undefined;
  /**
   * Whether the user has a gateway session open that may see the application's lobbies (a
   * lobby with no connected member is idle); another game's session does not count.
   */
  readonly connected: (userId: string, applicationId: string) => boolean;
  /**
   * A gateway dispatch to these users' sessions that may see the lobby's application (its game
   * sessions and the players' own clients, never another game's: access/audience.ts).
   */
  readonly dispatch: (userIds: readonly string[], event: string, data: unknown, applicationId: string) => void;
  /** A webhook event to the application (LOBBY_MESSAGE_CREATE, _UPDATE, _DELETE), for server-side moderation. */
  readonly webhook?: (applicationId: string, type: string, data: unknown) => void;
  /** Lobbies an application's server may hold at once (`create`); none given: no cap. **(ours)** */
  readonly serverLobbiesPerApp?: () => number;
}

interface MemberState {
  metadata: LobbyMetadata | null;
  flags: number;
  /** A display name the game's server gave the member: it goes with each of their messages (MessageHandle::AdditionalName). */
  additionalName: string | null;
}

/** The lobby member flag that lets a member link a guild channel (the public docs' CanLinkLobby). */
export const CAN_LINK_LOBBY = 1 << 0;

interface LobbyState {
  readonly id: string;
  readonly applicationId: string;
  /** The SDK's create-or-join secret; null for a lobby made by the server API (SDK clients cannot join or leave it). */
  readonly secret: string | null;
  readonly secretExpiresAt: number;
  metadata: LobbyMetadata | null;
  idleTimeoutSeconds: number;
  readonly members: Map<string, MemberState>;
  messages: LobbyMessage[];
  /** The guild text channel linked to the lobby, as the lobby shows it. */
  linkedChannel: LinkedChannel | null;
  /** When the lobby last had no connected member (null while one is connected). */
  idleSince: number | null;
}

// Optional fields may be given as undefined (what a parsed body holds for an absent one).

export interface CreateOrJoinInput {
  readonly secret: string;
  readonly lobby_metadata?: LobbyMetadata | null | undefined;
  readonly member_metadata?: LobbyMetadata | null | undefined;
  readonly idle_timeout_seconds?: number | undefined;
}

export interface MemberInput {
  readonly id: string;
  readonly metadata?: LobbyMetadata | null | undefined;
  readonly flags?: number | undefined;
  /** Server side only: null clears it. */
  readonly additional_name?: string | null | undefined;
  readonly remove_member?: boolean | undefined;
}

export interface ServerLobbyInput {
  readonly metadata?: LobbyMetadata | null | undefined;
  readonly members?: readonly MemberInput[] | undefined;
  readonly idle_timeout_seconds?: number | undefined;
}

/**
 * Lobbies (the Social SDK's, and the server API's): kept in memory **(ours: they do not outlive
 * the emulator)**, within the public docs' limits (wire/lobbies.ts LOBBY_LIMITS). Members
 * are told of every change by gateway dispatch (LobbyEvent). A lobby with no connected member
 * is idle, and is deleted once idle for its timeout (`sweep`, called by a timer).
 */
export class LobbyService {
  private readonly lobbies = new Map<string, LobbyState>();
  /** `${application id}\0${secret}` → lobby id. */
  private readonly bySecret = new Map<string, string>();
  /** Lobbies each application's server created (no secret) that exist now. */
  private readonly serverLobbies = new Map<string, number>();
  private readonly storedListeners: Array<() => void> = [];
  private readonly goneListeners: Array<(lobbyId: string, userId: string | null) => void> = [];

  constructor(private readonly deps: LobbyServiceDeps) {}

  /** How many lobbies exist now. */
  get count(): number {
    return this.lobbies.size;
  }

  /** Calls `listener` each time a lobby is made (the idle sweep's timer runs only while lobbies exist). */
  onStored(listener: () => void): void {
    this.storedListeners.push(listener);
  }

  /** Calls `listener` when a member leaves or is removed (`userId`), or the lobby is deleted (null): the lobby's call loses them. */
  onMemberGone(listener: (lobbyId: string, userId: string | null) => void): void {
    this.goneListeners.push(listener);
  }

  /** The SDK's CreateOrJoinLobby: the lobby of this secret for the app (joined), or a new one (created). */
  createOrJoin(userId: string, applicationId: string, input: CreateOrJoinInput): Lobby {
    checkSecret(input.secret);
    checkMetadata('lobby_metadata', input.lobby_metadata);
    checkMetadata('member_metadata', input.member_metadata);
    const timeout = input.idle_timeout_seconds === undefined ? undefined : idleTimeout(input.idle_timeout_seconds);
    const existing = this.bySecretOf(applicationId, input.secret);
    const lobby = existing ?? this.newLobby(applicationId, input.secret, timeout ?? LOBBY_LIMITS.idleTimeoutDefaultSeconds);
    if (!lobby.members.has(userId)) this.checkRoomFor(lobby, userId);
    if (existing === undefined) this.store(lobby);
    if (existing !== undefined && input.lobby_metadata !== undefined) lobby.metadata = input.lobby_metadata;
    else if (existing === undefined) lobby.metadata = input.lobby_metadata ?? null;
    if (timeout !== undefined) lobby.idleTimeoutSeconds = timeout;
    const changedLobby = existing !== undefined && (input.lobby_metadata !== undefined || timeout !== undefined);
    this.upsertMember(lobby, { id: userId, ...(input.member_metadata === undefined ? {} : { metadata: input.member_metadata }) });
    if (changedLobby) this.tell(lobby, LobbyEvent.Update, this.view(lobby));
    this.refreshIdle(lobby);
    return this.view(lobby);
  }

  /** The lobby, for one of its members (or the server API: `asMember` null). */
  get(lobbyId: string, asMember: string | null): Lobby {
    const lobby = this.known(lobbyId);
    if (asMember !== null && !lobby.members.has(asMember)) throw new LobbyError('missing_access', 'You are not a member of this lobby');
    return this.view(lobby);
  }

  /** Leaves the lobby; safe when not a member, refused for an unknown lobby. */
  leave(lobbyId: string, userId: string): void {
    this.removeMember(this.known(lobbyId), userId);
  }

  // ---- the server API (the application's bot token)

  create(applicationId: string, input: ServerLobbyInput): Lobby {
    this.checkServerLobbyRoom(applicationId);
    checkMetadata('metadata', input.metadata);
    checkMembersPerRequest(input.members?.length ?? 0);
    for (const member of input.members ?? []) this.checkMemberInput(member);
    const lobby = this.newLobby(applicationId, null, idleTimeout(input.idle_timeout_seconds));
    lobby.metadata = input.metadata ?? null;
    this.store(lobby);
    for (const member of input.members ?? []) if (this.hasRoom(lobby, member.id)) this.upsertMember(lobby, member);
    this.refreshIdle(lobby);
    return this.view(lobby);
  }

  modify(lobbyId: string, applicationId: string, input: ServerLobbyInput): Lobby {
    const lobby = this.ownedBy(lobbyId, applicationId);
    checkMetadata('metadata', input.metadata);
    if (input.members !== undefined) {
      checkMembersPerRequest(input.members.length);
      for (const member of input.members) this.checkMemberInput(member);
    }
    const timeout = input.idle_timeout_seconds === undefined ? undefined : idleTimeout(input.idle_timeout_seconds);
    if (input.metadata !== undefined) lobby.metadata = input.metadata;
    if (timeout !== undefined) lobby.idleTimeoutSeconds = timeout;
    if (input.members !== undefined) {
      const keep = new Set(input.members.map((member) => member.id));
      for (const id of [...lobby.members.keys()]) if (!keep.has(id)) this.removeMember(lobby, id);
      for (const member of input.members) if (this.hasRoom(lobby, member.id)) this.upsertMember(lobby, member);
    }
    this.tell(lobby, LobbyEvent.Update, this.view(lobby));
    this.refreshIdle(lobby);
    return this.view(lobby);
  }

  /** Deletes the lobby; safe when it is already gone. */
  delete(lobbyId: string, applicationId: string): void {
    const lobby = this.lobbies.get(lobbyId);
    if (lobby === undefined) return;
    if (lobby.applicationId !== applicationId) throw new LobbyError('unknown_lobby', `Unknown Lobby ${lobbyId}`);
    this.drop(lobby);
  }

  /** Adds the user, or updates their metadata and flags when already a member. */
  putMember(lobbyId: string, applicationId: string, member: MemberInput): LobbyMember {
    const lobby = this.ownedBy(lobbyId, applicationId);
    this.checkMemberInput(member);
    if (!lobby.members.has(member.id)) this.checkRoomFor(lobby, member.id);
    this.upsertMember(lobby, member);
    this.refreshIdle(lobby);
    return this.memberView(lobby, member.id, lobby.members.get(member.id) as MemberState);
  }

  deleteMember(lobbyId: string, applicationId: string, userId: string): void {
    this.removeMember(this.ownedBy(lobbyId, applicationId), userId);
  }

  /**
   * Adds, updates or removes up to 25 members. An unknown user refuses the whole request (404);
   * one who would pass the per-user lobby limit is left out, as the docs say. Answers the
   * members upserted.
   */
  bulk(lobbyId: string, applicationId: string, members: readonly MemberInput[]): LobbyMember[] {
    const lobby = this.ownedBy(lobbyId, applicationId);
    if (members.length === 0) throw new LobbyError('invalid_form', 'the body must list at least one member', 'members');
    checkMembersPerRequest(members.length, 'members');
    for (const member of members) this.checkMemberInput(member);
    const upserted: LobbyMember[] = [];
    for (const member of members) {
      if (member.remove_member === true) {
        this.removeMember(lobby, member.id);
        continue;
      }
      if (!this.hasRoom(lobby, member.id)) continue;
      this.upsertMember(lobby, member);
      upserted.push(this.memberView(lobby, member.id, lobby.members.get(member.id) as MemberState));
    }
    this.refreshIdle(lobby);
    return upserted;
  }

  // ---- messages

  sendMessage(lobbyId: string, userId: string, content: string, metadata?: LobbyMetadata): LobbyMessage {
    const lobby = this.known(lobbyId);
    if (!lobby.members.has(userId)) throw new LobbyError('missing_access', 'You are not a member of this lobby');
    checkContent(content);
    checkMetadata('metadata', metadata);
    const author = this.deps.user(userId);
    if (author === undefined) throw new LobbyError('unknown_user', `Unknown User ${userId}`);
    const additionalName = lobby.members.get(userId)?.additionalName ?? null;
    const message: LobbyMessage = {
      id: this.deps.nextId(),
      type: 0,
      content,
      lobby_id: lobby.id,
      channel_id: lobby.id,
      author,
      ...(metadata === undefined ? {} : { metadata }),
      flags: 0,
      application_id: lobby.applicationId,
      timestamp: new Date(this.deps.now()).toISOString(),
      ...(additionalName !== null ? { additional_name: additionalName } : {}),
    };
    lobby.messages.push(message);
    if (lobby.messages.length > LOBBY_LIMITS.messagesKept) lobby.messages.splice(0, lobby.messages.length - LOBBY_LIMITS.messagesKept);
    this.tell(lobby, LobbyEvent.MessageCreate, message);
    this.deps.webhook?.(lobby.applicationId, 'LOBBY_MESSAGE_CREATE', message);
    return message;
  }

  /**
   * The game server sets a message's moderation metadata (app-scoped): the members get the
   * updated message (LOBBY_MESSAGE_UPDATE), the app its webhook event.
   */
  setModerationMetadata(lobbyId: string, applicationId: string, messageId: string, metadata: LobbyMetadata): void {
    const lobby = this.ownedBy(lobbyId, applicationId);
    const problem = moderationMetadataProblem(metadata);
    if (problem !== undefined) throw new LobbyError('invalid_form', problem, 'metadata');
    this.replaceMessage(lobby, this.messageIn(lobby, messageId), { moderation_metadata: metadata });
  }

  /**
   * The author changes a message's content (`edited_timestamp` set): the members get
   * LOBBY_MESSAGE_UPDATE, the app its webhook event. Anyone else (another member, the app's
   * server) is refused with 'not_author'.
   */
  editMessage(lobbyId: string, userId: string | null, messageId: string, content: string): LobbyMessage {
    const lobby = this.known(lobbyId);
    if (userId !== null && !lobby.members.has(userId)) throw new LobbyError('missing_access', 'You are not a member of this lobby');
    const found = this.messageIn(lobby, messageId);
    if (found.author.id !== userId) throw new LobbyError('not_author', 'Cannot edit a message authored by another user');
    checkContent(content);
    return this.replaceMessage(lobby, found, { content, edited_timestamp: new Date(this.deps.now()).toISOString() });
  }

  /**
   * Deletes a message: its author (a member), or the app's server (`caller.userId` null, its own
   * lobbies only). The members get LOBBY_MESSAGE_DELETE `{id, lobby_id, channel_id}`, the app
   * its webhook event `{id, lobby_id}`. Another member is refused with 'missing_permissions'.
   */
  deleteMessage(lobbyId: string, caller: { readonly userId: string | null; readonly applicationId: string }, messageId: string): void {
    const lobby = caller.userId === null ? this.ownedBy(lobbyId, caller.applicationId) : this.known(lobbyId);
    if (caller.userId !== null && !lobby.members.has(caller.userId)) throw new LobbyError('missing_access', 'You are not a member of this lobby');
    const found = this.messageIn(lobby, messageId);
    if (caller.userId !== null && found.author.id !== caller.userId) throw new LobbyError('missing_permissions', 'Only its author or the game server may delete a message');
    lobby.messages = lobby.messages.filter((message) => message !== found);
    const event: LobbyMessageDeleteEvent = { id: found.id, lobby_id: lobby.id, channel_id: found.channel_id };
    this.tell(lobby, LobbyEvent.MessageDelete, event);
    this.deps.webhook?.(lobby.applicationId, 'LOBBY_MESSAGE_DELETE', { id: found.id, lobby_id: lobby.id });
  }

  /** The newest messages first, at most `limit` (1-200) and none older than 72 hours. */
  messages(lobbyId: string, userId: string | null, limit: number): LobbyMessage[] {
    const lobby = this.known(lobbyId);
    if (userId !== null && !lobby.members.has(userId)) throw new LobbyError('missing_access', 'You are not a member of this lobby');
    if (!Number.isInteger(limit) || limit < 1 || limit > LOBBY_LIMITS.messagesKept) {
      throw new LobbyError('invalid_form', `limit must be an integer from 1 to ${LOBBY_LIMITS.messagesKept}`, 'limit');
    }
    const oldest = this.deps.now() - LOBBY_LIMITS.messageAgeMs;
    return lobby.messages.filter((message) => Date.parse(message.timestamp) >= oldest).slice(-limit).reverse();
  }

  // ---- idleness

  /**
   * A user's gateway session ended: the lobbies they are in may have become idle, and, when it
   * was their last session (`connected` turned false), their members hear of it once
   * (LOBBY_MEMBER_UPDATE); a session that ends while another stays open changes nothing they
   * see. A session that comes is seen by the next sweep.
   */
  connectionChanged(userId: string, seesLobbiesOf: (applicationId: string) => boolean = () => true): void {
    for (const lobby of this.lobbies.values()) {
      // Only the lobbies the ended session could see: another game's members hear nothing of it.
      if (!lobby.members.has(userId) || !seesLobbiesOf(lobby.applicationId)) continue;
      this.refreshIdle(lobby);
      // Away only when no session that may see this lobby is left: told once, not per session.
      if (!this.deps.connected(userId, lobby.applicationId)) this.tell(lobby, LobbyEvent.MemberUpdate, { lobby_id: lobby.id, member: this.memberView(lobby, userId, lobby.members.get(userId) as MemberState) });
    }
  }

  // ---- linked channels

  /**
   * Links a guild text channel to the lobby, or unlinks (`channel` null), for a member with
   * CanLinkLobby: the members get LOBBY_UPDATE. The caller has checked the channel and the
   * member's rights in its guild. A lobby made with a secret (the SDK's) cannot be linked, and a
   * channel links to one lobby of each application at a time (another application's link is
   * not its business: to it, that lobby does not exist).
   */
  linkChannel(lobbyId: string, userId: string, channel: LinkedChannel | null): Lobby {
    const lobby = this.known(lobbyId);
    const member = lobby.members.get(userId);
    if (member === undefined) throw new LobbyError('missing_access', 'You are not a member of this lobby');
    if ((member.flags & CAN_LINK_LOBBY) === 0) throw new LobbyError('missing_permissions', 'Linking a channel needs the CanLinkLobby member flag');
    if (channel !== null && lobby.secret !== null) throw new LobbyError('invalid_form', 'a lobby made with a secret cannot be linked to a channel', 'lobby_id');
    const linkedTo = channel === null ? undefined : this.lobbyLinkedTo(channel.id, lobby.applicationId);
    if (linkedTo !== undefined && linkedTo !== lobby.id) {
      throw new LobbyError('invalid_form', 'the channel is linked to another lobby', 'channel_id');
    }
    lobby.linkedChannel = channel;
    const view = this.view(lobby);
    this.tell(lobby, LobbyEvent.Update, view);
    return view;
  }

  /** The lobby a channel is linked to (with its app), if any: of that application when one is given, else the first linked. */
  linkOf(channelId: string, applicationId?: string): { readonly lobbyId: string; readonly applicationId: string } | undefined {
    const lobbyId = this.lobbyLinkedTo(channelId, applicationId);
    const lobby = lobbyId === undefined ? undefined : this.lobbies.get(lobbyId);
    return lobby === undefined ? undefined : { lobbyId: lobby.id, applicationId: lobby.applicationId };
  }

  /** The lobby's linked channel, for an invite: its member (`userId`) or the app's server (`userId` null). */
  linkedChannelFor(lobbyId: string, userId: string | null, applicationId: string): LinkedChannel {
    const lobby = userId === null ? this.ownedBy(lobbyId, applicationId) : this.known(lobbyId);
    if (userId !== null && !lobby.members.has(userId)) throw new LobbyError('missing_access', 'You are not a member of this lobby');
    if (lobby.linkedChannel === null) throw new LobbyError('invalid_form', 'the lobby has no linked channel', 'lobby_id');
    return lobby.linkedChannel;
  }

  /** The application a lobby belongs to, or undefined when there is no such lobby (the access policy's question). */
  applicationOf(lobbyId: string): string | undefined {
    return this.lobbies.get(lobbyId)?.applicationId;
  }

  /** Whether a user is a member of the lobby (the server API's invite for a user). */
  isMember(lobbyId: string, userId: string): boolean {
    return this.known(lobbyId).members.has(userId);
  }

  private lobbyLinkedTo(channelId: string, applicationId?: string): string | undefined {
    for (const lobby of this.lobbies.values()) {
      if (lobby.linkedChannel?.id === channelId && (applicationId === undefined || lobby.applicationId === applicationId)) return lobby.id;
    }
    return undefined;
  }

  /**
   * A provisional account merged into a full one: its memberships become the full account's
   * (its metadata kept; a lobby both were in keeps the full account's). The members get
   * LOBBY_MEMBER_REMOVE for the one and LOBBY_MEMBER_ADD for the other. With an application:
   * only that application's lobbies (an unmerge moves the full account's into the new
   * provisional account).
   */
  moveMember(from: string, into: string, applicationId?: string): void {
    for (const lobby of this.lobbies.values()) {
      if (applicationId !== undefined && lobby.applicationId !== applicationId) continue;
      const member = lobby.members.get(from);
      if (member === undefined) continue;
      this.removeMember(lobby, from);
      if (lobby.members.has(into)) continue;
      lobby.members.set(into, member);
      // The full account gets the whole lobby; the others, the new member.
      this.deps.dispatch([into], LobbyEvent.Create, this.view(lobby), lobby.applicationId);
      this.tellOthers(lobby, into, LobbyEvent.MemberAdd, { lobby_id: lobby.id, member: this.memberView(lobby, into, member) });
    }
  }

  /**
   * The account leaves every lobby of every application (a ban): each lobby's other members get
   * LOBBY_MEMBER_REMOVE, once, as when the game's server removes a member.
   */
  removeEverywhere(userId: string): void {
    for (const lobby of [...this.lobbies.values()]) this.removeMember(lobby, userId);
  }

  /** Deletes the lobbies idle for longer than their timeout; answers how many. Idleness is looked at again first. */
  sweep(): number {
    const now = this.deps.now();
    let deleted = 0;
    for (const lobby of [...this.lobbies.values()]) {
      this.refreshIdle(lobby);
      if (lobby.idleSince !== null && now - lobby.idleSince >= lobby.idleTimeoutSeconds * 1000) {
        this.drop(lobby);
        deleted += 1;
      }
    }
    return deleted;
  }

  /** Every lobby (the emulator's admin view and `companion platform lobbies`). */
  list(): Lobby[] {
    return [...this.lobbies.values()].map((lobby) => this.view(lobby));
  }

  // ---- inside

  private messageIn(lobby: LobbyState, messageId: string): LobbyMessage {
    const found = lobby.messages.find((message) => message.id === messageId);
    if (found === undefined) throw new LobbyError('unknown_message', `Unknown Message ${messageId}`);
    return found;
  }

  /** The message with `change` applied, in its place; the members get LOBBY_MESSAGE_UPDATE and the app its webhook event. */
  private replaceMessage(lobby: LobbyState, found: LobbyMessage, change: Partial<Pick<LobbyMessage, 'content' | 'edited_timestamp' | 'moderation_metadata'>>): LobbyMessage {
    const updated: LobbyMessage = { ...found, ...change };
    lobby.messages = lobby.messages.map((message) => (message === found ? updated : message));
    this.tell(lobby, LobbyEvent.MessageUpdate, updated);
    this.deps.webhook?.(lobby.applicationId, 'LOBBY_MESSAGE_UPDATE', updated);
    return updated;
  }

  private bySecretOf(applicationId: string, secret: string): LobbyState | undefined {
    const id = this.bySecret.get(`${applicationId}\u0000${secret}`);
    const lobby = id === undefined ? undefined : this.lobbies.get(id);
    if (lobby === undefined || lobby.secretExpiresAt <= this.deps.now()) return undefined;
    return lobby;
  }

  private newLobby(applicationId: string, secret: string | null, idleTimeoutSeconds: number): LobbyState {
    return {
      id: this.deps.nextId(),
      applicationId,
      secret,
      secretExpiresAt: this.deps.now() + LOBBY_LIMITS.secretTtlMs,
      metadata: null,
      idleTimeoutSeconds,
      members: new Map(),
      messages: [],
      linkedChannel: null,
      idleSince: this.deps.now(),
    };
  }

  private store(lobby: LobbyState): void {
    this.lobbies.set(lobby.id, lobby);
    if (lobby.secret !== null) this.bySecret.set(`${lobby.applicationId}\u0000${lobby.secret}`, lobby.id);
    else this.serverLobbies.set(lobby.applicationId, (this.serverLobbies.get(lobby.applicationId) ?? 0) + 1);
    for (const listener of this.storedListeners) listener();
  }

  private checkServerLobbyRoom(applicationId: string): void {
    const max = this.deps.serverLobbiesPerApp?.();
    if (max === undefined || (this.serverLobbies.get(applicationId) ?? 0) < max) return;
    throw new LobbyError('too_many_server_lobbies', `The application holds ${max} lobbies already; delete one first`);
  }

  private known(lobbyId: string): LobbyState {
    const lobby = this.lobbies.get(lobbyId);
    if (lobby === undefined) throw new LobbyError('unknown_lobby', `Unknown Lobby ${lobbyId}`);
    return lobby;
  }

  /** The server API sees only its own application's lobbies. */
  private ownedBy(lobbyId: string, applicationId: string): LobbyState {
    const lobby = this.known(lobbyId);
    if (lobby.applicationId !== applicationId) throw new LobbyError('unknown_lobby', `Unknown Lobby ${lobbyId}`);
    return lobby;
  }

  private checkMemberInput(member: MemberInput): void {
    if (this.deps.user(member.id) === undefined) throw new LobbyError('unknown_user', `Unknown User ${member.id}`);
    checkMetadata('metadata', member.metadata);
  }

  /** The lobbies of `applicationId` that `userId` is a member of, as the members see them (a game session's READY). */
  lobbiesOfMember(userId: string, applicationId: string): Lobby[] {
    const lobbies: Lobby[] = [];
    for (const lobby of this.lobbies.values()) if (lobby.applicationId === applicationId && lobby.members.has(userId)) lobbies.push(this.view(lobby));
    return lobbies;
  }

  private lobbiesOf(userId: string, applicationId: string): number {
    let count = 0;
    for (const lobby of this.lobbies.values()) if (lobby.applicationId === applicationId && lobby.members.has(userId)) count += 1;
    return count;
  }

  private hasRoom(lobby: LobbyState, userId: string): boolean {
    if (lobby.members.has(userId)) return true;
    return lobby.members.size < LOBBY_LIMITS.membersPerLobby && this.lobbiesOf(userId, lobby.applicationId) < LOBBY_LIMITS.lobbiesPerUserPerApp;
  }

  private checkRoomFor(lobby: LobbyState, userId: string): void {
    if (lobby.members.size >= LOBBY_LIMITS.membersPerLobby) throw new LobbyError('lobby_full', `The lobby has ${LOBBY_LIMITS.membersPerLobby} members already`);
    if (this.lobbiesOf(userId, lobby.applicationId) >= LOBBY_LIMITS.lobbiesPerUserPerApp) {
      throw new LobbyError('too_many_lobbies', `You are in ${LOBBY_LIMITS.lobbiesPerUserPerApp} lobbies of this game already; leave one first`);
    }
  }

  private upsertMember(lobby: LobbyState, input: MemberInput): void {
    const existing = lobby.members.get(input.id);
    if (existing === undefined) {
      const member: MemberState = { metadata: input.metadata ?? null, flags: input.flags ?? 0, additionalName: input.additional_name ?? null };
      lobby.members.set(input.id, member);
      // The newcomer gets the whole lobby; the others, the new member.
      this.deps.dispatch([input.id], LobbyEvent.Create, this.view(lobby), lobby.applicationId);
      this.tellOthers(lobby, input.id, LobbyEvent.MemberAdd, { lobby_id: lobby.id, member: this.memberView(lobby, input.id, member) });
      return;
    }
    if (input.metadata === undefined && input.flags === undefined && input.additional_name === undefined) return;
    if (input.metadata !== undefined) existing.metadata = input.metadata;
    if (input.flags !== undefined) existing.flags = input.flags;
    if (input.additional_name !== undefined) existing.additionalName = input.additional_name;
    this.tell(lobby, LobbyEvent.MemberUpdate, { lobby_id: lobby.id, member: this.memberView(lobby, input.id, existing) });
  }

  private removeMember(lobby: LobbyState, userId: string): void {
    if (!lobby.members.delete(userId)) return;
    for (const listener of this.goneListeners) listener(lobby.id, userId);
    this.deps.dispatch([userId], LobbyEvent.Delete, { id: lobby.id }, lobby.applicationId);
    this.tell(lobby, LobbyEvent.MemberRemove, { lobby_id: lobby.id, member: { id: userId } });
    this.refreshIdle(lobby);
  }

  private drop(lobby: LobbyState): void {
    this.tell(lobby, LobbyEvent.Delete, { id: lobby.id });
    this.lobbies.delete(lobby.id);
    for (const listener of this.goneListeners) listener(lobby.id, null);
    if (lobby.secret === null) this.forgetServerLobby(lobby.applicationId);
    if (lobby.secret !== null && this.bySecret.get(`${lobby.applicationId}\u0000${lobby.secret}`) === lobby.id) this.bySecret.delete(`${lobby.applicationId}\u0000${lobby.secret}`);
  }

  private forgetServerLobby(applicationId: string): void {
    const left = (this.serverLobbies.get(applicationId) ?? 1) - 1;
    if (left > 0) this.serverLobbies.set(applicationId, left);
    else this.serverLobbies.delete(applicationId);
  }

  private refreshIdle(lobby: LobbyState): void {
    const anyConnected = [...lobby.members.keys()].some((id) => this.deps.connected(id, lobby.applicationId));
    if (anyConnected) lobby.idleSince = null;
    else lobby.idleSince ??= this.deps.now();
  }

  private tell(lobby: LobbyState, event: string, data: unknown): void {
    if (lobby.members.size > 0) this.deps.dispatch([...lobby.members.keys()], event, data, lobby.applicationId);
  }

  private tellOthers(lobby: LobbyState, except: string, event: string, data: unknown): void {
    const others = [...lobby.members.keys()].filter((id) => id !== except);
    if (others.length > 0) this.deps.dispatch(others, event, data, lobby.applicationId);
  }

  private memberView(lobby: LobbyState, id: string, member: MemberState): LobbyMember {
    const user = this.deps.user(id);
    return {
      id,
      metadata: member.metadata,
      flags: member.flags,
      connected: this.deps.connected(id, lobby.applicationId),
      ...(member.additionalName !== null ? { additional_name: member.additionalName } : {}),
      ...(user !== undefined ? { user } : {}),
    };
  }

  private view(lobby: LobbyState): Lobby {
    return {
      id: lobby.id,
      application_id: lobby.applicationId,
      metadata: lobby.metadata,
      members: [...lobby.members.entries()].map(([id, member]) => this.memberView(lobby, id, member)),
      ...(lobby.linkedChannel !== null ? { linked_channel: lobby.linkedChannel } : {}),
    };
  }
}
