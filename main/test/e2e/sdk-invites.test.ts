/**
 * Game invites between two hosts (alice and bob, friends on one embedded platform) through two
 * SDK clients: presence, sendActivityInvite → the invite-created callback →
 * acceptActivityInvite → the join secret; ask to join → the join-request callback → a yes →
 * the join callback with the secret; and a join that makes bob's host launch the command the
 * SDK registered (the host's default launcher).
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Client, type ActivityInvite, type ActivityJoinRequest, type RpcUserSummary } from '../../../rpc/client/index.js';
import { Recorder } from '../../../rpc/test/compat/helpers.js';
import { SdkPlayers } from './support/sdk-players.js';
import { DEMO_APP_ID, eventually, type Player } from './support/world.js';

const SECRET = 'join-secret-alpha-7f3a';
const JOINABLE = {
  state: 'In a squad',
  details: 'Ranked match',
  party: { id: 'party-alpha', size: [1, 4] },
  secrets: { join: SECRET },
  assets: { large_image: 'logo', invite_cover_image: 'cover-art' },
};

let table: SdkPlayers;
let alice: Player;
let bob: Player;

beforeEach(async () => {
  table = await SdkPlayers.start(['alice', 'bob'], {});
  alice = table.player('alice');
  bob = table.player('bob');
});
afterEach(async () => {
  await table.close();
});

const aliceId = (): string => table.userId('alice');
const bobId = (): string => table.userId('bob');
const sdkFor = (player: Player): Client => table.game(player.name);
const connected = (player: Player): Promise<Client> => table.connected(player.name);

/** bob's host has seen alice's activity with this party. */
async function bobSeesParty(partyId: string): Promise<void> {
  await eventually(() => bob.host.friends.get(aliceId())?.presence.activities.find((a) => a.party?.id === partyId), `bob's view of alice's party ${partyId}`);
}

describe('invites between two hosts through the SDK', () => {
  it('sendActivityInvite reaches the invite-created callback, and acceptActivityInvite returns the join secret', async () => {
    const host = await connected(alice);
    expect((await host.updateRichPresence(JOINABLE)).successful).toBe(true);
    await bobSeesParty('party-alpha');
    const guest = await connected(bob);
    const invites = new Recorder<ActivityInvite>();
    expect((await guest.setActivityInviteCreatedCallback(invites.push)).successful).toBe(true);

    const sent = new Recorder<boolean>();
    const result = await host.sendActivityInvite(bobId(), 'come play', (r) => sent.push(r.successful));
    expect(result.successful, result.error).toBe(true);
    expect(sent.items).toEqual([true]);

    const invite = await invites.until(() => true, 5000, 'the invite-created callback');
    expect(invite).toMatchObject({ type: 1, senderId: aliceId(), sender: { id: aliceId(), username: 'alice' }, applicationId: DEMO_APP_ID, partyId: 'party-alpha', isValid: true });
    expect(invite.activity).toMatchObject({ assets: { invite_cover_image: 'cover-art' } });
    expect(JSON.stringify(invite)).not.toContain(SECRET);

    const accepted = new Recorder<[boolean, string | null]>();
    const outcome = await guest.acceptActivityInvite(invite, (r, secret) => accepted.push([r.successful, secret]));
    expect(outcome.result.successful, outcome.result.error).toBe(true);
    expect(outcome.joinSecret).toBe(SECRET);
    expect(accepted.items).toEqual([[true, SECRET]]);

    // Accepting it again: the invite is gone (4011).
    const again = await guest.acceptActivityInvite(invite);
    expect(again).toMatchObject({ joinSecret: null, result: { type: 'RpcError', errorCode: 4011 } });
  });

  it('an invite from a game without a joinable presence fails with 5006', async () => {
    const host = await connected(alice);
    await host.updateRichPresence({ state: 'Browsing menus' });
    const result = await host.sendActivityInvite(bobId(), null);
    expect(result).toMatchObject({ successful: false, type: 'RpcError', errorCode: 5006 });
  });

  it('ask to join: the join-request callback gets bob, the reply yes sends bob\'s game the secret; a reply no closes the request', async () => {
    const host = await connected(alice);
    const requests = new Recorder<[RpcUserSummary, ActivityJoinRequest]>();
    await host.setActivityJoinRequestCallback((user, request) => requests.push([user, request]));
    await host.updateRichPresence(JOINABLE);
    await bobSeesParty('party-alpha');
    const guest = await connected(bob);
    const joins = new Recorder<string>();
    await guest.setActivityJoinCallback(joins.push);

    expect(await bob.control('POST', `/v1/friends/${aliceId()}/join`, {})).toMatchObject({ status: 200, body: { joined: false } });
    const [user, request] = await requests.until(() => true, 5000, 'the join-request callback');
    expect(user).toMatchObject({ id: bobId(), username: 'bob' });
    expect(request.messageId).toEqual(expect.any(String));
    expect((await host.sendActivityJoinRequestReply(user.id, true)).successful).toBe(true);
    expect(await joins.until(() => true, 5000, 'the join callback')).toBe(SECRET);

    // Again, answered no this time.
    const declined = new Promise((resolve) => bob.host.social.on('change', (change) => change.type === 'request-declined' && resolve(change)));
    await bob.control('POST', `/v1/friends/${aliceId()}/join`, {});
    await requests.until(() => requests.items.length === 2, 5000, 'the second join request');
    expect((await host.sendActivityJoinRequestReply(bobId(), false)).successful).toBe(true);
    await declined;
    // Nothing left to answer.
    expect(await host.sendActivityJoinRequestReply(bobId(), true)).toMatchObject({ type: 'RpcError', errorCode: 4012 });
    expect(joins.items).toEqual([SECRET]);
  });

  it("accepting an invite while the game is not running on bob's side launches the command registered with registerLaunchCommand", async () => {
    const marker = path.join(await table.world.tempDir('companion-sdk-launch-'), 'launched.txt');
    const registrar = new Client({ companionDataDir: bob.dataDir, logger: { sink: () => undefined } });
    const script = `require('fs').writeFileSync(${JSON.stringify(marker)}, process.argv.slice(1).join(' '))`;
    expect(await registrar.registerLaunchCommand(DEMO_APP_ID, [process.execPath, '-e', script, 'launched-by-companion'])).toBe(true);

    const host = await connected(alice);
    await host.updateRichPresence(JOINABLE);
    await bobSeesParty('party-alpha');
    expect((await host.sendActivityInvite(bobId(), 'join us')).successful).toBe(true);
    const invite = await eventually(() => bob.host.social.invites()[0], "bob's received invite");
    expect([...bob.host.server.connections()].filter((c) => c.clientId === DEMO_APP_ID)).toEqual([]);

    const accepted = await bob.control('POST', `/v1/invites/${invite.id}/accept`, {});
    expect(accepted).toMatchObject({ status: 200, body: { secret_delivered: false } });
    // The command runs as its own process: wait for what it writes.
    await eventually(() => existsSync(marker), 'the marker written by the launched command', 10_000);
    expect(await readFile(marker, 'utf8')).toBe('launched-by-companion');

    // The game, once started, subscribes and gets the pending join.
    const game = sdkFor(bob);
    const joins = new Recorder<string>();
    await game.setActivityJoinCallback(joins.push);
    expect((await game.connect()).successful).toBe(true);
    expect(await joins.until(() => true, 5000, 'the pending join')).toBe(SECRET);
  });
});
