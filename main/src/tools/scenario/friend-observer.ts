import { EventEmitter } from 'node:events';
import { GatewayEvent, RelationshipType, type PresenceUpdateEvent, type ReadyEvent, type WireActivity } from '../../../../platform/src/wire/index.js';
import { GatewayClient } from '../../host/gateway/gateway-client.js';
import { PlatformApi } from '../../host/gateway/platform-api.js';

/** What a friend sees of a user: offline with no activities until told otherwise. */
export interface SeenPresence {
  readonly status: string;
  readonly activities: readonly WireActivity[];
}

const OFFLINE: SeenPresence = { status: 'offline', activities: [] };

/**
 * A friend watching from their own client: signed in to the emulator (dev login) with a
 * gateway session of their own, it keeps the latest presence of each friend exactly as the
 * platform fans it out (secrets removed). This is "what a friend sees", not the platform's
 * internal state.
 */
export class FriendObserver extends EventEmitter<{ change: [] }> {
  private readonly presences = new Map<string, SeenPresence>();
  private readonly friends = new Map<string, string>();

  private constructor(
    readonly username: string,
    private readonly gateway: GatewayClient,
  ) {
    super();
  }

  /** Signs in as `username` and waits for the gateway's READY. */
  static async start(platformUrl: string, username: string, timeoutMs = 5000): Promise<FriendObserver> {
    const api = new PlatformApi({ baseUrl: platformUrl, timeoutMs });
    let token: string;
    try {
      token = (await api.login(username)).token;
    } catch (error) {
      const status = (error as { status?: unknown }).status;
      throw new Error(status === 400 ? `the platform has no user named '${username}'` : `cannot sign in as ${username} on ${platformUrl}: ${error instanceof Error ? error.message : String(error)}`);
    }
    const url = await api.gatewayUrl();
    const gateway = new GatewayClient({ url, token, backoff: { initialMs: 50, maxMs: 500 } });
    const observer = new FriendObserver(username, gateway);
    const ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${username}'s gateway session was not ready within ${timeoutMs} ms`)), timeoutMs);
      gateway.once('ready', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    gateway.on('dispatch', (t, d) => observer.onDispatch(t, d));
    gateway.start();
    try {
      await ready;
    } catch (error) {
      await gateway.stop();
      throw error;
    }
    return observer;
  }

  /** A friend's id from their id or username; undefined when they are not this user's friend. */
  friendId(user: string): string | undefined {
    if (this.friends.has(user)) return user;
    for (const [id, name] of this.friends) if (name.toLowerCase() === user.toLowerCase()) return id;
    return undefined;
  }

  presenceOf(userId: string): SeenPresence {
    return this.presences.get(userId) ?? OFFLINE;
  }

  stop(): Promise<void> {
    return this.gateway.stop();
  }

  private onDispatch(t: string, d: unknown): void {
    if (t === GatewayEvent.Ready) {
      const ready = d as ReadyEvent;
      // READY lists requests and blocks too: only friends count.
      for (const relationship of ready.relationships) if (relationship.type === RelationshipType.Friend) this.friends.set(relationship.user.id, relationship.user.username);
      for (const presence of ready.presences) this.presences.set(presence.user.id, { status: presence.status, activities: presence.activities });
      this.emit('change');
    } else if (t === GatewayEvent.PresenceUpdate) {
      const update = d as PresenceUpdateEvent;
      if (update.guild_id !== undefined) return;
      this.presences.set(update.user.id, { status: update.status, activities: update.activities });
      this.emit('change');
    } else if (t === GatewayEvent.RelationshipAdd) {
      const relationship = d as { type?: number; user?: { id: string; username: string } };
      if (relationship.user !== undefined && relationship.type === RelationshipType.Friend) this.friends.set(relationship.user.id, relationship.user.username);
    }
  }
}
