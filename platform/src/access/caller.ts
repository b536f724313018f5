import type { AppRecord, UserRecord } from '../state/model.js';

/**
 * Who is asking, resolved once per request (the HTTP handler) from its credentials:
 * - `player`: a user token (the desktop client): the platform-wide user, of no application;
 * - `game-player`: a game's OAuth2 Bearer token: the user, within that token's application;
 * - `game-server`: an application's bot token: the application, and no user;
 * - `anonymous`: a route that takes no credentials (or the admin's).
 * A banned account is never a caller: its tokens are refused before this is made.
 */
export type Caller =
  | { readonly kind: 'player'; readonly user: UserRecord }
  | { readonly kind: 'game-player'; readonly user: UserRecord; readonly applicationId: string }
  | { readonly kind: 'game-server'; readonly app: AppRecord }
  | { readonly kind: 'anonymous' };

/** Who a gateway session speaks for: its game token's application's player, or the player's own client. */
export function sessionCaller(user: UserRecord, applicationId: string | undefined): Caller {
  return applicationId === undefined ? { kind: 'player', user } : { kind: 'game-player', user, applicationId };
}

/** The application the caller acts within, or null (a player's own token, or no one). */
export function callerApplication(caller: Caller): string | null {
  if (caller.kind === 'game-player') return caller.applicationId;
  if (caller.kind === 'game-server') return caller.app.id;
  return null;
}

/** The user the caller acts as, or null (a game's server, or no one). */
export function callerUser(caller: Caller): UserRecord | null {
  return caller.kind === 'player' || caller.kind === 'game-player' ? caller.user : null;
}

/**
 * What a route's rate-limit bucket is kept per: `user`, the player, across their games (their
 * platform-wide data: DMs, relationships; one bucket, so that many games do not multiply what
 * a player may send or probe); `application-user`, the player within the caller's application
 * (an application's data: lobbies); `ip`, the address.
 */
export type BucketScope = 'user' | 'application-user' | 'ip';

/**
 * Whose rate-limit bucket a request counts in, so that no game uses up another game's own: a game's
 * server, its own application's on every limited route (every server of a shared emulator calls
 * from the same loopback address, so a bucket per address would be every game's); on a player's
 * route, the player's, within the game's application where the bucket is per application;
 * anyone else, the address's.
 */
export function bucketOwner(caller: Caller, scope: BucketScope, address: string): string {
  if (caller.kind === 'game-server') return `app:${caller.app.id}`;
  const user = callerUser(caller);
  if (scope === 'ip' || user === null) return `ip:${address}`;
  const application = scope === 'application-user' ? callerApplication(caller) : null;
  return application === null ? `user:${user.id}` : `user:${user.id}:app:${application}`;
}
