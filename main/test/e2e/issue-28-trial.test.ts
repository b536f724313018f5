/**
 * Issue 28, "tried again as a game developer would": what tripped a new two-player game written
 * from the docs and the packed SDK alone, against a real host and emulator. The platform's
 * refusals say why (a 50035's `errors`, not only "Invalid Form Body"), and bad arguments name
 * the call that refused them, as every other call's do.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StatusType, type Metadata } from '../../../rpc/client/index.js';
import { SdkPlayers } from './support/sdk-players.js';

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
