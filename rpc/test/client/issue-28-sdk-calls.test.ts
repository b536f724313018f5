/**
 * Issue 28 §1: the Social SDK's calls a game expects, against the real emulator (no Companion
 * running here: the calls that ask Companion are in main/test/e2e/issue-28-sdk-calls.test.ts).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { AuthorizationArgs, Client } from '../../client/index.js';
import { getToken } from '../../client/oauth-http.js';
import { admin, rpcAuthorizationCode, SEED_APP_ID, startTestPlatform, type TestPlatform } from './support/platform.js';
import { connected, game, newClient } from './support/sdk-games.js';

async function tokenOf(platform: TestPlatform, username: string): Promise<string> {
  const code = await rpcAuthorizationCode(platform, { client_id: SEED_APP_ID, scope: 'identify sdk.social_layer' }, username);
  return (await getToken({ platformBase: platform.url, applicationId: SEED_APP_ID, code, timeoutMs: 5000 })).accessToken;
}

/** The game's server (bot token) makes a lobby for alice (CanLinkLobby) and bob. */
async function serverLobby(platform: TestPlatform, alice: string, bob: string): Promise<string> {
  const app = platform.admin.apps().find((candidate) => candidate.id === SEED_APP_ID) as { bot_token?: string };
  const response = await fetch(`${platform.url}/api/v10/lobbies`, {
    method: 'POST',
    headers: { Authorization: `Bot ${app.bot_token ?? ''}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ members: [{ id: alice, flags: 1 }, { id: bob }] }),
  });
  return ((await response.json()) as { id: string }).id;
}

describe('issue 28 §1 getVersionMajor/getVersionMinor/getVersionPatch/getVersionHash', () => {
  it("answer the SDK package's own version (sdk/package.json) and a stable hash when no commit is recorded", () => {
    const manifest = JSON.parse(readFileSync(path.join(import.meta.dirname, '../../../sdk/package.json'), 'utf8')) as { version: string };
    const [major, minor, patch] = manifest.version.split('.').map(Number);
    const client = new Client({ logger: { sink: () => undefined }, connection: { socketPaths: [] } });
    expect([Client.getVersionMajor(), Client.getVersionMinor(), Client.getVersionPatch()]).toEqual([major, minor, patch]);
    expect([client.getVersionMajor(), client.getVersionMinor(), client.getVersionPatch()]).toEqual([major, minor, patch]);
    expect(client.getVersionHash()).toBe(`source-${manifest.version}`);
  });
});

describe('issue 28 §1 isAuthenticated and fetchCurrentUser', () => {
  it('isAuthenticated is whether a token was given; fetchCurrentUser answers the token’s user (id, display name) without logging the token', async () => {
    const platform = await startTestPlatform();
    const token = await tokenOf(platform, 'alice');
    const lines: string[] = [];
    const client = new Client({ platformBase: platform.url, logger: { build: 'debug', sink: (line) => lines.push(line) }, connection: { socketPaths: [] } });
    expect(client.isAuthenticated()).toBe(false);
    const called: [string, string | null, string][] = [];
    const fetched = await client.fetchCurrentUser('Bearer', token, (result, id, name) => called.push([result.type, id, name]));
    const me = (await (await fetch(`${platform.url}/api/v10/users/@me`, { headers: { Authorization: `Bearer ${token}` } })).json()) as { id: string; username: string; global_name?: string | null };
    expect(fetched).toEqual({ result: expect.objectContaining({ successful: true }), id: me.id, name: me.global_name ?? me.username });
    expect(called).toEqual([['None', me.id, me.global_name ?? me.username]]);
    expect(client.isAuthenticated()).toBe(false);

    const refused = await client.fetchCurrentUser('Bearer', 'not-a-real-token-12345');
    expect(refused).toMatchObject({ result: { successful: false, type: 'HttpError', status: 401 }, id: null, name: '' });
    expect((await client.fetchCurrentUser('Basic', token)).result.type).toBe('ValidationError');

    expect((await client.updateToken('Bearer', token)).successful).toBe(true);
    expect(client.isAuthenticated()).toBe(true);
    expect(lines.join('\n')).not.toContain(token);
    await client.disconnect();
  });
});

describe('issue 28 §1 sendUserMessageWithMetadata and sendLobbyMessageWithMetadata', () => {
  it("the metadata is stored by the platform and reaches the other player's game, live and when read back; bad metadata is refused", async () => {
    const platform = await startTestPlatform();
    const [alice, bob] = [await game(platform, 'alice'), await game(platform, 'bob')];
    const bobId = bob.getCurrentUserV2()?.id ?? '';
    const created: string[] = [];
    bob.setLobbyCallbacks({ messageCreated: (id) => created.push(id) });

    const called: [boolean, string | null][] = [];
    const sent = await alice.sendUserMessageWithMetadata(bobId, 'gg', { map: 'dust', round: '3' }, (result, id) => called.push([result.successful, id]));
    expect(sent.result.successful, sent.result.error).toBe(true);
    expect(called).toEqual([[true, sent.messageId]]);
    await vi.waitFor(() => expect(created).toContain(sent.messageId));
    expect(bob.getMessageHandle(sent.messageId ?? '')?.metadata).toEqual({ map: 'dust', round: '3' });
    const read = await bob.getUserMessagesWithLimit(alice.getCurrentUserV2()?.id ?? '', 5);
    expect(read.messages.find((message) => message.id === sent.messageId)?.metadata).toEqual({ map: 'dust', round: '3' });

    expect((await alice.sendUserMessageWithMetadata(bobId, 'x', ['nope'] as unknown as Record<string, string>)).result.type).toBe('ValidationError');
    const tooBig = await alice.sendUserMessageWithMetadata(bobId, 'x', { big: 'y'.repeat(1001) });
    expect(tooBig.result).toMatchObject({ type: 'HttpError', status: 400, errorCode: 50035 });

    const lobbyId = (await alice.createOrJoinLobby('meta-lobby')).lobbyId ?? '';
    expect((await bob.createOrJoinLobby('meta-lobby')).lobbyId).toBe(lobbyId);
    const inLobby = await alice.sendLobbyMessageWithMetadata(lobbyId, 'go', { team: 'red' });
    expect(inLobby.result.successful, inLobby.result.error).toBe(true);
    await vi.waitFor(() => expect(bob.getMessageHandle(inLobby.messageId ?? '')?.metadata).toEqual({ team: 'red' }));
    expect((await alice.sendLobbyMessageWithMetadata(lobbyId, 'go', { n: 1 } as unknown as Record<string, string>)).result.type).toBe('ValidationError');
  });
});

describe('issue 28 §1 getChannelHandle, getUserMessageSummaries and canOpenMessageInDiscord', () => {
  it('the inbox lists DM conversations newest first; channel handles describe DMs and lobbies; only DMs can be opened', async () => {
    const platform = await startTestPlatform();
    const [alice, bob, carol] = [await game(platform, 'alice'), await game(platform, 'bob'), await game(platform, 'carol')];
    const idOf = (client: Client): string => client.getCurrentUserV2()?.id ?? '';
    const [aliceId, bobId, carolId] = [idOf(alice), idOf(bob), idOf(carol)];
    expect((await alice.getUserMessageSummaries()).summaries).toEqual([]);
    const toBob = await alice.sendUserMessage(bobId, 'first');
    const toCarol = await alice.sendUserMessage(carolId, 'second');
    const called: unknown[] = [];
    const listed = await alice.getUserMessageSummaries((result, summaries) => called.push([result.successful, summaries]));
    expect(listed.summaries).toEqual([
      { userId: carolId, lastMessageId: toCarol.messageId },
      { userId: bobId, lastMessageId: toBob.messageId },
    ]);
    expect(called).toEqual([[true, listed.summaries]]);
    const dmChannel = alice.getMessageHandle(toBob.messageId ?? '')?.channelId ?? '';
    expect(alice.getChannelHandle(dmChannel)).toEqual({ id: dmChannel, name: expect.any(String), type: 1, recipients: [aliceId, bobId] });
    // Bob's game never opened the DM: it knows the channel once it lists its conversations.
    const bobsChannel = dmChannel;
    expect(bob.getChannelHandle(bobsChannel)).toBeNull();
    await bob.getUserMessageSummaries();
    expect(bob.getChannelHandle(bobsChannel)).toMatchObject({ id: bobsChannel, type: 1, recipients: [bobId, aliceId] });
    const reply = await bob.sendUserMessage(aliceId, 'back');
    expect((await alice.getUserMessageSummaries()).summaries[0]).toEqual({ userId: bobId, lastMessageId: reply.messageId });

    const lobbyId = (await alice.createOrJoinLobby('inbox-lobby')).lobbyId ?? '';
    expect(alice.getChannelHandle(lobbyId)).toEqual({ id: lobbyId, name: '', type: 17, recipients: [aliceId] });
    expect(alice.getChannelHandle('123')).toBeNull();

    const lobbyLine = await alice.sendLobbyMessage(lobbyId, 'hi lobby');
    expect(alice.canOpenMessageInDiscord(toBob.messageId ?? '')).toBe(true);
    expect(alice.canOpenMessageInDiscord(lobbyLine.messageId ?? '')).toBe(false);
    expect(alice.canOpenMessageInDiscord('999')).toBe(false);
  });
});

describe('issue 28 §1 joinLinkedLobbyGuild and provisionalUserMergeCompleted', () => {
  it("a member of a linked lobby gets a single-use invite URL to the channel's server; a provisional player is asked to merge first", async () => {
    const platform = await startTestPlatform();
    const [alice, bob] = [await game(platform, 'alice'), await game(platform, 'bob')];
    const [aliceId, bobId] = [alice.getCurrentUserV2()?.id ?? '', bob.getCurrentUserV2()?.id ?? ''];
    const lobbyId = await serverLobby(platform, aliceId, bobId);
    await vi.waitFor(() => expect(alice.getLobbyHandle(lobbyId)).not.toBeNull());
    // Not linked yet: the platform's refusal.
    expect((await bob.joinLinkedLobbyGuild(lobbyId, undefined)).result).toMatchObject({ successful: false, errorCode: 50035 });
    const guildId = (await alice.getUserGuilds()).guilds[0]?.id ?? '';
    const general = (await alice.getGuildChannels(guildId)).channels.find((channel) => channel.name === 'general');
    expect((await alice.linkChannelToLobby(lobbyId, general?.id ?? '')).successful).toBe(true);

    const called: [boolean, string][] = [];
    const joined = await bob.joinLinkedLobbyGuild(lobbyId, () => called.push([false, 'merge?']), (result, url) => called.push([result.successful, url]));
    expect(joined.result.successful, joined.result.error).toBe(true);
    expect(joined.inviteUrl).toMatch(new RegExp(`^${platform.url}/invite/[A-Za-z0-9_-]+$`));
    expect(called).toEqual([[true, joined.inviteUrl]]);
    const code = joined.inviteUrl.split('/').at(-1) ?? '';
    const accepted = await fetch(`${platform.url}/api/v10/invites/${code}`, { method: 'POST', headers: { Authorization: platform.loginToken('bob') } });
    expect(accepted.status).toBe(200);
    expect((await bob.joinLinkedLobbyGuild('not-an-id', undefined)).result.type).toBe('ValidationError');

    // A provisional player: the merge-required callback, then the game's answer.
    const ticket = (await admin<{ token: string }>(platform, 'POST', '/_emulator/external-tokens', { type: 'STEAM_SESSION_TICKET', external_user_id: 'steam-28', display_name: 'Guest' })).token;
    const guest = newClient(platform);
    const provisional = await guest.getProvisionalToken(SEED_APP_ID, 'STEAM_SESSION_TICKET', ticket);
    const guestGame = await connected(platform, provisional.token?.accessToken ?? '');
    expect(guestGame.getCurrentUserV2()?.isProvisional).toBe(true);
    const asked: string[] = [];
    const pending = guestGame.joinLinkedLobbyGuild(lobbyId, () => asked.push('merge'));
    await vi.waitFor(() => expect(asked).toEqual(['merge']));
    guestGame.provisionalUserMergeCompleted(false);
    expect((await pending).result).toMatchObject({ successful: false, type: 'AuthorizationFailed' });
    // Without a merge-required callback the call ends at once.
    expect((await guestGame.joinLinkedLobbyGuild(lobbyId, undefined)).result.type).toBe('AuthorizationFailed');
    // Merged (the game says so): the call goes on with the account's token (here still the guest's: the platform answers).
    const again = guestGame.joinLinkedLobbyGuild(lobbyId, () => guestGame.provisionalUserMergeCompleted(true));
    expect((await again).result.type).not.toBe('AuthorizationFailed');
  });
});

describe('issue 28 §1 addLogCallback and setLogDir', () => {
  it('log lines reach each callback and the log file at their own severities, with the token redacted', async () => {
    const platform = await startTestPlatform();
    const token = await tokenOf(platform, 'alice');
    const dir = await mkdtemp(path.join(os.tmpdir(), 'sdk-log-'));
    try {
      const client = new Client({ platformBase: platform.url, logger: { build: 'debug', sink: () => undefined }, connection: { socketPaths: [] } });
      const verbose: [string, string][] = [];
      const warnings: string[] = [];
      client.addLogCallback((line, severity) => verbose.push([severity, line]), 'verbose');
      client.addLogCallback((_line, severity) => warnings.push(severity), 'warning');
      client.addLogCallback(() => warnings.push('none!'), 'none');
      expect(client.setLogDir(path.join(dir, 'logs'), 'info')).toBe(true);
      expect((await client.updateToken('Bearer', token)).successful).toBe(true);
      client.logger.warning('about the token', { note: `Bearer ${token}`, token });
      client.logger.verbose('quiet line');
      expect(verbose.map(([severity]) => severity)).toEqual(expect.arrayContaining(['verbose', 'warning']));
      expect(warnings.length).toBeGreaterThan(0);
      expect(warnings.every((severity) => severity === 'warning' || severity === 'error')).toBe(true);
      expect(verbose.map(([, line]) => line).join('\n')).not.toContain(token);
      const file = path.join(dir, 'logs', 'companion-client.log');
      await vi.waitFor(async () => expect(await readFile(file, 'utf8')).toContain('about the token'));
      const written = await readFile(file, 'utf8');
      expect(written).not.toContain(token);
      expect(written).not.toContain('quiet line');
      expect(client.setLogDir('', 'info')).toBe(true);
      expect(() => client.addLogCallback(() => undefined, 'loud' as 'info')).toThrow(RangeError);
      await client.disconnect();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a release build gives callbacks no info or verbose lines, whatever they ask', () => {
    const client = new Client({ logger: { sink: () => undefined }, connection: { socketPaths: [] } });
    const seen: string[] = [];
    client.addLogCallback((_line, severity) => seen.push(severity), 'verbose');
    client.logger.info('hidden');
    client.logger.warning('shown');
    expect(seen).toEqual(['warning']);
  });
});

describe('issue 28 §1 isDiscordAppInstalled and abortAuthorize without Companion', () => {
  it('no Companion: not installed; abortAuthorize ends the browser flow with Aborted', async () => {
    const platform = await startTestPlatform();
    const opened: string[] = [];
    const client = new Client({ platformBase: platform.url, logger: { sink: () => undefined }, connection: { socketPaths: [] }, openUrl: (url) => void opened.push(url) });
    const answers: boolean[] = [];
    expect(await client.isDiscordAppInstalled((installed) => answers.push(installed))).toBe(false);
    expect(answers).toEqual([false]);
    const args = new AuthorizationArgs();
    args.setScopes('identify');
    args.setClientId(SEED_APP_ID);
    const called: string[] = [];
    const pending = client.authorize(args, (result) => called.push(result.type));
    await vi.waitFor(() => expect(opened).toHaveLength(1));
    client.abortAuthorize();
    expect((await pending).result.type).toBe('Aborted');
    expect(called).toEqual(['Aborted']);
    await client.disconnect();
  });
});

describe('issue 28 §1 updateProvisionalAccountDisplayName', () => {
  it("renames the provisional player (the game's session hears it); a full account and a bad name are refused", async () => {
    const platform = await startTestPlatform();
    const ticket = (await admin<{ token: string }>(platform, 'POST', '/_emulator/external-tokens', { type: 'STEAM_SESSION_TICKET', external_user_id: 'steam-rename', display_name: 'Guest' })).token;
    const provisional = await newClient(platform).getProvisionalToken(SEED_APP_ID, 'STEAM_SESSION_TICKET', ticket);
    const guest = await connected(platform, provisional.token?.accessToken ?? '');
    expect(guest.getCurrentUserV2()?.displayName).toBe('Guest');
    const results: string[] = [];
    const renamed = await guest.updateProvisionalAccountDisplayName('Sharpshooter', (result) => results.push(result.type));
    expect(renamed.successful, renamed.error).toBe(true);
    expect(results).toEqual(['None']);
    await vi.waitFor(() => expect(guest.getCurrentUserV2()?.displayName).toBe('Sharpshooter'));
    const seen = await fetch(`${platform.url}/api/v10/users/@me`, { headers: { Authorization: `Bearer ${provisional.token?.accessToken ?? ''}` } });
    expect(((await seen.json()) as { global_name: string }).global_name).toBe('Sharpshooter');

    expect((await guest.updateProvisionalAccountDisplayName('   ')).type).toBe('ValidationError');
    expect((await guest.updateProvisionalAccountDisplayName('x'.repeat(33))).type).toBe('ValidationError');
    const full = await game(platform, 'alice');
    expect(await full.updateProvisionalAccountDisplayName('Alicia')).toMatchObject({ type: 'HttpError', status: 400, errorCode: 530010 });
    expect(full.getCurrentUserV2()?.displayName).not.toBe('Alicia');
  });
});
