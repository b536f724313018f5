import { LOBBY_LIMITS, MODERATION_METADATA_LIMITS, type LobbyMetadata } from '../wire/lobbies.js';
import { LobbyError } from './lobby-error.js';

/**
 * Checks of what a caller asks of a lobby, against the public docs' limits (LOBBY_LIMITS). Each
 * throws a LobbyError naming the field and the limit.
 */

/** Keys and values count: the docs give "the max total length" of the dictionary. */
export function metadataLength(metadata: LobbyMetadata): number {
  let total = 0;
  for (const [key, value] of Object.entries(metadata)) total += key.length + value.length;
  return total;
}

export function checkMetadata(field: string, metadata: LobbyMetadata | null | undefined): void {
  if (metadata === null || metadata === undefined) return;
  const length = metadataLength(metadata);
  if (length > LOBBY_LIMITS.metadataChars) {
    throw new LobbyError('invalid_form', `${field} is ${length} characters long (keys and values); at most ${LOBBY_LIMITS.metadataChars}`, field);
  }
}

export function checkSecret(secret: string): void {
  if (secret.length === 0) throw new LobbyError('invalid_form', 'secret must not be empty', 'secret');
  if (secret.length > LOBBY_LIMITS.secretChars) throw new LobbyError('invalid_form', `secret is ${secret.length} characters long; at most ${LOBBY_LIMITS.secretChars}`, 'secret');
}

/** The idle timeout in seconds (the default when absent). */
export function idleTimeout(seconds: number | undefined): number {
  if (seconds === undefined) return LOBBY_LIMITS.idleTimeoutDefaultSeconds;
  if (!Number.isInteger(seconds) || seconds < LOBBY_LIMITS.idleTimeoutMinSeconds || seconds > LOBBY_LIMITS.idleTimeoutMaxSeconds) {
    throw new LobbyError('invalid_form', `idle_timeout_seconds must be an integer from ${LOBBY_LIMITS.idleTimeoutMinSeconds} to ${LOBBY_LIMITS.idleTimeoutMaxSeconds}`, 'idle_timeout_seconds');
  }
  return seconds;
}

export function checkMembersPerRequest(count: number, field = 'members'): void {
  if (count > LOBBY_LIMITS.membersPerRequest) {
    throw new LobbyError('invalid_form', `${field} has ${count} entries; at most ${LOBBY_LIMITS.membersPerRequest} per request`, field);
  }
}

export function checkContent(content: string): void {
  if (content.trim().length === 0) throw new LobbyError('invalid_form', 'content must not be empty', 'content');
  if (content.length > LOBBY_LIMITS.messageChars) throw new LobbyError('invalid_form', `content is ${content.length} characters long; at most ${LOBBY_LIMITS.messageChars}`, 'content');
}

/** What is wrong with moderation metadata (lobby or DM message), or undefined when nothing is: at most 5 keys, keys ≤1,024 and values ≤2,000 characters. */
export function moderationMetadataProblem(metadata: LobbyMetadata): string | undefined {
  const entries = Object.entries(metadata);
  const { keys, keyChars, valueChars } = MODERATION_METADATA_LIMITS;
  if (entries.length > keys) return `moderation metadata has ${entries.length} keys; at most ${keys}`;
  if (entries.some(([key, value]) => key.length > keyChars || value.length > valueChars)) return `moderation metadata keys are at most ${keyChars} characters and values at most ${valueChars}`;
  return undefined;
}
