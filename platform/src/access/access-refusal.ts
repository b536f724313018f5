/**
 * Why the access policy refused a caller. A resource of another application (or another
 * player's, where the platform hides it) is refused as unknown, so its existence never leaks;
 * the HTTP layer maps `reason` to the API's status and code.
 */
export class AccessRefusal extends Error {
  constructor(
    readonly reason: 'unknown_lobby' | 'unknown_invite' | 'unknown_user' | 'unknown_channel' | 'unknown_guild' | 'missing_access' | 'cannot_message_user' | 'foreign_application',
    message: string,
    /** For 'foreign_application': the body field at fault. */
    readonly field?: string,
  ) {
    super(message);
    this.name = 'AccessRefusal';
  }
}
