import { generateKeyPairSync } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { PlatformLogger } from '../support/logger.js';
import { removeStrayTemps, writeFileAtomic } from '../../../common/src/node/atomic-file.js';
import type { ApplicationAsset, PlatformChannel, PlatformGuild, PlatformUser } from '../wire/index.js';
import { GameRelationshipRecords } from './game-relationship-records.js';
import { isSnowflake, randomToken, SnowflakeGenerator } from './ids.js';
import { TEST_PROVIDER_TYPES } from './model.js';
import type { AppRecord, BanRecord, ChannelRecord, ExternalAuthProvider, CodeRecord, ConnectionRecord, GrantRecord, GuildRecord, IdentityRecord, MessageRecord, OidcKeyRecord, StateFile, TokenRecord, UserRecord } from './model.js';
import { SEED } from './seed.js';
import { seedConnections } from './seed-connections.js';

export const STATE_FILE_NAME = 'state.json';

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

/** A state.json that cannot be read: the emulator refuses to start rather than overwrite it. */
export class CorruptStateError extends Error {
  constructor(
    readonly file: string,
    reason: string,
  ) {
    super(`cannot read ${file}: ${reason}; move it aside to start with fresh seeded data`);
    this.name = 'CorruptStateError';
  }
}

export interface StoreOptions {
  readonly dataDir: string;
  readonly now: () => number;
  readonly persistDebounceMs: number;
  readonly messagesPerChannel: number;
  readonly logger: PlatformLogger;
}

const USERNAME = /^[a-z0-9_.]{2,32}$/;

/**
 * The emulator's persistent model: users, friendships, guilds, channels, DM messages (with
 * their invites) and applications. Every change schedules a debounced atomic write.
 */
export class Store {
  private readonly usersById = new Map<string, UserRecord>();
  private readonly usersByToken = new Map<string, UserRecord>();
  private readonly usersByName = new Map<string, UserRecord>();
  private readonly friends = new Map<string, Set<string>>();
  readonly ids: SnowflakeGenerator;
  /** Game friendships and game friend requests, per application. */
  readonly gameRelationships: GameRelationshipRecords;
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  private dirty = false;
  private closed = false;

  private constructor(
    private readonly data: StateFile,
    private readonly options: StoreOptions,
  ) {
    this.ids = new SnowflakeGenerator(options.now, BigInt(data.last_id));
    this.gameRelationships = new GameRelationshipRecords(data, () => this.changed());
    for (const user of data.users) this.indexUser(user);
    for (const [a, b] of data.friendships) this.linkFriends(a, b);
  }

  get file(): string {
    return path.join(this.options.dataDir, STATE_FILE_NAME);
  }

  /** Loads `state.json`, or seeds a fresh state (written at once) when there is none. */
  static async open(options: StoreOptions): Promise<Store> {
    await mkdir(options.dataDir, { recursive: true, mode: 0o700 });
    const file = path.join(options.dataDir, STATE_FILE_NAME);
    // Only the emulator that claimed the data dir writes state.json: every temp beside it is
    // left by an interrupted write (never read; the renamed file is whole).
    const removed = await removeStrayTemps(file, () => true);
    if (removed.length > 0) options.logger.info({ file, removed: removed.length }, 'platform state: removed temp files left by interrupted writes');
    let text: string | undefined;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    if (text === undefined) {
      const store = new Store(seedState(), options);
      store.dirty = true;
      await store.flush();
      options.logger.info({ file }, 'platform state seeded');
      return store;
    }
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      throw new CorruptStateError(file, 'not valid JSON');
    }
    if (!isStateFile(data)) throw new CorruptStateError(file, 'not an emulator state (version 1)');
    const migrated = migrate(data, options.now());
    const store = new Store(data, options);
    if (migrated) store.changed();
    return store;
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
    this.changed();
    return user;
  }

  /** A provisional account: a generated unique username, the given display name (else none). */
  createProvisionalUser(displayName: string | null): UserRecord {
    const id = this.ids.next();
    const user: UserRecord = { id, username: `provisional_${id}`, global_name: displayName, avatar: null, token: randomToken(), provisional: true };
    this.data.users.push(user);
    this.indexUser(user);
    this.changed();
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
    this.changed();
  }

  /**
   * A merge's data move: `from`'s friends, pending requests, blocks, game friends and game
   * requests, server memberships, DM channels (a DM with someone `into` already talks to is
   * folded into that one; one with `into` itself goes) and messages become `into`'s.
   */
  moveUser(from: string, into: string): void {
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
        this.data.messages = this.data.messages.filter((message) => message.channel_id !== channel.id);
        this.data.channels = this.data.channels.filter((record) => record !== channel);
        continue;
      }
      if (other === undefined) continue;
      const { channel: target } = this.openDm(into, other);
      for (const message of this.data.messages) if (message.channel_id === channel.id) Object.assign(message, { channel_id: target.id });
      this.data.channels = this.data.channels.filter((record) => record !== channel);
    }
    for (const message of this.data.messages) if (message.author_id === from) Object.assign(message, { author_id: into });
    this.changed();
  }

  // ---- external identities and bans

  /** Every identity record (change one in place, then `touched()`). */
  identities(): readonly IdentityRecord[] {
    return this.data.identities ?? [];
  }

  addIdentity(identity: IdentityRecord): void {
    this.data.identities = [...this.identities(), identity];
    this.changed();
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
    this.changed();
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
    this.changed();
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
    this.changed();
    return true;
  }

  /** False when there was none. */
  removeFriendRequest(from: string, to: string): boolean {
    if (!this.hasFriendRequest(from, to)) return false;
    this.data.friend_requests = this.friendRequests().filter(([x, y]) => !(x === from && y === to)) as [string, string][];
    this.changed();
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
    this.changed();
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
    this.changed();
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
    this.changed();
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

  addMessage(message: MessageRecord): void {
    this.data.messages.push(message);
    const inChannel = this.data.messages.filter((m) => m.channel_id === message.channel_id);
    const excess = inChannel.length - this.options.messagesPerChannel;
    if (excess > 0) {
      const drop = new Set(inChannel.slice(0, excess));
      this.data.messages = this.data.messages.filter((m) => !drop.has(m));
    }
    this.changed();
  }

  message(channelId: string, id: string): MessageRecord | undefined {
    return this.data.messages.find((m) => m.id === id && m.channel_id === channelId);
  }

  messageById(id: string): MessageRecord | undefined {
    return this.data.messages.find((m) => m.id === id);
  }

  /** Removes the message from its channel; answers it, or undefined when there was none. */
  deleteMessage(channelId: string, id: string): MessageRecord | undefined {
    const found = this.message(channelId, id);
    if (found === undefined) return undefined;
    this.data.messages = this.data.messages.filter((m) => m !== found);
    this.changed();
    return found;
  }

  /** Newest first. */
  messages(channelId: string, limit: number): MessageRecord[] {
    return this.data.messages.filter((m) => m.channel_id === channelId).slice(-limit).reverse();
  }

  /** Messages in DMs of `userId`, for invite look-ups. */
  messagesTo(userId: string, authorId: string): MessageRecord[] {
    const channels = new Set(
      this.dmChannels(userId)
        .filter((channel) => channel.recipient_ids?.includes(authorId) === true)
        .map((channel) => channel.id),
    );
    return this.data.messages.filter((m) => channels.has(m.channel_id) && m.author_id === authorId);
  }

  /** Call after changing a record in place. */
  touched(): void {
    this.changed();
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
    this.changed();
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
    this.changed();
    return asset;
  }

  removeAsset(appId: string, name: string): void {
    const app = this.requireApp(appId);
    const index = app.assets.findIndex((asset) => asset.name === name.toLowerCase());
    if (index < 0) throw new StateError('not_found', `Unknown asset '${name}'`, 'name');
    app.assets.splice(index, 1);
    this.changed();
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
    delete app.unused_since;
    this.changed();
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
    this.changed();
  }

  /** An unused app was asked for again: its idle time starts over. */
  refreshUnusedApp(app: AppRecord): void {
    if (app.unused_since === undefined) return;
    app.unused_since = this.options.now();
    this.changed();
  }

  /** Forgets the unused apps idle since before `before` (epoch ms); returns how many. */
  forgetUnusedApps(before: number): number {
    const kept = this.data.apps.filter((app) => app.unused_since === undefined || app.unused_since >= before);
    const forgotten = this.data.apps.length - kept.length;
    if (forgotten > 0) {
      this.data.apps = kept;
      this.changed();
    }
    return forgotten;
  }

  /** Adds a member to a guild; false when they were one already. */
  addGuildMember(guildId: string, userId: string): boolean {
    const guild = this.guild(guildId);
    if (guild === undefined) throw new StateError('not_found', `Unknown guild ${guildId}`, 'guild_id');
    this.requireUser(userId, 'user_id');
    if (guild.members.some((member) => member.user_id === userId)) return false;
    guild.members.push({ user_id: userId, joined_at: new Date(this.options.now()).toISOString() });
    this.changed();
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
    this.changed();
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
    if (app !== undefined) delete app.unused_since;
    this.changed();
    return grant;
  }

  /** Removes the grant with every code and token issued under it; undefined when unknown. */
  deleteGrant(id: string): GrantRecord | undefined {
    const grant = this.grant(id);
    if (grant === undefined) return undefined;
    this.data.grants = this.data.grants.filter((g) => g !== grant);
    this.data.codes = this.data.codes.filter((code) => code.grant_id !== id);
    this.data.tokens = this.data.tokens.filter((token) => token.grant_id !== id);
    this.changed();
    return grant;
  }

  addCode(code: CodeRecord): void {
    const now = this.options.now();
    this.data.codes = this.data.codes.filter((c) => c.expires_at > now);
    this.data.codes.push(code);
    this.changed();
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
    this.changed();
  }

  addToken(token: TokenRecord): void {
    this.data.tokens.push(token);
    this.changed();
  }

  tokenByAccess(hash: string): TokenRecord | undefined {
    return this.data.tokens.find((token) => token.access_hash === hash);
  }

  tokenByRefresh(hash: string): TokenRecord | undefined {
    return this.data.tokens.find((token) => token.refresh_hash === hash);
  }

  deleteToken(id: string): void {
    this.data.tokens = this.data.tokens.filter((token) => token.id !== id);
    this.changed();
  }

  oidcKey(): OidcKeyRecord | null {
    return this.data.oidc_key;
  }

  setOidcKey(key: OidcKeyRecord): void {
    this.data.oidc_key = key;
    this.changed();
  }

  // ---- persistence

  /** Writes pending changes now (and waits for a write in progress). */
  async flush(): Promise<void> {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.dirty) {
      this.dirty = false;
      this.data.last_id = this.ids.lastId;
      const text = JSON.stringify(this.data, null, 2);
      this.writing = this.writing.then(() => writeFileAtomic(this.file, text)).catch((error: unknown) => {
        this.options.logger.error({ file: this.file, error: error instanceof Error ? error.message : String(error) }, 'platform state write failed');
      });
    }
    await this.writing;
  }

  /** Flushes and stops scheduling writes. */
  async close(): Promise<void> {
    this.closed = true;
    await this.flush();
  }

  private changed(): void {
    this.dirty = true;
    if (this.closed || this.timer !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, this.options.persistDebounceMs);
    this.timer.unref();
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

/**
 * Fills what files written before OAuth2 lack, and marks apps registered on first use that
 * show no sign of use (no asset, no grant, the placeholder name) as unused since `now`, so
 * the idle ones of files written before registration was bounded are forgotten; true when
 * something changed.
 */
function migrate(data: StateFile, now: number): boolean {
  const raw = data as unknown as Record<string, unknown>;
  let changed = false;
  for (const key of ['grants', 'codes', 'tokens'] as const) {
    if (!Array.isArray(raw[key])) {
      raw[key] = [];
      changed = true;
    }
  }
  if (raw.oidc_key === undefined) {
    raw.oidc_key = null;
    changed = true;
  }
  for (const app of data.apps) {
    if (typeof app.client_secret !== 'string') {
      app.client_secret = randomToken();
      changed = true;
    }
    // Added after version 1 shipped: apps of older files get one.
    if (typeof app.bot_token !== 'string') {
      app.bot_token = randomToken();
      changed = true;
    }
  }
  if (data.app_use_tracked !== true) {
    const granted = new Set(data.grants.map((grant) => grant.application_id));
    for (const app of data.apps) if (looksUnused(app, granted)) app.unused_since = now;
    data.app_use_tracked = true;
    changed = true;
  }
  return changed;
}

/** An app registered on first use by an emulator that did not track use, with nothing that shows use. */
function looksUnused(app: AppRecord, granted: ReadonlySet<string>): boolean {
  if (!app.auto_registered || app.verified) return false;
  return app.assets.length === 0 && !granted.has(app.id) && app.name === `Application ${app.id}` && app.webhook_events_url === null && app.redirect_uris.length === 0;
}

function isStateFile(value: unknown): value is StateFile {
  if (typeof value !== 'object' || value === null) return false;
  const data = value as Record<string, unknown>;
  return (
    data.version === 1 &&
    typeof data.last_id === 'string' &&
    ['users', 'friendships', 'guilds', 'channels', 'messages', 'apps'].every((key) => Array.isArray(data[key]))
  );
}
