#!/usr/bin/env node
// A game on Companion's SDK (companion/client): rich presence, authorization, invites.
// Run it next to `npm start` (same XDG_RUNTIME_DIR); the host asks you to approve.
import { AuthorizationArgs, Client } from 'companion/client';

const client = new Client();
client.setApplicationId('1234567890123456789'); // the emulator's demo app
client.setActivityJoinCallback((secret) => console.log(`joining the party with ${secret}`));
client.setTokenExpirationCallback(({ reason }) => console.log(`the token was dropped (${reason}): sign in again`));

const connected = await client.connect();
if (!connected.successful) throw new Error(`no Companion running: ${connected.error}`);

await client.updateRichPresence({
  state: 'In a squad',
  details: 'Ranked match',
  party: { id: 'party-1', size: [1, 4] },
  secrets: { join: 'join-secret-1' },
});

const args = new AuthorizationArgs();
args.setScopes(client.getDefaultPresenceScopes());
const verifier = client.createAuthorizationCodeVerifier();
args.setCodeChallenge(verifier.challenge());
const { result, code, redirectUri } = await client.authorize(args);
if (!result.successful) {
  // UserCancelled: the player said no (or did not answer); anything else is an error.
  console.log(result.type === 'UserCancelled' ? 'the player declined' : `authorization failed: ${result.error}`);
} else {
  const exchanged = await client.getToken('1234567890123456789', code, verifier.verifier(), redirectUri);
  if (!exchanged.result.successful) {
    console.log(`the code could not be redeemed: ${exchanged.result.error}`);
  } else {
    await client.updateToken('Bearer', exchanged.token.accessToken);
    console.log(`signed in with scopes ${exchanged.token.scope}`);
  }
}
await client.disconnect();
