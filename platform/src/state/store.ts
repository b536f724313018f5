import { generateKeyPairSync } from 'node:crypto';
import { mkdir, rename } from 'node:fs/promises';
import path from 'node:path';
import type { PlatformLogger } from '../support/logger.js';
import { removeStrayTemps } from '../../../common/src/node/atomic-file.js';
import type { ApplicationAsset, DetectableExecutable, PlatformChannel, PlatformGuild, PlatformUser } from '../wire/index.js';
import { GameRelationshipRecords } from './game-relationship-records.js';
import { isSnowflake, randomToken, SnowflakeGenerator } from './ids.js';
import { TEST_PROVIDER_TYPES } from './model.js';
import type { AppRecord, BanRecord, ChannelRecord, ExternalAuthProvider, CodeRecord, ConnectionRecord, GrantRecord, GuildRecord, IdentityRecord, MessageRecord, OidcKeyRecord, StateFile, TokenRecord, UserRecord } from './model.js';
import { SEED } from './seed.js';
import { seedConnections } from './seed-connections.js';
import { StateDb, type MessageRow, type StateBackend } from './state-db.js';
import { StateRecords, type Collection, type SmallState } from './state-records.js';
import { CorruptStateError, readLegacyStateFile } from './legacy-state-file.js';

export { CorruptStateError } from './legacy-state-file.js';

/** The state file of emulators before the database: read once on first start, then renamed `state.json.migrated`. */
export const STATE_FILE_NAME = 'state.json';
/** The emulator's state: an SQLite database (with its `-wal` file beside it). */
export const STATE_DB_NAME = 'state.db';
/** What a migrated `state.json` is renamed to. */
export const MIGRATED_SUFFIX = '.migrated';

/** A request the state cannot carry out: the HTTP layer maps `kind` to a status. */
export class StateError extends Error {
  constructor(
    readonly kind: 'conflict' | 'not_found' | 'invalid',
    message: string,
    /** The request field the problem is about, for 50035 bodies. */
    readonly field?: string,
  ) {
    super(message);
    this.name = 'StateError';
  }
}

export interface StoreOptions {
  readonly dataDir: string;
  readonly now: () => number;
  /** Unused since every change is committed at once (kept so callers need not change). */
  readonly persistDebounceMs: number;
  readonly messagesPerChannel: number;
  readonly logger: PlatformLogger;
}

const USERNAME = /^[a-z0-9_.]{2,32}$/;

/**
 * The emulator's persistent model: users, friendships, guilds, channels, DM messages (with
 * their invites) and applications. The small state lives in memory and each change commits
 * the records it touched; DM messages live only in the database (read on demand, newest
 * first). A method that changes something has committed it when it returns.
 */
export class Store {
  private readonly usersById = new Map<string, UserRecord>();
  private readonly usersByToken = new Map<string, UserRecord>();
  private readonly usersByName = new Map<string, UserRecord>();
  private readonly friends = new Map<string, Set<string>>();
  readonly ids: SnowflakeGenerator;
  /** Game friendships and game friend requests, per application. */
  readonly gameRelationships: GameRelationshipRecords;
  private readonly records: StateRecords;
  /** Messages handed out this turn, as they were: `touched()` saves the ones changed in place. */
  private readonly handedOut = new Map<string, { readonly record: MessageRecord; readonly json: string }>();
  private handedOutClear: NodeJS.Immediate | undefined;
  /** Messages per channel, as far as counted (so a send trims only a full channel). */
  private readonly channelSizes = new Map<string, number>();
  private closed = false;

  private constructor(
    private readonly data: SmallState,
    private readonly db: StateBackend,
    private readonly options: StoreOptions,
  ) {
    const lastMessage = db.lastMessageId();
    const lastId = BigInt(data.last_id);
    this.ids = new SnowflakeGenerator(options.now, lastMessage !== undefined && BigInt(lastMessage) > lastId ? BigInt(lastMessage) : lastId);
    this.records = new StateRecords(db, data);
    this.gameRelationships = new GameRelationshipRecords(data, () => this.changed('game_friendships', 'game_friend_requests'));
    for (const user of data.users) this.indexUser(user);
    for (const [a, b] of data.friendships) this.linkFriends(a, b);
  }

  /** The database file. */
  get file(): string {
    return path.join(this.options.dataDir, STATE_DB_NAME);
  }

  /**
   * Opens the database; on first start fills it from a `state.json` of an emulator from before
   * (then renamed `state.json.migrated`), or seeds it.
   */
  static async open(options: StoreOptions): Promise<Store> {
    await mkdir(options.dataDir, { recursive: true, mode: 0o700 });
    return Store.openOn(openStateDb(path.join(options.dataDir, STATE_DB_NAME)), options);
  }

  /** `open` on a given storage (the bench runs the old whole-file design through this). */
  static async openOn(db: StateBackend, options: StoreOptions): Promise<Store> {
    const legacyFile = path.join(options.dataDir, STATE_FILE_NAME);
    // Only the emulator that claimed the data dir wrote state.json: every temp beside it was
    // left by an interrupted write of an emulator from before.
    const removed = await removeStrayTemps(legacyFile, () => true);
    if (removed.length > 0) options.logger.info({ file: legacyFile, removed: removed.length }, 'platform state: removed temp files left by interrupted writes');
    try {
      const loaded = StateRecords.load(db);
      if (loaded !== undefined) {
        const store = new Store(loaded.state, db, options);
        store.records.adopt(loaded.written);
        // A migration killed after its commit but before the rename: the database has it all.
        await renameIfPresent(legacyFile);
        return store;
      }
      const legacy = await readLegacyStateFile(legacyFile, options.now());
      const { messages, ...small } = legacy ?? { ...seedState(), messages: [] };
      const store = new Store(small, db, options);
      store.writeAll(messages);
      if (legacy === undefined) options.logger.info({ file: store.file }, 'platform state seeded');
      else {
        await renameIfPresent(legacyFile);
        options.logger.info({ file: store.file, from: legacyFile, messages: messages.length }, 'platform state migrated from state.json');
      }
      return store;
    } catch (error) {
      db.close();
      throw error;
    }
  }

  // ---- users

  users(): PlatformUser[] {
    return this.data.users.map(toPlatformUser);
  }

  user(id: string): UserRecord | undefined {
    return this.usersById.get(id);
  }

  userByName(username: string): UserRecord | undefined {
    return this.usersByName.get(username.toLowerCase());
  }

  userByToken(token: string): UserRecord | undefined {
    return this.usersByToken.get(token);
  }

  createUser(username: string): UserRecord {
    const name = username.toLowerCase();
    if (!USERNAME.test(name)) throw new StateError('invalid', 'Username must be 2-32 characters of a-z, 0-9, _ and .', 'username');
    if (this.usersByName.has(name)) throw new StateError('conflict', `Username '${name}' is taken`, 'username');
    const user: UserRecord = { id: this.ids.next(), username: name, global_name: capitalise(name), avatar: null, token: randomToken() };
    this.data.users.push(user);
    this.indexUser(user);
    this.changedRecords('users', user);
    return user;
  }

  /** A provisional account: a generated unique username, the given display name (else none). */
  createProvisionalUser(displayName: string | null): UserRecord {
    const id = this.ids.next();
    const user: UserRecord = { id, username: `provisional_${id}`, global_name: displayName, avatar: null, token: randomToken(), provisional: true };
    this.data.users.push(user);
    this.indexUser(user);
    this.changedRecords('users', user);
    return user;
  }

  /** Forgets a user with everything that names them: friends, requests, blocks, grants and tokens (not messages: see `moveUser`). */
  deleteUser(id: string): void {
    const user = this.user(id);
    if (user === undefined) return;
    for (const friend of this.friendsOf(id)) this.removeFriendship(id, friend);
    this.data.friend_requests = this.friendRequests().filter((pair) => !pair.includes(id)) as [string, string][];
    this.data.blocks = this.blocks().filter((pair) => !pair.includes(id)) as [string, string][];
    this.gameRelationships.forgetUser(id);
    for (const grant of this.grantsOf(id)) this.deleteGrant(grant.id);
    for (const guild of this.data.guilds) guild.members = guild.members.filter((member) => member.user_id !== id);
    this.data.users = this.data.users.filter((record) => record !== user);
    this.usersById.delete(id);
    this.usersByToken.delete(user.token);
    this.usersByName.delete(user.username);
    this.changed('users', 'friend_requests', 'blocks', 'guilds');
  }

  /**
   * A merge's data move: `from`'s friends, pending requests, blocks, game friends and game
   * requests, server memberships, DM channels (a DM with someone `into` already talks to is
   * folded into that one; one with `into` itself goes) and messages become `into`'s.
   */
  moveUser(from: string, into: string): void {
    this.db.transaction(() => this.moveUserData(from, into));
  }

  private moveUserData(from: string, into: string): void {
    for (const friend of this.friendsOf(from)) if (friend !== into) this.addFriendship(into, friend);
    const swap = (pair: readonly [string, string]): [string, string] => [pair[0] === from ? into : pair[0], pair[1] === from ? into : pair[1]];
    this.data.friend_requests = this.friendRequests().map(swap).filter(([a, b]) => a !== b);
    this.data.blocks = this.blocks().map(swap).filter(([a, b]) => a !== b);
    this.gameRelationships.moveUser(from, into, (a, b) => this.hasBlocked(a, b) || this.hasBlocked(b, a));
    for (const guild of this.data.guilds) {
      const member = guild.members.find((entry) => entry.user_id === from);
      if (member === undefined) continue;
      guild.members = guild.members.filter((entry) => entry !== member);
      if (!guild.members.some((entry) => entry.user_id === into)) guild.members.push({ user_id: into, joined_at: member.joined_at });
    }
    for (const channel of this.dmChannels(from)) {
      const other = channel.recipient_ids?.find((id) => id !== from);
      if (other === into) {
        // A conversation with oneself is no conversation: it goes, with its messages.
        this.db.deleteChannel(channel.id);
        this.data.channels = this.data.channels.filter((record) => record !== channel);
        continue;
      }
      if (other === undefined) continue;
      const { channel: target } = this.openDm(into, other);
      this.db.moveChannel(channel.id, target.id);
      this.data.channels = this.data.channels.filter((record) => record !== channel);
    }
    this.db.moveAuthor(from, into);
    this.handedOut.clear();
    this.channelSizes.clear();
    this.changed('friend_requests', 'blocks', 'guilds', 'channels');
  }

  // ---- external identities and bans

  /** Every identity record (change one in place, then `touched()`). */
  identities(): readonly IdentityRecord[] {
    return this.data.identities ?? [];
  }

  addIdentity(identity: IdentityRecord): void {
    this.data.identities = [...this.identities(), identity];
    this.changed('identities');
  }

  ban(userId: string): BanRecord | undefined {
    return (this.data.bans ?? []).find((ban) => ban.user_id === userId);
  }

  bans(): readonly BanRecord[] {
    return this.data.bans ?? [];
  }

  /** Adds or lifts a ban; false when nothing changed. */
  setBan(userId: string, ban: BanRecord | null): boolean {
    const others = this.bans().filter((record) => record.user_id !== userId);
    if (ban === null && others.length === this.bans().length) return false;
    this.data.bans = ban === null ? others : [...others, ban];
    this.changed('bans');
    return true;
  }

  // ---- connected accounts

  /** The user's connected accounts, as stored (the route decides which it returns). */
  connectionsOf(userId: string): ConnectionRecord[] {
    return (this.data.connections ?? []).filter((connection) => connection.user_id === userId);
  }

  // ---- friends

  areFriends(a: string, b: string): boolean {
    return this.friends.get(a)?.has(b) ?? false;
  }

  friendsOf(id: string): string[] {
    return [...(this.friends.get(id) ?? [])];
  }

  /** False when they were friends already. */
  addFriendship(a: string, b: string): boolean {
    this.requireUser(a, 'a');
    this.requireUser(b, 'b');
    if (a === b) throw new StateError('invalid', 'A user cannot befriend themselves', 'b');
    if (this.areFriends(a, b)) return false;
    this.data.friendships.push(a < b ? [a, b] : [b, a]);
    this.linkFriends(a, b);
    this.changed('friendships');
    return true;
  }

  /** Pending friend requests: [from, to]. */
  friendRequests(): readonly (readonly [string, string])[] {
    return this.data.friend_requests ?? [];
  }

  hasFriendRequest(from: string, to: string): boolean {
    return this.friendRequests().some(([x, y]) => x === from && y === to);
  }

  /** False when it was pending already. */
  addFriendRequest(from: string, to: string): boolean {
    if (this.hasFriendRequest(from, to)) return false;
    this.data.friend_requests = [...this.friendRequests(), [from, to]] as [string, string][];
    this.changed('friend_requests');
    return true;
  }

  /** False when there was none. */
  removeFriendRequest(from: string, to: string): boolean {
    if (!this.hasFriendRequest(from, to)) return false;
    this.data.friend_requests = this.friendRequests().filter(([x, y]) => !(x === from && y === to)) as [string, string][];
    this.changed('friend_requests');
    return true;
  }

  /** Blocks: [by, target]. */
  blocks(): readonly (readonly [string, string])[] {
    return this.data.blocks ?? [];
  }

  hasBlocked(by: string, target: string): boolean {
    return this.blocks().some(([x, y]) => x === by && y === target);
  }

  setBlocked(by: string, target: string, blocked: boolean): boolean {
    if (this.hasBlocked(by, target) === blocked) return false;
    this.data.blocks = blocked ? ([...this.blocks(), [by, target]] as [string, string][]) : (this.blocks().filter(([x, y]) => !(x === by && y === target)) as [string, string][]);
    this.changed('blocks');
    return true;
  }

  /** False when they were not friends. */
  removeFriendship(a: string, b: string): boolean {
    this.requireUser(a, 'a');
    this.requireUser(b, 'b');
    if (!this.areFriends(a, b)) return false;
    this.data.friendships = this.data.friendships.filter(([x, y]) => !((x === a && y === b) || (x === b && y === a)));
    this.friends.get(a)?.delete(b);
    this.friends.get(b)?.delete(a);
    this.changed('friendships');
    return true;
  }

  // ---- guilds and channels

  guild(id: string): GuildRecord | undefined {
    return this.data.guilds.find((guild) => guild.id === id);
  }

  guildsOf(userId: string): GuildRecord[] {
    return this.data.guilds.filter((guild) => guild.members.some((member) => member.user_id === userId));
  }

  isMember(guildId: string, userId: string): boolean {
    return this.guild(guildId)?.members.some((member) => member.user_id === userId) ?? false;
  }

  channel(id: string): ChannelRecord | undefined {
    return this.data.channels.find((channel) => channel.id === id);
  }

  guildChannels(guildId: string): ChannelRecord[] {
    return this.data.channels.filter((channel) => channel.guild_id === guildId);
  }

  dmChannels(userId: string): ChannelRecord[] {
    return this.data.channels.filter((channel) => channel.type === 1 && channel.recipient_ids?.includes(userId) === true);
  }

  /** The DM channel of two users; `created` when it did not exist before. */
  openDm(a: string, b: string): { channel: ChannelRecord; created: boolean } {
    const existing = this.data.channels.find(
      (channel) => channel.type === 1 && channel.recipient_ids?.includes(a) === true && channel.recipient_ids.includes(b),
    );
    if (existing !== undefined) return { channel: existing, created: false };
    const channel: ChannelRecord = { id: this.ids.next(), type: 1, recipient_ids: [a, b], status: null, voice_start_time: null };
    this.data.channels.push(channel);
    this.changed('channels');
    return { channel, created: true };
  }

  toPlatformGuild(guild: GuildRecord): PlatformGuild {
    return {
      id: guild.id,
      name: guild.name,
      icon: guild.icon,
      banner: guild.banner ?? null,
      owner_id: guild.owner_id,
      channels: this.guildChannels(guild.id).map((channel) => this.toPlatformChannel(channel)),
      member_count: guild.members.length,
    };
  }

  toPlatformChannel(channel: ChannelRecord): PlatformChannel {
    if (channel.type === 1) {
      return {
        id: channel.id,
        type: 1,
        recipients: (channel.recipient_ids ?? []).flatMap((id) => {
          const user = this.user(id);
          return user === undefined ? [] : [toPlatformUser(user)];
        }),
      };
    }
    return {
      id: channel.id,
      type: channel.type,
      ...(channel.guild_id !== undefined ? { guild_id: channel.guild_id } : {}),
      ...(channel.name !== undefined ? { name: channel.name } : {}),
      ...(channel.position !== undefined ? { position: channel.position } : {}),
      parent_id: channel.parent_id ?? null,
      ...(channel.type === 2 ? { status: channel.status, voice_start_time: channel.voice_start_time } : {}),
    };
  }

  // ---- messages

  /** Stores a new message (committed on return); the channel keeps its newest `messagesPerChannel`. */
  addMessage(message: MessageRecord): void {
    const channel = message.channel_id;
    const size = (this.channelSizes.get(channel) ?? this.db.channelSize(channel)) + 1;
    this.db.transaction(() => {
      this.db.insertMessage(toMessageRow(message));
      if (size > this.options.messagesPerChannel) this.db.trimChannel(channel, this.options.messagesPerChannel);
    });
    this.channelSizes.set(channel, Math.min(size, this.options.messagesPerChannel));
    this.handOut(message);
  }

  /** Saves a message changed in place (`touched()` does it too, for messages read this turn). */
  saveMessage(message: MessageRecord): void {
    const json = JSON.stringify(message);
    this.db.updateMessage(toMessageRow(message));
    this.handedOut.set(message.id, { record: message, json });
  }

  message(channelId: string, id: string): MessageRecord | undefined {
    const found = this.messageById(id);
    return found?.channel_id === channelId ? found : undefined;
  }

  messageById(id: string): MessageRecord | undefined {
    const held = this.handedOut.get(id);
    if (held !== undefined) return held.record;
    const row = this.db.message(id);
    return row === undefined ? undefined : this.handOut(fromMessageRow(row));
  }

  /** Removes the message from its channel; answers it, or undefined when there was none. */
  deleteMessage(channelId: string, id: string): MessageRecord | undefined {
    const found = this.message(channelId, id);
    if (found === undefined) return undefined;
    this.db.deleteMessage(id);
    this.handedOut.delete(id);
    this.channelSizes.delete(channelId);
    return found;
  }

  /** Newest first. */
  messages(channelId: string, limit: number): MessageRecord[] {
    return this.db.newest(channelId, limit).map((row) => this.handedOut.get(row.id)?.record ?? this.handOut(fromMessageRow(row)));
  }

  /** Messages in DMs of `userId` by `authorId`, for invite look-ups. */
  messagesTo(userId: string, authorId: string): MessageRecord[] {
    return this.dmChannels(userId)
      .filter((channel) => channel.recipient_ids?.includes(authorId) === true)
      .flatMap((channel) => this.db.byAuthorIn(channel.id, authorId))
      .map((row) => this.handedOut.get(row.id)?.record ?? this.handOut(fromMessageRow(row)));
  }

  /** Call after changing a record in place: commits it (a message among those read this turn too). */
  touched(): void {
    if (this.closed) return;
    this.db.transaction(() => {
      for (const [id, held] of this.handedOut) {
        const json = JSON.stringify(held.record);
        if (json === held.json) continue;
        this.db.updateMessage(toMessageRow(held.record));
        this.handedOut.set(id, { record: held.record, json });
      }
      this.changed();
    });
  }

  /**
   * Remembers a message read or written this turn, as it was, so that the same id answers the
   * same object and `touched()` can save it when changed in place; forgotten at the next turn.
   */
  private handOut(message: MessageRecord): MessageRecord {
    this.handedOut.set(message.id, { record: message, json: JSON.stringify(message) });
    this.handedOutClear ??= setImmediate(() => {
      this.handedOutClear = undefined;
      this.handedOut.clear();
    });
    return message;
  }

  // ---- applications

  apps(): AppRecord[] {
    return this.data.apps;
  }

  app(id: string): AppRecord | undefined {
    return this.data.apps.find((app) => app.id === id);
  }

  createApp(input: {
    id?: string;
    name: string;
    strict?: boolean;
    verified?: boolean;
    autoRegistered?: boolean;
    approvedScopes?: readonly string[];
    publicClient?: boolean;
    /** Registered on first use and not used yet: forgotten when unused for long (see `forgetUnusedApps`). */
    unused?: boolean;
  }): AppRecord {
    const id = input.id ?? this.ids.next();
    if (!isSnowflake(id)) throw new StateError('invalid', 'Application id must be a snowflake', 'id');
    if (this.app(id) !== undefined) throw new StateError('conflict', `Application ${id} exists`, 'id');
    const name = input.name.trim();
    if (name.length < 2 || name.length > 100) throw new StateError('invalid', 'Name must be 2-100 characters', 'name');
    const app = newApp(id, name, {
      verified: input.verified ?? false,
      autoRegistered: input.autoRegistered ?? false,
      strict: input.strict ?? false,
    });
    app.approved_scopes = [...(input.approvedScopes ?? [])];
    app.public_client = input.publicClient ?? false;
    if (input.unused === true) app.unused_since = this.options.now();
    this.data.apps.push(app);
    this.changedRecords('apps', app);
    return app;
  }

  addAsset(appId: string, name: string, type: number): ApplicationAsset {
    const app = this.requireApp(appId);
    const key = name.toLowerCase();
    if (!/^[a-z0-9_.-]{1,32}$/.test(key)) throw new StateError('invalid', 'Asset name must be 1-32 characters of a-z, 0-9, _ . -', 'name');
    if (type !== 1 && type !== 2) throw new StateError('invalid', 'Asset type must be 1 (small) or 2 (large)', 'type');
    if (app.assets.some((asset) => asset.name === key)) throw new StateError('conflict', `Asset '${key}' exists`, 'name');
    const asset: ApplicationAsset = { id: this.ids.next(), name: key, type };
    app.assets.push(asset);
    delete app.unused_since;
    this.changedRecords('apps', app);
    return asset;
  }

  removeAsset(appId: string, name: string): void {
    const app = this.requireApp(appId);
    const index = app.assets.findIndex((asset) => asset.name === name.toLowerCase());
    if (index < 0) throw new StateError('not_found', `Unknown asset '${name}'`, 'name');
    app.assets.splice(index, 1);
    this.changedRecords('apps', app);
  }

  /** Changes an app's settings; the caller validated the values. */
  updateApp(
    id: string,
    patch: {
      name?: string;
      public_client?: boolean;
      redirect_uris?: string[];
      approved_scopes?: string[];
      webhook_events_url?: string | null;
      external_auth?: ExternalAuthProvider[];
      parent_application_id?: string | null;
      executables?: DetectableExecutable[];
    },
  ): AppRecord {
    const app = this.requireApp(id);
    if (patch.name !== undefined) {
      const name = patch.name.trim();
      if (name.length < 2 || name.length > 100) throw new StateError('invalid', 'Name must be 2-100 characters', 'name');
      app.name = name;
    }
    if (patch.public_client !== undefined) app.public_client = patch.public_client;
    if (patch.redirect_uris !== undefined) app.redirect_uris = [...patch.redirect_uris];
    if (patch.approved_scopes !== undefined) app.approved_scopes = [...patch.approved_scopes];
    if (patch.webhook_events_url !== undefined) app.webhook_events_url = patch.webhook_events_url;
    if (patch.external_auth !== undefined) app.external_auth = [...patch.external_auth];
    if (patch.parent_application_id !== undefined) app.parent_application_id = patch.parent_application_id;
    if (patch.executables !== undefined) app.executables = patch.executables.map((executable) => ({ ...executable }));
    delete app.unused_since;
    this.changedRecords('apps', app);
    return app;
  }

  /** Apps registered on first use, used or not. */
  autoRegisteredCount(): number {
    let count = 0;
    for (const app of this.data.apps) if (app.auto_registered) count += 1;
    return count;
  }

  /** Something used the app (e.g. an activity named it): it is no longer forgotten when idle. */
  markAppUsed(id: string): void {
    const app = this.app(id);
    if (app?.unused_since === undefined) return;
    delete app.unused_since;
    this.changedRecords('apps', app);
  }

  /** An unused app was asked for again: its idle time starts over. */
  refreshUnusedApp(app: AppRecord): void {
    if (app.unused_since === undefined) return;
    app.unused_since = this.options.now();
    this.changedRecords('apps', app);
  }

  /** When the longest-unused app registered on first use became unused (epoch ms), or undefined when none is (no forgetting timer is needed). */
  oldestUnusedSince(): number | undefined {
    let oldest: number | undefined;
    for (const app of this.data.apps) if (app.unused_since !== undefined && (oldest === undefined || app.unused_since < oldest)) oldest = app.unused_since;
    return oldest;
  }

  /** Forgets the unused apps idle since before `before` (epoch ms); returns how many. */
  forgetUnusedApps(before: number): number {
    const kept = this.data.apps.filter((app) => app.unused_since === undefined || app.unused_since >= before);
    const forgotten = this.data.apps.length - kept.length;
    if (forgotten > 0) {
      this.data.apps = kept;
      this.changed('apps');
    }
    return forgotten;
  }

  /** Every guild's voice channels. */
  voiceChannels(): ChannelRecord[] {
    return this.data.channels.filter((channel) => channel.type === 2);
  }

  /** Sets a voice channel's status text and/or the start time of its current call (committed on return). */
  setVoiceChannelInfo(channelId: string, patch: { readonly status?: string | null; readonly voice_start_time?: number | null }): ChannelRecord {
    const channel = this.channel(channelId);
    if (channel === undefined || channel.type !== 2) throw new StateError('not_found', `Unknown voice channel ${channelId}`, 'channel_id');
    if (patch.status !== undefined) channel.status = patch.status;
    if (patch.voice_start_time !== undefined) channel.voice_start_time = patch.voice_start_time;
    this.changed('channels');
    return channel;
  }

  /** Adds a member to a guild; false when they were one already. */
  addGuildMember(guildId: string, userId: string): boolean {
    const guild = this.guild(guildId);
    if (guild === undefined) throw new StateError('not_found', `Unknown guild ${guildId}`, 'guild_id');
    this.requireUser(userId, 'user_id');
    if (guild.members.some((member) => member.user_id === userId)) return false;
    guild.members.push({ user_id: userId, joined_at: new Date(this.options.now()).toISOString() });
    this.changed('guilds');
    return true;
  }

  updateGuild(id: string, patch: { name?: string; icon?: string | null }): GuildRecord {
    const guild = this.guild(id);
    if (guild === undefined) throw new StateError('not_found', `Unknown guild ${id}`, 'id');
    if (patch.name !== undefined) {
      const name = patch.name.trim();
      if (name.length < 2 || name.length > 100) throw new StateError('invalid', 'Name must be 2-100 characters', 'name');
      guild.name = name;
    }
    if (patch.icon !== undefined) guild.icon = patch.icon;
    this.changed('guilds');
    return guild;
  }

  // ---- OAuth2 grants, codes and tokens

  grant(id: string): GrantRecord | undefined {
    return this.data.grants.find((grant) => grant.id === id);
  }

  grantsOf(userId: string): GrantRecord[] {
    return this.data.grants.filter((grant) => grant.user_id === userId);
  }

  grantFor(userId: string, applicationId: string): GrantRecord | undefined {
    return this.data.grants.find((grant) => grant.user_id === userId && grant.application_id === applicationId);
  }

  /** Records the grant, or widens the existing one with new scopes (and the integration type, when given). */
  upsertGrant(userId: string, applicationId: string, scopes: readonly string[], integrationType: number | null): GrantRecord {
    let grant = this.grantFor(userId, applicationId);
    if (grant === undefined) {
      grant = { id: this.ids.next(), user_id: userId, application_id: applicationId, scopes: [...scopes], integration_type: integrationType, created_at: new Date(this.options.now()).toISOString() };
      this.data.grants.push(grant);
    } else {
      for (const scope of scopes) if (!grant.scopes.includes(scope)) grant.scopes.push(scope);
      if (integrationType !== null) grant.integration_type = integrationType;
    }
    const app = this.app(applicationId);
    this.db.transaction(() => {
      this.changedRecords('grants', grant);
      if (app?.unused_since === undefined) return;
      delete app.unused_since;
      this.changedRecords('apps', app);
    });
    return grant;
  }

  /** Removes the grant with every code and token issued under it; undefined when unknown. */
  deleteGrant(id: string): GrantRecord | undefined {
    const grant = this.grant(id);
    if (grant === undefined) return undefined;
    this.data.grants = this.data.grants.filter((g) => g !== grant);
    this.data.codes = this.data.codes.filter((code) => code.grant_id !== id);
    this.data.tokens = this.data.tokens.filter((token) => token.grant_id !== id);
    this.changed('grants', 'codes', 'tokens');
    return grant;
  }

  addCode(code: CodeRecord): void {
    const now = this.options.now();
    this.data.codes = this.data.codes.filter((c) => c.expires_at > now);
    this.data.codes.push(code);
    this.changed('codes');
  }

  /** The live code with that hash (expired ones are dropped). */
  code(hash: string): CodeRecord | undefined {
    const code = this.data.codes.find((c) => c.code_hash === hash);
    if (code === undefined || code.expires_at > this.options.now()) return code;
    this.deleteCode(hash);
    return undefined;
  }

  deleteCode(hash: string): void {
    this.data.codes = this.data.codes.filter((c) => c.code_hash !== hash);
    this.changed('codes');
  }

  addToken(token: TokenRecord): void {
    this.data.tokens.push(token);
    this.changedRecords('tokens', token);
  }

  tokenByAccess(hash: string): TokenRecord | undefined {
    return this.data.tokens.find((token) => token.access_hash === hash);
  }

  tokenByRefresh(hash: string): TokenRecord | undefined {
    return this.data.tokens.find((token) => token.refresh_hash === hash);
  }

  deleteToken(id: string): void {
    this.data.tokens = this.data.tokens.filter((token) => token.id !== id);
    this.changed('tokens');
  }

  oidcKey(): OidcKeyRecord | null {
    return this.data.oidc_key;
  }

  setOidcKey(key: OidcKeyRecord): void {
    this.data.oidc_key = key;
    if (!this.closed) this.commit(null);
  }

  // ---- persistence

  /**
   * Every change is committed when the method that made it returns; this also moves the WAL
   * into the database file, so that `state.db` alone holds everything (a copy of it is whole).
   */
  async flush(): Promise<void> {
    if (this.closed) return;
    this.commit([]);
    this.db.checkpoint();
    await Promise.resolve();
  }

  /** Commits what `touched()` callers changed in place, then closes the database. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.commit([]);
    this.closed = true;
    clearImmediate(this.handedOutClear);
    this.db.close();
    await Promise.resolve();
  }

  /**
   * Commits the named collections' changed records (none named: every collection's, which costs
   * a look at the whole small state). A new array field of the state gets record-level writes
   * once it is listed in state-records.ts (KEY_OF); until then it is written whole.
   */
  private changed(...collections: Collection[]): void {
    if (this.closed) return;
    this.commit(collections);
  }

  /** Commits the named collections' changed records (null: only the scalars, last id and key). */
  private commit(collections: readonly Collection[] | null): void {
    this.data.last_id = this.ids.lastId;
    if (collections !== null) this.records.mark(collections);
    this.records.commit();
  }

  /** Commits records added or changed in place, without looking at the rest of their collection. */
  private changedRecords(collection: Collection, ...records: readonly object[]): void {
    if (this.closed) return;
    this.data.last_id = this.ids.lastId;
    this.records.commitRecords(collection, records);
  }

  /** The first write of a fresh database: the whole small state and the messages, in one transaction. */
  private writeAll(messages: readonly MessageRecord[]): void {
    this.db.transaction(() => {
      for (const message of messages) this.db.insertMessage(toMessageRow(message));
      this.commit([]);
    });
  }

  private requireUser(id: string, field: string): UserRecord {
    const user = this.user(id);
    if (user === undefined) throw new StateError('not_found', `Unknown user ${id}`, field);
    return user;
  }

  private requireApp(id: string): AppRecord {
    const app = this.app(id);
    if (app === undefined) throw new StateError('not_found', `Unknown application ${id}`, 'id');
    return app;
  }

  private indexUser(user: UserRecord): void {
    this.usersById.set(user.id, user);
    this.usersByToken.set(user.token, user);
    this.usersByName.set(user.username, user);
  }

  private linkFriends(a: string, b: string): void {
    for (const [x, y] of [
      [a, b],
      [b, a],
    ] as const) {
      let set = this.friends.get(x);
      if (set === undefined) this.friends.set(x, (set = new Set()));
      set.add(y);
    }
  }
}

export function toPlatformUser(user: UserRecord): PlatformUser {
  return {
    id: user.id,
    username: user.username,
    discriminator: '0',
    global_name: user.global_name,
    avatar: user.avatar,
    bot: false,
    flags: 0,
    premium_type: 0,
    ...(user.provisional === true ? { provisional: true } : {}),
  };
}

function capitalise(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

function newApp(id: string, name: string, flags: { verified: boolean; autoRegistered: boolean; strict: boolean }): AppRecord {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const spki = publicKey.export({ format: 'der', type: 'spki' });
  return {
    id,
    name,
    icon: null,
    description: '',
    cover_image: null,
    redirect_uris: [],
    public_client: false,
    verified: flags.verified,
    auto_registered: flags.autoRegistered,
    strict: flags.strict,
    approved_scopes: [],
    rpc_origins: [],
    assets: [],
    webhook_events_url: null,
    client_secret: randomToken(),
    bot_token: randomToken(),
    // The raw key is the last 32 bytes of the SPKI encoding.
    public_key: spki.subarray(spki.length - 32).toString('hex'),
    private_key: privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64'),
  };
}

function seedState(): StateFile {
  const names = Object.keys(SEED.users) as (keyof typeof SEED.users)[];
  const users: UserRecord[] = names.map((name) => ({
    id: SEED.users[name],
    username: name,
    global_name: capitalise(name),
    avatar: null,
    token: randomToken(),
  }));
  const friendships: [string, string][] = [];
  for (let i = 0; i < users.length; i += 1) {
    for (let j = i + 1; j < users.length; j += 1) {
      const a = (users[i] as UserRecord).id;
      const b = (users[j] as UserRecord).id;
      friendships.push(a < b ? [a, b] : [b, a]);
    }
  }
  const guildId = SEED.guildId;
  const channels: ChannelRecord[] = [
    { id: SEED.channels.general, type: 0, guild_id: guildId, name: 'general', position: 0, parent_id: null, status: null, voice_start_time: null },
    { id: SEED.channels.voice, type: 2, guild_id: guildId, name: 'Voice', position: 1, parent_id: null, status: null, voice_start_time: null },
    { id: SEED.channels.party, type: 2, guild_id: guildId, name: 'Party', position: 2, parent_id: null, status: null, voice_start_time: null },
  ];
  const app = newApp(SEED.appId, SEED.appName, { verified: true, autoRegistered: false, strict: false });
  app.description = 'The demo game of the Companion platform emulator.';
  app.public_client = true;
  app.redirect_uris = ['http://127.0.0.1/callback', `discord-${SEED.appId}:/authorize/callback`];
  app.approved_scopes = ['rpc', 'rpc.activities.write'];
  // The test provider's types, so QA can mint external tokens at once (OIDC needs an issuer) **(ours)**.
  app.external_auth = TEST_PROVIDER_TYPES.map((type) => ({ type }));
  app.assets = [
    { id: SEED.assets.logo, name: 'logo', type: 1 },
    { id: SEED.assets.cover, name: 'cover', type: 2 },
  ];
  app.icon = SEED.assets.logo;
  app.cover_image = SEED.assets.cover;
  app.executables = SEED.executables.map((executable) => ({ ...executable }));
  return {
    version: 1,
    last_id: '0',
    users,
    friendships,
    guilds: [
      {
        id: guildId,
        name: SEED.guildName,
        icon: null,
        banner: SEED.guildBanner,
        owner_id: SEED.users.alice,
        members: users.map((user) => ({ user_id: user.id, joined_at: SEED.joinedAt })),
      },
    ],
    channels,
    messages: [],
    connections: seedConnections(),
    apps: [app],
    grants: [],
    codes: [],
    tokens: [],
    oidc_key: null,
    app_use_tracked: true,
  };
}

/** A message as the database keeps it: the queried fields as columns, the rest as JSON. */
export function toMessageRow(message: MessageRecord): MessageRow {
  const { id, channel_id, author_id, ...rest } = message;
  return { id, channel_id, author_id, body: JSON.stringify(rest) };
}

export function fromMessageRow(row: MessageRow): MessageRecord {
  return { id: row.id, channel_id: row.channel_id, author_id: row.author_id, ...(JSON.parse(row.body) as Omit<MessageRecord, 'id' | 'channel_id' | 'author_id'>) };
}

/** The database, or CorruptStateError when the file is not one (the emulator refuses to start rather than overwrite it). */
function openStateDb(file: string): StateDb {
  try {
    return StateDb.open(file);
  } catch (error) {
    // A file system error stands; SQLite's own (node:sqlite tags its errors ERR_SQLITE_ERROR) means not a database.
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== undefined && code !== 'ERR_SQLITE_ERROR') throw error;
    throw new CorruptStateError(file, error instanceof Error ? error.message : String(error));
  }
}

async function renameIfPresent(file: string): Promise<void> {
  try {
    await rename(file, `${file}${MIGRATED_SUFFIX}`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
