/**
 * A relationship change the host or the platform refused, with an HTTP status (the control
 * API's and the UI bridge's error mapping reads it) and a message a player reads: it names the
 * problem and the other user, never a token or a request path.
 */
export class RelationshipRefused extends Error {
  override readonly name = 'RelationshipRefused';

  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The platform's code for a friend request to a username nobody has ("No users with DiscordTag exist"). */
export const NO_USER_WITH_TAG = 80004;
/** The platform's code for a refusal because of a block ("Missing Access"). */
const MISSING_ACCESS = 50001;

/** What a failed platform call means to the player; `subject` names the other user as the player knows them. */
export function relationshipFailure(error: unknown, subject: string): RelationshipRefused {
  const fields = (typeof error === 'object' && error !== null ? error : {}) as { status?: unknown; code?: unknown; reason?: unknown };
  const status = typeof fields.status === 'number' ? fields.status : 0;
  if (status === 0) return new RelationshipRefused(503, 'Companion cannot reach the platform right now; try again');
  if (fields.code === NO_USER_WITH_TAG) return new RelationshipRefused(404, `No user named '${subject}'`);
  if (status === 404) return new RelationshipRefused(404, `The platform knows no user ${subject}`);
  if (status === 403 && fields.code === MISSING_ACCESS) return new RelationshipRefused(403, `A block stands between you and ${subject}`);
  if (status === 429) return new RelationshipRefused(429, 'The platform asks Companion to slow down; try again in a moment');
  if (status === 401) return new RelationshipRefused(401, 'The platform no longer accepts your sign-in; sign in again');
  const reason = typeof fields.reason === 'string' ? fields.reason : 'no reason given';
  return new RelationshipRefused(502, `The platform refused the change (${status}): ${reason}`);
}
