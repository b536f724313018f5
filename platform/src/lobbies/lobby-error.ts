/** Why a lobby operation was refused; the HTTP layer maps `reason` to a status and code. */
export class LobbyError extends Error {
  constructor(
    readonly reason: 'unknown_lobby' | 'unknown_user' | 'unknown_message' | 'missing_access' | 'invalid_form' | 'too_many_lobbies' | 'too_many_server_lobbies' | 'lobby_full' | 'not_author' | 'missing_permissions',
    message: string,
    /** For 'invalid_form': the body field at fault. */
    readonly field?: string,
  ) {
    super(message);
    this.name = 'LobbyError';
  }
}
