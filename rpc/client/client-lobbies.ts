import { ClientResult, toClientResult } from './client-result.js';
import * as api from './lobby-api.js';
import type { LobbyCallOptions, LobbyHandle, MessageHandle, Metadata } from './lobby-api.js';

export type { LobbyHandle, LobbyMemberHandle, MessageHandle, Metadata } from './lobby-api.js';

/**
 * The Client's lobby calls in the Social SDK's shape: each resolves with its ClientResult (and
 * what it made) and calls the callback when one is given; none throws. The lobbies the game is
 * in are kept (getLobbyHandle answers from them), refreshed by every answer.
 */
export class ClientLobbies {
  private readonly known = new Map<string, LobbyHandle>();

  /** The options of a call now (the platform base, the token set by updateToken, the timeout). */
  constructor(private readonly options: () => LobbyCallOptions) {}

  /** Client::CreateOrJoinLobby(WithMetadata): the lobby of this secret for the game, joined or made. */
  async createOrJoin(secret: string, lobbyMetadata: Metadata | undefined, memberMetadata: Metadata | undefined, callback?: (result: ClientResult, lobbyId: string | null) => void): Promise<{ result: ClientResult; lobbyId: string | null }> {
    const outcome = await this.attempt(async () => this.keep(await api.createOrJoinLobby(this.options(), secret, lobbyMetadata, memberMetadata)).id);
    callback?.(outcome.result, outcome.value);
    return { result: outcome.result, lobbyId: outcome.value };
  }

  /** Client::LeaveLobby. */
  async leave(lobbyId: string, callback?: (result: ClientResult) => void): Promise<ClientResult> {
    const outcome = await this.attempt(async () => {
      await api.leaveLobby(this.options(), lobbyId);
      this.known.delete(lobbyId);
      return null;
    });
    callback?.(outcome.result);
    return outcome.result;
  }

  /** Fetches the lobby again (the platform's view now) and keeps it. */
  async refresh(lobbyId: string): Promise<{ result: ClientResult; lobby: LobbyHandle | null }> {
    const outcome = await this.attempt(async () => this.keep(await api.getLobby(this.options(), lobbyId)));
    return { result: outcome.result, lobby: outcome.value };
  }

  /** Client::GetLobbyHandle: a lobby the game is in, as last seen; null for another. */
  handle(lobbyId: string): LobbyHandle | null {
    return this.known.get(lobbyId) ?? null;
  }

  /** Client::GetLobbyIds. */
  ids(): string[] {
    return [...this.known.keys()];
  }

  /** Client::SendLobbyMessage. */
  async sendMessage(lobbyId: string, content: string, callback?: (result: ClientResult, messageId: string | null) => void): Promise<{ result: ClientResult; messageId: string | null }> {
    const outcome = await this.attempt(async () => (await api.sendLobbyMessage(this.options(), lobbyId, content)).id);
    callback?.(outcome.result, outcome.value);
    return { result: outcome.result, messageId: outcome.value };
  }

  /** Client::GetLobbyMessagesWithLimit: newest first, at most 200, none older than 72 hours. */
  async messagesWithLimit(lobbyId: string, limit: number, callback?: (result: ClientResult, messages: readonly MessageHandle[]) => void): Promise<{ result: ClientResult; messages: readonly MessageHandle[] }> {
    const outcome = await this.attempt(() => api.getLobbyMessagesWithLimit(this.options(), lobbyId, limit));
    const messages = outcome.value ?? [];
    callback?.(outcome.result, messages);
    return { result: outcome.result, messages };
  }

  private keep(lobby: LobbyHandle): LobbyHandle {
    this.known.set(lobby.id, lobby);
    return lobby;
  }

  private async attempt<T>(work: () => Promise<T>): Promise<{ result: ClientResult; value: T | null }> {
    try {
      return { result: ClientResult.ok(200), value: await work() };
    } catch (error) {
      return { result: toClientResult(error), value: null };
    }
  }
}
