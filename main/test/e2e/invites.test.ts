/**
 * Two hosts (alice and bob, friends on one emulator), each with a game on the real
 * @xhayper/discord-rpc client: presence, ask-to-join (yes and no), direct invites, public
 * parties, and the join secret never visible in bob's view of alice's presence.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_APP_ID, eventually, joinableActivity, World, type Player } from './support/world.js';

const SECRET = 'join-secret-alpha-7f3a';
let world: World;
let alice: Player;
let bob: Player;

beforeEach(async () => {
  world = await World.start();
  alice = await world.player('alice');
  bob = await world.player('bob');
});
afterEach(async () => world.close());

const aliceId = (): string => alice.host.session.user!.id;
const bobId = (): string => bob.host.session.user!.id;

/** bob's host has seen alice's game activity with this party id. */
async function bobSeesParty(partyId: string) {
  return eventually(
    () => bob.host.friends.get(aliceId())?.presence.activities.find((a) => a.party?.id === partyId),
    `bob's view of alice's party ${partyId}`,
  );
}

describe('presence and game invites between two hosts', () => {
  it("relays alice's activity to bob without the join secret, anywhere bob can look", async () => {
    const game = await alice.game();
    await game.client.user!.setActivity(joinableActivity());
    const seen = await bobSeesParty('party-alpha');
    expect(seen).toMatchObject({ application_id: DEMO_APP_ID, state: 'In a squad', party: { id: 'party-alpha', size: [1, 4] } });
    expect(seen.secrets).toBeUndefined();
    const friends = await bob.control('GET', '/v1/friends');
    expect(friends.status).toBe(200);
    expect(friends.text).toContain('party-alpha');
    expect(friends.text).not.toContain(SECRET);
    expect(JSON.stringify(bob.host.friends.list())).not.toContain(SECRET);
    // Nor does alice's own control API show it (the UI and QA tools read it).
    const games = await alice.control('GET', '/v1/games');
    expect(games.text).toContain('party-alpha');
    expect(games.text).not.toContain(SECRET);
    // The Games screen's facts: transport and the library guessed from the game's own frames.
    expect(games.body.games[0]).toMatchObject({ transport: 'ipc', client_library: { library: '@xhayper/discord-rpc' } });
  });

  it('ask to join, yes: alice\'s game gets ACTIVITY_JOIN_REQUEST, answers, and bob\'s game gets ACTIVITY_JOIN with the secret', async () => {
    const hostGame = await alice.game();
    await hostGame.subscribe('ACTIVITY_JOIN_REQUEST');
    await hostGame.client.user!.setActivity(joinableActivity());
    await bobSeesParty('party-alpha');
    const guestGame = await bob.game();
    await guestGame.subscribe('ACTIVITY_JOIN');

    const asked = await bob.control('POST', `/v1/friends/${aliceId()}/join`, {});
    expect(asked).toMatchObject({ status: 200, body: { joined: false } });

    const [, request] = await hostGame.events.until(([evt]) => evt === 'ACTIVITY_JOIN_REQUEST', 5000, 'ACTIVITY_JOIN_REQUEST');
    expect(request.user).toMatchObject({ id: bobId(), username: 'bob' });
    await hostGame.client.user!.sendJoinInvite(bobId());

    const [, join] = await guestGame.events.until(([evt]) => evt === 'ACTIVITY_JOIN', 5000, 'ACTIVITY_JOIN');
    expect(join).toEqual({ secret: SECRET });
    expect(alice.host.social.joinRequests()).toEqual([]);
  });

  it('ask to join a party with no join secret: refused in plain words before the platform is asked, and alice\'s game is never asked', async () => {
    const hostGame = await alice.game();
    await hostGame.subscribe('ACTIVITY_JOIN_REQUEST');
    await hostGame.client.user!.setActivity(joinableActivity({ joinSecret: undefined, partyId: 'party-closed' }));
    await bobSeesParty('party-closed');

    const asked = await bob.control('POST', `/v1/friends/${aliceId()}/join`, {});
    expect(asked.status).toBe(409);
    expect(asked.text).toContain("alice's game cannot be joined right now");
    expect(asked.text).not.toMatch(/POST|Invalid Form Body|\(400\)/);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(hostGame.events.items.some(([evt]) => evt === 'ACTIVITY_JOIN_REQUEST')).toBe(false);
  });

  it('ask to join, no: the request is closed and bob\'s game never gets the secret', async () => {
    const hostGame = await alice.game();
    await hostGame.subscribe('ACTIVITY_JOIN_REQUEST');
    await hostGame.client.user!.setActivity(joinableActivity());
    await bobSeesParty('party-alpha');
    const guestGame = await bob.game();
    await guestGame.subscribe('ACTIVITY_JOIN');
    const declined = new Promise((resolve) => bob.host.social.on('change', (change) => change.type === 'request-declined' && resolve(change)));

    await bob.control('POST', `/v1/friends/${aliceId()}/join`, {});
    await hostGame.events.until(([evt]) => evt === 'ACTIVITY_JOIN_REQUEST', 5000, 'ACTIVITY_JOIN_REQUEST');
    await hostGame.client.user!.closeJoinRequest(bobId());
    await declined;

    expect(alice.host.social.joinRequests()).toEqual([]);
    // A round trip on bob's game: anything its host had queued for it arrives before the reply.
    await guestGame.client.request('SUBSCRIBE', {}, 'ACTIVITY_INVITE');
    expect(guestGame.events.items.filter(([evt]) => evt === 'ACTIVITY_JOIN')).toEqual([]);
    // Answering again is a clear error: there is nothing left to answer.
    await expect(hostGame.client.user!.sendJoinInvite(bobId())).rejects.toThrow(/No pending join request/);
  });

  it('direct invite: ACTIVITY_INVITE reaches bob\'s game with the cover image, and accepting returns the secret', async () => {
    const hostGame = await alice.game();
    await hostGame.client.user!.setActivity(joinableActivity({ largeImageKey: 'logo' }));
    await hostGame.client.request('SET_ACTIVITY', {
      pid: process.pid,
      activity: {
        state: 'In a squad',
        party: { id: 'party-alpha', size: [1, 4] },
        secrets: { join: SECRET },
        assets: { large_image: 'logo', invite_cover_image: 'cover-art' },
      },
    });
    await bobSeesParty('party-alpha');
    const guestGame = await bob.game();
    await guestGame.subscribe('ACTIVITY_INVITE');

    await hostGame.client.request('ACTIVITY_INVITE_USER', { user_id: bobId(), content: 'come play' });

    const [, invite] = await guestGame.events.until(([evt]) => evt === 'ACTIVITY_INVITE', 5000, 'ACTIVITY_INVITE');
    expect(invite).toMatchObject({ type: 1, user: { id: aliceId(), username: 'alice' }, activity: { party: { id: 'party-alpha' } } });
    expect(invite.activity.assets.invite_cover_image).toBe('cover-art');
    expect(JSON.stringify(invite)).not.toContain(SECRET);

    const accepted = await guestGame.client.request('ACCEPT_ACTIVITY_INVITE', { message_id: invite.message_id });
    expect(accepted.data).toEqual({ secret: SECRET });
  });

  it('an invite from a game without a joinable activity is refused with 5006 and a clear message', async () => {
    const hostGame = await alice.game();
    await hostGame.client.user!.setActivity({ state: 'Browsing menus' });
    await expect(hostGame.client.request('ACTIVITY_INVITE_USER', { user_id: bobId() })).rejects.toThrow(/No eligible activity/);
  });

  it('public party: bob joins without a request and his game gets ACTIVITY_JOIN', async () => {
    const hostGame = await alice.game();
    await hostGame.client.request('SET_ACTIVITY', {
      pid: process.pid,
      activity: { state: 'Open lobby', party: { id: 'party-open', size: [2, 8], privacy: 1 }, secrets: { join: SECRET } },
    });
    await bobSeesParty('party-open');
    const guestGame = await bob.game();
    await guestGame.subscribe('ACTIVITY_JOIN');

    const joined = await bob.control('POST', `/v1/friends/${aliceId()}/join`, {});
    expect(joined).toMatchObject({ status: 200, body: { joined: true } });
    const [, join] = await guestGame.events.until(([evt]) => evt === 'ACTIVITY_JOIN', 5000, 'ACTIVITY_JOIN');
    expect(join).toEqual({ secret: SECRET });
  });

  it('accepting an invite while the game is not running launches it and delivers ACTIVITY_JOIN once it subscribes', async () => {
    await world.close();
    world = await World.start();
    alice = await world.player('alice');
    let launched: string | undefined;
    const launcher = {
      launch: async (applicationId: string) => {
        launched = applicationId;
        return { launched: true, how: 'test launcher' };
      },
    };
    bob = await world.player('bob', { launcher });

    const hostGame = await alice.game();
    await hostGame.client.user!.setActivity(joinableActivity());
    await bobSeesParty('party-alpha');
    await hostGame.client.request('ACTIVITY_INVITE_USER', { user_id: bobId() });
    const invite = await eventually(() => bob.host.social.invites()[0], "bob's received invite");

    const accepted = await bob.control('POST', `/v1/invites/${invite.id}/accept`, {});
    expect(accepted).toMatchObject({ status: 200, body: { secret_delivered: false } });
    expect(launched).toBe(DEMO_APP_ID);

    // The "launched" game starts and subscribes, as a real one would.
    const guestGame = await bob.game();
    await guestGame.subscribe('ACTIVITY_JOIN');
    const [, join] = await guestGame.events.until(([evt]) => evt === 'ACTIVITY_JOIN', 5000, 'ACTIVITY_JOIN');
    expect(join).toEqual({ secret: SECRET });
  });

  it('declining an invite forgets it on the host (no UI shows it again); an unknown invite is a 404', async () => {
    const hostGame = await alice.game();
    await hostGame.client.user!.setActivity(joinableActivity());
    await bobSeesParty('party-alpha');
    await hostGame.client.request('ACTIVITY_INVITE_USER', { user_id: bobId() });
    const invite = await eventually(() => bob.host.social.invites()[0], "bob's received invite");

    expect(await bob.control('POST', `/v1/invites/${invite.id}/decline`, {})).toMatchObject({ status: 200, body: { declined: true } });
    expect((await bob.control('GET', '/v1/invites')).body).toEqual({ invites: [] });
    const again = await bob.control('POST', `/v1/invites/${invite.id}/decline`, {});
    expect(again.status).toBe(404);
    expect(again.text).toContain('no invite');
  });

  it("accepting an invite on one of bob's devices tells his other device's game with ACTIVITY_INVITE_ACCEPTED", async () => {
    const laptop = await world.player('bob', {}, 'bob-laptop');
    const hostGame = await alice.game();
    await hostGame.client.user!.setActivity(joinableActivity());
    await bobSeesParty('party-alpha');
    const desktopGame = await bob.game();
    await desktopGame.subscribe('ACTIVITY_INVITE');
    await desktopGame.subscribe('ACTIVITY_INVITE_ACCEPTED');
    const laptopGame = await laptop.game();
    await laptopGame.subscribe('ACTIVITY_INVITE');
    await laptopGame.subscribe('ACTIVITY_INVITE_ACCEPTED');

    await hostGame.client.request('ACTIVITY_INVITE_USER', { user_id: bobId() });
    const [, invite] = await desktopGame.events.until(([evt]) => evt === 'ACTIVITY_INVITE', 5000, 'ACTIVITY_INVITE on the desktop');
    await laptopGame.events.until(([evt]) => evt === 'ACTIVITY_INVITE', 5000, 'ACTIVITY_INVITE on the laptop');
    const accepted = await desktopGame.client.request('ACCEPT_ACTIVITY_INVITE', { message_id: invite.message_id });
    expect(accepted.data).toEqual({ secret: SECRET });

    const [, elsewhere] = await laptopGame.events.until(([evt]) => evt === 'ACTIVITY_INVITE_ACCEPTED', 5000, 'ACTIVITY_INVITE_ACCEPTED');
    expect(elsewhere).toMatchObject({ type: 1, user: { id: aliceId() }, message_id: invite.message_id, channel_id: invite.channel_id });
    expect(JSON.stringify(elsewhere)).not.toContain(SECRET);
    // The device that accepted is not told about its own acceptance.
    expect(desktopGame.events.items.filter(([evt]) => evt === 'ACTIVITY_INVITE_ACCEPTED')).toEqual([]);
    // The laptop no longer offers the invite.
    expect(laptop.host.social.invites()).toEqual([]);
  });
});
