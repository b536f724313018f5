import * as v from 'valibot';
import { answerOf, bearerCall, type BearerCallOptions } from './platform-request.js';

const InviteAnswerSchema = v.object({ code: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,64}$/)) });

/** Client::JoinLinkedLobbyGuild's invite: `POST /lobbies/{id}/members/@me/invites` → a single-use code to the linked channel's server. */
export async function lobbyGuildInvite(options: BearerCallOptions, lobbyId: string): Promise<string> {
  if (typeof lobbyId !== 'string' || !/^\d{1,20}$/.test(lobbyId)) throw new TypeError('lobbyId must be a lobby id (a snowflake)');
  return answerOf(InviteAnswerSchema, await bearerCall(options, 'POST', `/lobbies/${lobbyId}/members/@me/invites`), 'invite').code;
}
