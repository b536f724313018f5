/**
 * What the SDK package test puts in the game's folder: a tiny game as an ES module and as
 * CommonJS (one body: connect, set an activity, authorize, getToken, updateToken, a lobby), and
 * TypeScript files for the consumer's `tsc` (module nodenext), right and wrong.
 *
 * The games print one JSON line per step and, once authorized, stay connected until stdin ends.
 */

const GAME_BODY = String.raw`
const [appId, state] = process.argv.slice(2);
const report = (step, data = {}) => process.stdout.write(JSON.stringify({ step, ...data }) + '\n');
const fail = (what, result) => { throw new Error(what + ': ' + result.type + ' ' + result.error); };

async function platformReady(client) {
  if (client.getPlatformStatus() === 'ready') return;
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the platform session is ' + client.getPlatformStatus())), 10000);
    client.setPlatformStatusChangedCallback((status) => status === 'ready' && (clearTimeout(timer), resolve()));
  });
}

async function main() {
  const client = new Client({ logger: { sink: () => undefined } });
  client.setApplicationId(appId);
  const connected = await client.connect();
  if (!connected.successful) fail('connect', connected);
  const presence = await client.updateRichPresence({ state, details: 'Installed from the tarball', party: { id: 'tarball-party', size: [1, 4] } });
  if (!presence.successful) fail('updateRichPresence', presence);
  report('activity', { ...loaded, user: client.getCurrentUser()?.username });

  const args = new AuthorizationArgs();
  args.setScopes(client.getDefaultCommunicationScopes());
  const verifier = client.createAuthorizationCodeVerifier();
  args.setCodeChallenge(verifier.challenge());
  const authorized = await client.authorize(args);
  if (!authorized.result.successful) fail('authorize', authorized.result);
  const exchanged = await client.getToken(appId, authorized.code, verifier.verifier(), authorized.redirectUri);
  if (!exchanged.result.successful) fail('getToken', exchanged.result);
  const updated = await client.updateToken('Bearer', exchanged.token.accessToken);
  if (!updated.successful) fail('updateToken', updated);
  await platformReady(client);
  const lobby = await client.createOrJoinLobby('tarball-squad');
  if (!lobby.result.successful) fail('createOrJoinLobby', lobby.result);
  report('authorized', { via: authorized.via, scope: exchanged.token.scope, platform: client.getPlatformStatus(), lobbyMembers: client.getLobbyHandle(lobby.lobbyId)?.lobbyMemberIds.length });

  process.stdin.resume();
  await new Promise((resolve) => process.stdin.on('end', resolve));
  await client.disconnect();
  report('done');
}

main().catch((error) => {
  process.stderr.write(String(error && error.stack || error) + '\n');
  process.exit(1);
});
`;

/** game.mjs: `import`; it also checks that `require` of the package gives the very same Client (one copy). */
export const ESM_GAME = `import { createRequire } from 'node:module';
import { AuthorizationArgs, Client } from 'companion-client';
const loaded = { format: 'esm', entry: import.meta.resolve('companion-client'), oneCopy: createRequire(import.meta.url)('companion-client').Client === Client };
${GAME_BODY}`;

/** game.cjs: `require`. */
export const CJS_GAME = `'use strict';
const { AuthorizationArgs, Client } = require('companion-client');
const loaded = { format: 'cjs', entry: require.resolve('companion-client') };
${GAME_BODY}`;

/** The consumer's tsconfig: module nodenext, strict, the package's declarations checked too (no skipLibCheck). */
export function consumerTsconfig(nodeTypesRoot: string): string {
  const compilerOptions = { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', strict: true, noEmit: true, skipLibCheck: false, types: ['node'], typeRoots: [nodeTypesRoot] };
  return JSON.stringify({ compilerOptions, files: Object.keys(TYPESCRIPT_FILES) }, null, 2);
}

/** game.ts (an ES module: the folder's package.json says "type": "module") and game.cts (CommonJS), which must type-check; wrong.ts and wrong.cts, which must not. */
export const TYPESCRIPT_FILES: Readonly<Record<string, string>> = {
  'game.ts': `import { AuthorizationArgs, Client, ClientResult, RelationshipType, type Activity, type LobbyHandle } from 'companion-client';
const client = new Client({ logger: { build: 'debug', sink: (line: string) => void line } });
client.setApplicationId('1234567890123456789');
const connected: ClientResult = await client.connect();
const activity: Activity = { state: 'In a squad', party: { id: 'p1', size: [1, 4] }, timestamps: { start: Date.now() } };
await client.updateRichPresence(activity);
const args = new AuthorizationArgs();
args.setScopes(client.getDefaultCommunicationScopes());
const verifier = client.createAuthorizationCodeVerifier();
args.setCodeChallenge(verifier.challenge());
const { result, code, redirectUri } = await client.authorize(args);
if (result.successful && code !== null) {
  const exchanged = await client.getToken('1234567890123456789', code, verifier.verifier(), redirectUri);
  if (exchanged.token !== null) await client.updateToken('Bearer', exchanged.token.accessToken);
}
const { lobbyId } = await client.createOrJoinLobby('squad-7');
const lobby: LobbyHandle | null = lobbyId === null ? null : client.getLobbyHandle(lobbyId);
const friend = client.getRelationshipHandle('42').gameRelationshipType === RelationshipType.Friend;
console.log(connected.successful, lobby?.lobbyMemberIds.length, friend);
`,
  'game.cts': `import { Client, type ClientResult } from 'companion-client';
import sdk = require('companion-client');
async function main(): Promise<void> {
  const client: sdk.Client = new Client();
  client.setApplicationId(1234567890123456789n);
  const connected: ClientResult = await client.connect();
  await client.updateRichPresence({ state: 'In a squad', details: 'Ranked' });
  console.log(connected.type, new sdk.AuthorizationArgs().isValid(), sdk.getDefaultPresenceScopes());
}
void main();
`,
  'wrong.ts': `import { Client } from 'companion-client';
await new Client().updateRichPresence({ state: 42 });
`,
  'wrong.cts': `import { Client } from 'companion-client';
void new Client().getToken('1234567890123456789');
`,
};

/** The errors the wrong files must give, as `file:line TSnnnn`: too few arguments to getToken, a number for the activity's state. */
export const EXPECTED_ERRORS = ['wrong.cts:2 TS2554', 'wrong.ts:2 TS2322'];

/** The README's worked example: the first js block after its "## A worked example" heading. */
export function workedExample(readme: string): string {
  const section = readme.split('\n## A worked example\n')[1];
  const block = section === undefined ? undefined : /```js\n([\s\S]*?)```/.exec(section)?.[1];
  if (block === undefined) throw new Error("the package's README has no js block under '## A worked example'");
  return block;
}
