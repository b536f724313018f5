/**
 * Issue 28, "tried again as a game developer would": what tripped a new two-player game written
 * from the docs and the packed SDK alone, against a real host and emulator. The platform's
 * refusals say why (a 50035's `errors`, not only "Invalid Form Body"), and bad arguments name
 * the call that refused them, as every other call's do.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ActivityActionTypes, DeviceAuthorizationArgs, RelationshipGroupType, RelationshipType, StatusType, type ActivityInvite, type Client, type Metadata } from '../../../rpc/client/index.js';
import { SdkPlayers } from './support/sdk-players.js';
import { DEMO_APP_ID, eventually } from './support/world.js';
import { quickDeviceFlowSleep } from './support/device-flow-sleep.js';

let table: SdkPlayers;

beforeEach(async () => {
  table = await SdkPlayers.start();
});
afterEach(async () => {
  await table.close();
});

describe("issue 28 trial: the platform's refusals say why", () => {
  it('a join request to a friend who is not playing names the activity as not joinable; oversized DM metadata names the metadata', async () => {
    const bob = await table.signedIn('bob');
    const aliceId = table.userId('alice');

    const asked = await bob.sendActivityJoinRequest(aliceId);
    expect(asked).toMatchObject({ successful: false, type: 'HttpError', status: 400, errorCode: 50035 });
    expect(asked.error).toMatch(/^HTTP 400: Invalid Form Body \(activity: .*not joinable\)$/);

    const big = await bob.sendUserMessageWithMetadata(aliceId, 'gg', { board: 'x'.repeat(2000) });
    expect(big.result).toMatchObject({ successful: false, type: 'HttpError', errorCode: 50035 });
    expect(big.result.error).toMatch(/^HTTP 400: Invalid Form Body \(metadata: .+\)$/);
    // The detail names the field and the platform's words, never what the game sent.
    expect(big.result.error).not.toContain('xxxx');
  });
});

describe('issue 28 trial: bad arguments name the call', () => {
  it('metadata that is an array is refused before the network by both message calls, the callback told too', async () => {
    const bob = await table.signedIn('bob');
    const aliceId = table.userId('alice');
    const told: string[] = [];
    const array = ['move', '4'] as unknown as Metadata;

    const dm = await bob.sendUserMessageWithMetadata(aliceId, 'x plays 4', array, (result) => told.push(result.error));
    expect(dm).toMatchObject({ result: { type: 'ValidationError', error: 'sendUserMessageWithMetadata: metadata must be an object of string keys and string values' }, messageId: null });
    const lobby = await bob.sendLobbyMessageWithMetadata('1', 'x plays 4', array);
    expect(lobby.result.error).toBe('sendLobbyMessageWithMetadata: metadata must be an object of string keys and string values');
    expect(told).toEqual([dm.result.error]);
    // Nothing was sent: alice's conversation with bob holds no message.
    const alice = await table.signedIn('alice');
    expect((await alice.getUserMessagesWithLimit(table.userId('bob'), 10)).messages).toEqual([]);
  });

  it('setOnlineStatus refuses a value that is not a status, and a game without a token, naming itself', async () => {
    const game = await table.connected('alice');
    const noToken = await game.setOnlineStatus(StatusType.Idle);
    expect(noToken).toMatchObject({ type: 'ClientNotReady', error: 'setOnlineStatus: no access token: call updateToken first' });
    const signedIn = await table.signedIn('bob');
    const bad = await signedIn.setOnlineStatus(42 as StatusType);
    expect(bad).toMatchObject({ type: 'ValidationError', error: 'setOnlineStatus: status must be StatusType.Online, Idle, Dnd or Invisible' });
  });
});

const quickSleep = quickDeviceFlowSleep();

/** The moves of a match: lobby messages with a `cell` in their metadata, from the moment the callbacks are set. */
function movesOf(game: Client): Metadata[] {
  const moves: Metadata[] = [];
  game.setLobbyCallbacks({
    messageCreated: (id) => {
      const message = game.getMessageHandle(id);
      if (message !== null && message.lobbyId !== null && message.metadata['cell'] !== undefined) moves.push(message.metadata);
    },
  });
  return moves;
}

describe('issue 28 trial: the wrong kind of argument is a ValidationError, not a TypeError from inside the SDK', () => {
  it('authorize, getTokenFromDevice, getTokenFromDeviceProvisionalMerge and acceptActivityInvite answer in their usual shape, the callback told', async () => {
    const game = await table.connected('alice');
    const told: unknown[][] = [];
    const tell = (...args: unknown[]): void => void told.push(args);
    const nothing = undefined as never;

    expect(await game.authorize(nothing, tell)).toEqual({
      result: expect.objectContaining({ type: 'ValidationError', error: 'authorize: args must be an AuthorizationArgs (new AuthorizationArgs())' }),
      code: null,
      redirectUri: null,
      via: 'rpc',
    });
    expect((await game.authorize({ scopes: 'openid' } as never)).result.type).toBe('ValidationError');
    const device = await game.getTokenFromDevice(null as never, tell);
    expect(device).toEqual({ result: expect.objectContaining({ type: 'ValidationError', error: 'getTokenFromDevice: args must be a DeviceAuthorizationArgs (new DeviceAuthorizationArgs())' }), token: null });
    const merge = await game.getTokenFromDeviceProvisionalMerge(nothing, 'STEAM_SESSION_TICKET', 'ticket');
    expect(merge).toMatchObject({ result: { type: 'ValidationError' }, token: null });
    const accepted = await game.acceptActivityInvite(nothing, tell);
    expect(accepted).toEqual({ result: expect.objectContaining({ type: 'ValidationError', error: 'acceptActivityInvite: invite must be an ActivityInvite (or an object with its messageId)' }), joinSecret: null });
    expect((await game.acceptActivityInvite({ messageId: 'not-an-id' })).result.error).toBe('acceptActivityInvite: messageId must be a snowflake id (a string of 1 to 20 digits)');
    expect(told.map((args) => [(args[0] as { type: string }).type, ...args.slice(1)])).toEqual([
      ['ValidationError', null, null],
      ['ValidationError', null, null, null, 0, ''],
      ['ValidationError', null],
    ]);
    // customSchemeAuthorizeUrl builds a URL (no result to answer): it throws, naming itself.
    expect(() => game.customSchemeAuthorizeUrl(nothing)).toThrow('customSchemeAuthorizeUrl: args must be an AuthorizationArgs (new AuthorizationArgs())');
  });
});

describe("issue 28 trial: docs/sdk.md's turn-based match, as the trial game played it", () => {
  it('the guest signs in by the device flow, asks to join, is let in, plays by lobby metadata, and reads the result in its inbox; a provisional stranger shows by name', async () => {
    const aliceId = table.userId('alice');
    const bobId = table.userId('bob');
    const host = await table.signedIn('alice');
    const hostMoves = movesOf(host);
    await host.setActivityJoinRequestCallback((user) => void host.sendActivityJoinRequestReply(user.id, true));

    // The guest: the device flow, its code approved on bob's Companion (its control API).
    const guest = await table.connected('bob', undefined, { deviceFlowSleep: quickSleep });
    const approvals: number[] = [];
    guest.setDeviceCodeCallback(({ userCode }) => void table.player('bob').control('POST', '/v1/device-codes', { user_code: userCode, authorize: true }).then(({ status }) => approvals.push(status)));
    const args = new DeviceAuthorizationArgs();
    args.setScopes(guest.getDefaultCommunicationScopes());
    const { result, token } = await guest.getTokenFromDevice(args);
    expect(result.successful, result.error).toBe(true);
    // The poll can redeem the approval before the control API's answer reaches the test.
    expect(await eventually(() => (approvals.length > 0 ? approvals : undefined), "Companion's answer to the approval")).toEqual([200]);
    expect((await guest.updateToken('Bearer', token?.accessToken ?? '')).successful).toBe(true);
    await eventually(() => guest.getPlatformStatus() === 'ready', "the guest's session READY", 10_000);
    const aliceStatuses: number[] = [];
    guest.setUserUpdatedCallback((userId) => userId === aliceId && aliceStatuses.push(guest.getUser(aliceId)?.status() ?? -1));
    const guestMoves = movesOf(guest);

    // The host opens a joinable party and its lobby; the guest sees her in the first group and asks to join.
    const secret = 'three-in-a-row-28';
    expect((await host.updateRichPresence({ state: 'Waiting for an opponent', party: { id: `party-${secret}`, size: [1, 3] }, secrets: { join: secret } })).successful).toBe(true);
    const { lobbyId } = await host.createOrJoinLobbyWithMetadata(secret, { game: 'three-in-a-row' }, { mark: 'X' });
    await eventually(() => guest.getRelationshipsByGroup(RelationshipGroupType.OnlinePlayingGame).some((r) => r.user.id === aliceId), 'alice in OnlinePlayingGame', 10_000);
    const invites: ActivityInvite[] = [];
    await guest.setActivityInviteCreatedCallback((invite) => invites.push(invite));
    expect((await guest.sendActivityJoinRequest(aliceId)).successful).toBe(true);
    const invite = await eventually(() => invites[0], "the host's yes, as an invite", 10_000);
    const { joinSecret } = await guest.acceptActivityInvite(invite);
    expect(joinSecret).toBe(secret);
    expect((await guest.createOrJoinLobbyWithMetadata(joinSecret ?? '', {}, { mark: 'O' })).lobbyId).toBe(lobbyId);

    // A provisional spectator, a stranger to the host: her lobby member has a name.
    const spectator = table.game('bob');
    const { token: guestToken } = await spectator.getProvisionalToken(DEMO_APP_ID, 'STEAM_SESSION_TICKET', await table.steamTicket('76561198000000028', 'Sam'));
    await spectator.updateToken('Bearer', guestToken?.accessToken ?? '');
    await eventually(() => spectator.getPlatformStatus() === 'ready', "the spectator's session READY", 10_000);
    expect((await spectator.createOrJoinLobby(secret)).lobbyId).toBe(lobbyId);
    const stranger = await eventually(() => host.getLobbyHandle(lobbyId ?? '')?.lobbyMembers.find((m) => m.id !== aliceId && m.id !== bobId), 'the spectator in the lobby');
    expect(stranger.user()).toMatchObject({ displayName: 'Sam', isProvisional: true });
    expect(host.getRelationshipHandle(stranger.id).discordRelationshipType).toBe(RelationshipType.None);

    // The host's status, seen by the guest; one move each, read from the metadata.
    expect((await host.setOnlineStatus(StatusType.Dnd)).successful).toBe(true);
    await eventually(() => aliceStatuses.includes(StatusType.Dnd), "the guest's game sees alice Dnd");
    await host.sendLobbyMessageWithMetadata(lobbyId ?? '', 'X plays 4', { cell: '4', mark: 'X' });
    await eventually(() => guestMoves.length === 1, "the guest sees the host's move");
    await guest.sendLobbyMessageWithMetadata(lobbyId ?? '', 'O plays 0', { cell: '0', mark: 'O' });
    await eventually(() => hostMoves.length === 2, 'the host sees both moves');
    expect(hostMoves).toEqual([{ cell: '4', mark: 'X' }, { cell: '0', mark: 'O' }]);

    // The result as a DM with metadata; the guest's inbox tells it from the invite and the join request.
    await host.sendUserMessageWithMetadata(bobId, 'good game!', { kind: 'result', winner: 'X' });
    const { summaries } = await guest.getUserMessageSummaries();
    expect(summaries[0]?.userId).toBe(aliceId);
    const { messages } = await guest.getUserMessagesWithLimit(aliceId, 20);
    const kinds = messages.map((m) => [m.activityInvite?.type ?? 'text', m.authorId === aliceId ? 'alice' : 'bob', m.metadata]);
    expect(kinds).toEqual([
      ['text', 'alice', { kind: 'result', winner: 'X' }],
      [ActivityActionTypes.Join, 'alice', {}],
      [ActivityActionTypes.JoinRequest, 'bob', {}],
    ]);
  });
});
