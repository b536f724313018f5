#!/usr/bin/env node
// A lobby chat on Companion's SDK (companion/client): two players run it with the same lobby
// name, each next to their own Companion (`npm start`, signed in as themselves):
//   node examples/lobby-chat.mjs squad-7
// Lines typed go to the lobby; the lobby's messages and who joins are printed as they come.
// The game asks for the communication scopes once (Companion asks the player to approve).
import readline from 'node:readline';
import { AuthorizationArgs, Client } from 'companion/client';

const APP_ID = '1234567890123456789'; // the emulator's demo app
const secret = process.argv[2] ?? 'lobby-chat';
const client = new Client();
client.setApplicationId(APP_ID);

const connected = await client.connect();
if (!connected.successful) throw new Error(`no Companion running: ${connected.error}`);

// The game's own token, with lobbies and DMs (openid sdk.social_layer).
const args = new AuthorizationArgs();
args.setScopes(client.getDefaultCommunicationScopes());
const verifier = client.createAuthorizationCodeVerifier();
args.setCodeChallenge(verifier.challenge());
const authorized = await client.authorize(args);
if (!authorized.result.successful) throw new Error(`not authorized: ${authorized.result.error}`);
const exchanged = await client.getToken(APP_ID, authorized.code, verifier.verifier(), authorized.redirectUri);
if (!exchanged.result.successful) throw new Error(`the code could not be redeemed: ${exchanged.result.error}`);
await client.updateToken('Bearer', exchanged.token.accessToken);
// Lobby events come over the game's own session to the platform: wait until it is ready,
// or the first messages could arrive before anyone listens.
if (client.getPlatformStatus() !== 'ready') {
  await new Promise((resolve) => client.setPlatformStatusChangedCallback((status) => status === 'ready' && resolve()));
}

const { result, lobbyId } = await client.createOrJoinLobby(secret);
if (!result.successful) throw new Error(`could not join the lobby: ${result.error}`);
const me = client.getCurrentUser()?.id;
client.setLobbyCallbacks({
  memberAdded: (id, memberId) => id === lobbyId && console.log(`* ${memberId} joined`),
  memberRemoved: (id, memberId) => id === lobbyId && console.log(`* ${memberId} left`),
  messageCreated: (messageId) => {
    const message = client.getMessageHandle(messageId);
    if (message?.lobbyId === lobbyId && message.authorId !== me) console.log(`${message.authorId}: ${message.content}`);
  },
});
console.log(`in lobby ${lobbyId} (${client.getLobbyHandle(lobbyId)?.lobbyMemberIds.length ?? 0} members); type to chat, Ctrl+D to leave`);

const lines = readline.createInterface({ input: process.stdin });
for await (const line of lines) {
  if (line.trim() === '') continue;
  const sent = await client.sendLobbyMessage(lobbyId, line);
  if (!sent.result.successful) console.log(`! not sent: ${sent.result.error}${sent.result.retryAfter > 0 ? ` (try again in ${sent.result.retryAfter} s)` : ''}`);
}
await client.leaveLobby(lobbyId);
await client.disconnect();
