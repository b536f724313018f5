import type { GatewayServer, SessionInfo } from '../gateway/server.js';
import type { PresenceHub } from '../gateway/presence.js';
import type { Dispatcher } from '../gateway/sessions.js';
import { providersProblem } from '../provisional/provider-config.js';
import type { AppRecord, ExternalAuthProvider, UserRecord } from '../state/model.js';
import { StateError, toPlatformUser, type Store } from '../state/store.js';
import { GatewayEvent, KNOWN_SCOPES, RelationshipType, type ApplicationAsset, type DetectableExecutable, type PlatformGuild, type PlatformUser } from '../wire/index.js';

/** What `PATCH /_emulator/apps/{id}` may change. */
export interface AppPatch {
  readonly name?: string;
  readonly public_client?: boolean;
  readonly redirect_uris?: readonly string[];
  readonly approved_scopes?: readonly string[];
  readonly webhook_events_url?: string | null;
  /** Identity providers for provisional accounts. */
  readonly external_auth?: readonly ExternalAuthProvider[];
  /** Makes the app a game (child) of a publisher application; null makes it standalone again. */
  readonly parent_application_id?: string | null;
  /** How the player's client recognises the game among running programs (replaces the list). */
  readonly executables?: readonly DetectableExecutable[];
}

/** An application as the admin API shows it: everything but the private key. */
export interface AdminApp {
  readonly id: string;
  readonly name: string;
  readonly icon: string | null;
  readonly description: string;
  readonly cover_image: string | null;
  readonly redirect_uris: readonly string[];
  readonly public_client: boolean;
  readonly verified: boolean;
  readonly auto_registered: boolean;
  readonly strict: boolean;
  readonly approved_scopes: readonly string[];
  readonly assets: readonly ApplicationAsset[];
  readonly webhook_events_url: string | null;
  /** The OAuth2 client secret: shown here (admin only), never logged. */
  readonly client_secret: string;
  /** The bot token of the server APIs (lobbies): shown here (admin only), never logged. */
  readonly bot_token: string;
  readonly public_key: string;
  /** What `GET /applications/detectable` serves of the app (empty: it is not detected). */
  readonly executables: readonly DetectableExecutable[];
}

export function toAdminApp(app: AppRecord): AdminApp {
  const { private_key: _privateKey, rpc_origins: _origins, ...rest } = app;
  return { ...rest, executables: app.executables ?? [] };
}

/**
 * The emulator's administration: what `/_emulator` serves and what in-process users (tests,
 * the embedded host) call directly. Changes that concern clients are dispatched to them.
 */
export class PlatformAdmin {
  constructor(
    private readonly store: Store,
    private readonly dispatcher: Dispatcher,
    private readonly presence: PresenceHub,
    private readonly gateway: GatewayServer,
    /** Sends a PING to an app's webhook URL. */
    private readonly pingWebhook: (app: AppRecord) => void = () => undefined,
  ) {}

  users(): PlatformUser[] {
    return this.store.users();
  }

  createUser(username: string): PlatformUser {
    return toPlatformUser(this.store.createUser(username));
  }

  /** A user by id or username. */
  findUser(idOrName: string): UserRecord | undefined {
    return this.store.user(idOrName) ?? this.store.userByName(idOrName);
  }

  /** Makes two users (ids or usernames) friends: RELATIONSHIP_ADD and presences to both. */
  addFriends(a: string, b: string): { added: boolean } {
    const [userA, userB] = [this.requireUser(a, 'a'), this.requireUser(b, 'b')];
    const added = this.store.addFriendship(userA.id, userB.id);
    if (added) {
      for (const [user, other] of [
        [userA, userB],
        [userB, userA],
      ] as const) {
        this.dispatcher.dispatchToUser(user.id, GatewayEvent.RelationshipAdd, { id: other.id, type: RelationshipType.Friend, user: toPlatformUser(other) });
        this.presence.sendTo(other.id, user.id);
      }
    }
    return { added };
  }

  /** Ends a friendship: RELATIONSHIP_REMOVE to both. */
  removeFriends(a: string, b: string): { removed: boolean } {
    const [userA, userB] = [this.requireUser(a, 'a'), this.requireUser(b, 'b')];
    const removed = this.store.removeFriendship(userA.id, userB.id);
    if (removed) {
      this.dispatcher.dispatchToUser(userA.id, GatewayEvent.RelationshipRemove, { id: userB.id, type: RelationshipType.Friend });
      this.dispatcher.dispatchToUser(userB.id, GatewayEvent.RelationshipRemove, { id: userA.id, type: RelationshipType.Friend });
    }
    return { removed };
  }

  apps(): AdminApp[] {
    return this.store.apps().map(toAdminApp);
  }

  createApp(input: { id?: string; name: string; strict?: boolean }): AdminApp {
    return toAdminApp(this.store.createApp({ ...input, verified: true }));
  }

  /** Changes an app; setting a webhook URL sends it a PING. */
  patchApp(id: string, patch: AppPatch): AdminApp {
    for (const uri of patch.redirect_uris ?? []) {
      if (!isUrl(uri) || uri.includes('#')) throw new StateError('invalid', `Invalid redirect URI '${uri}'`, 'redirect_uris');
    }
    for (const scope of patch.approved_scopes ?? []) {
      if (!(KNOWN_SCOPES as readonly string[]).includes(scope)) throw new StateError('invalid', `Unknown scope '${scope}'`, 'approved_scopes');
    }
    const url = patch.webhook_events_url;
    if (url !== undefined && url !== null && !(isUrl(url) && /^https?:$/.test(new URL(url).protocol))) {
      throw new StateError('invalid', 'The webhook URL must be an http(s) URL', 'webhook_events_url');
    }
    const providers = patch.external_auth === undefined ? null : providersProblem(patch.external_auth);
    if (providers !== null) throw new StateError('invalid', providers.message, providers.field);
    const parent = patch.parent_application_id;
    if (parent !== undefined && parent !== null && (parent === id || this.store.app(parent) === undefined || this.store.app(parent)?.parent_application_id)) {
      throw new StateError('invalid', 'The parent must be another application that is not itself a child', 'parent_application_id');
    }
    if (parent !== undefined && parent !== null && this.store.apps().some((app) => app.parent_application_id === id)) {
      throw new StateError('invalid', 'A publisher with games of its own cannot become a game of another', 'parent_application_id');
    }
    const app = this.store.updateApp(id, {
      ...(patch.external_auth !== undefined ? { external_auth: [...patch.external_auth] } : {}),
      ...(parent !== undefined ? { parent_application_id: parent } : {}),
      ...(patch.name !== undefined ? { name: patch.name } : {}),
      ...(patch.public_client !== undefined ? { public_client: patch.public_client } : {}),
      ...(patch.redirect_uris !== undefined ? { redirect_uris: [...patch.redirect_uris] } : {}),
      ...(patch.approved_scopes !== undefined ? { approved_scopes: [...new Set(patch.approved_scopes)] } : {}),
      ...(url !== undefined ? { webhook_events_url: url } : {}),
      ...(patch.executables !== undefined ? { executables: normaliseExecutables(patch.executables) } : {}),
    });
    if (url !== undefined && url !== null) this.pingWebhook(app);
    return toAdminApp(app);
  }

  /** Renames a guild or changes its icon: GUILD_UPDATE to every member's sessions. */
  patchGuild(id: string, patch: { name?: string; icon?: string | null }): PlatformGuild {
    const guild = this.store.updateGuild(id, patch);
    const view = this.store.toPlatformGuild(guild);
    for (const member of guild.members) this.dispatcher.dispatchToUser(member.user_id, GatewayEvent.GuildUpdate, view);
    return view;
  }

  addAsset(appId: string, name: string, type = 2): ApplicationAsset {
    return this.store.addAsset(appId, name, type);
  }

  removeAsset(appId: string, name: string): void {
    this.store.removeAsset(appId, name);
  }

  /** Op 7 to every connected session, or the user's; the count of sessions told. */
  reconnect(userId?: string): number {
    return this.gateway.reconnect(userId);
  }

  /** Drops every gateway connection without a close frame; sessions stay resumable. */
  kill(): number {
    return this.gateway.kill();
  }

  sessions(): SessionInfo[] {
    return this.gateway.sessions();
  }

  private requireUser(idOrName: string, field: string): UserRecord {
    const user = this.findUser(idOrName);
    if (user === undefined) throw new StateError('not_found', `Unknown user '${idOrName}'`, field);
    return user;
  }
}

/** Names as the real list writes them: lower case, `/` between folders; duplicates dropped. */
function normaliseExecutables(executables: readonly DetectableExecutable[]): DetectableExecutable[] {
  const seen = new Set<string>();
  const out: DetectableExecutable[] = [];
  for (const executable of executables) {
    const name = executable.name.trim().replaceAll('\\', '/').toLowerCase();
    const key = `${executable.os}\u0000${name}\u0000${executable.arguments ?? ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ os: executable.os, name, is_launcher: executable.is_launcher, ...(executable.arguments !== undefined ? { arguments: executable.arguments } : {}) });
  }
  return out;
}

function isUrl(value: string): boolean {
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}
