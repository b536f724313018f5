/**
 * Which of a user's gateway sessions a dispatch reaches, decided here for every dispatch of
 * the social layer:
 * - `platform`: the user's platform-wide data (DMs, relationships, guilds): every session.
 * - `application`: data owned by one application (a lobby and its messages): the user's
 *   sessions of that application's game tokens, and the user's own user-token sessions (the
 *   desktop client is the player's, and sees all of the player's lobbies); never a game
 *   session of another application.
 * - `application-only`: game relationships: only that application's game sessions.
 */
export type Audience =
  | { readonly kind: 'platform' }
  | { readonly kind: 'application'; readonly applicationId: string }
  | { readonly kind: 'application-only'; readonly applicationId: string };

export const PLATFORM_AUDIENCE: Audience = { kind: 'platform' };

export const applicationAudience = (applicationId: string): Audience => ({ kind: 'application', applicationId });

/** Whether a session (its game token's application, or null for a user token) is in the audience. */
export function sessionInAudience(sessionApplication: string | null, audience: Audience): boolean {
  switch (audience.kind) {
    case 'platform':
      return true;
    case 'application':
      return sessionApplication === null || sessionApplication === audience.applicationId;
    case 'application-only':
      return sessionApplication === audience.applicationId;
  }
}
