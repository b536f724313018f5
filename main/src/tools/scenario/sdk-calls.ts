import type { Client } from '../../../../rpc/client/index.js';

/**
 * The Client methods an `sdk_call` step may call: the Social SDK's calls of the game's own
 * platform session (lobbies, messages, relationships, users and guilds, provisional accounts).
 * A scenario names one and gives its arguments (no callbacks: the result is checked instead).
 */
export const SDK_CALLS = [
  'createOrJoinLobby',
  'createOrJoinLobbyWithMetadata',
  'leaveLobby',
  'refreshLobby',
  'getLobbyIds',
  'getLobbyHandle',
  'sendLobbyMessage',
  'getLobbyMessagesWithLimit',
  'editLobbyMessage',
  'deleteLobbyMessage',
  'sendUserMessage',
  'getUserMessagesWithLimit',
  'editUserMessage',
  'deleteUserMessage',
  'getMessageHandle',
  'linkChannelToLobby',
  'unlinkChannelFromLobby',
  'getRelationships',
  'getRelationshipHandle',
  'sendFriendRequest',
  'removeRelationship',
  'sendDiscordFriendRequest',
  'sendDiscordFriendRequestById',
  'sendGameFriendRequest',
  'sendGameFriendRequestById',
  'acceptDiscordFriendRequest',
  'acceptGameFriendRequest',
  'rejectDiscordFriendRequest',
  'rejectGameFriendRequest',
  'cancelDiscordFriendRequest',
  'cancelGameFriendRequest',
  'removeDiscordAndGameFriend',
  'removeGameFriend',
  'blockUser',
  'unblockUser',
  'getCurrentUserV2',
  'getUser',
  'getUserGuilds',
  'getGuildChannels',
  'getPlatformStatus',
  'getUserApplicationProfiles',
  'unmergeIntoProvisionalAccount',
] as const;
export type SdkCall = (typeof SDK_CALLS)[number];

/** What a call came to: whether it succeeded (and its ClientResult when it has one) and its other values as plain JSON. */
export interface SdkCallOutcome {
  readonly result: { readonly successful: boolean; readonly error: string; readonly errorCode: number } | null;
  readonly data: unknown;
}

function isResult(value: unknown): value is { successful: boolean; error: string; errorCode: number } {
  return typeof value === 'object' && value !== null && typeof (value as { successful?: unknown }).successful === 'boolean' && 'errorCode' in value;
}

/** Plain JSON of a value (handles give their fields; `toJSON` where they have one). */
function plain(value: unknown): unknown {
  return value === undefined ? null : (JSON.parse(JSON.stringify(value)) as unknown);
}

/** Calls `call` on the client with `args` and splits its answer into the result and the rest. */
export async function callSdk(client: Client, call: SdkCall, args: readonly unknown[]): Promise<SdkCallOutcome> {
  const method = (client as unknown as Record<SdkCall, (...values: unknown[]) => unknown>)[call];
  const answer = await method.apply(client, [...args]);
  if (isResult(answer)) return { result: answer, data: null };
  if (typeof answer === 'object' && answer !== null && isResult((answer as { result?: unknown }).result)) {
    const { result, ...rest } = answer as { result: { successful: boolean; error: string; errorCode: number } } & Record<string, unknown>;
    return { result, data: plain(rest) };
  }
  return { result: null, data: plain(answer) };
}
