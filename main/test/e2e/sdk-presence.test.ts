/**
 * Issue 28 §1, the presence and invite calls with both players' hosts running: a game asks to
 * join a friend (sendActivityJoinRequest) and the friend's game hears it through Companion; the
 * join-with-application callback; an invite's validity following its sender's presence
 * (setActivityInviteUpdatedCallback); the Steam registration the host's launcher runs.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Client, StatusType, type ActivityInvite, type ActivityJoinRequest, type RpcUserSummary } from '../../../rpc/client/index.js';
import { Recorder } from '../../../rpc/test/compat/helpers.js';
import { CommandGameLauncher } from '../../src/host/social/game-launcher.js';
import { SdkPlayers } from './support/sdk-players.js';
import { DEMO_APP_ID, eventually, type Player } from './support/world.js';

const SECRET = 'join-secret-presence-28';
const JOINABLE = { state: 'In a squad', party: { id: 'party-28', size: [1, 4] }, secrets: { join: SECRET } };

let table: SdkPlayers;
let alice: Player;
let bob: Player;

beforeEach(async () => {
  table = await SdkPlayers.start();
  alice = table.player('alice');
  bob = table.player('bob');
});
afterEach(async () => {
  await table.close();
});

const aliceId = (): string => table.userId('alice');
const bobId = (): string => table.userId('bob');
const connected = (player: Player): Promise<Client> => table.connected(player.name);
/** A game connected to the player's Companion that also holds its own token (authorize, getToken, updateToken), its platform session ready. */
const signedIn = (player: Player): Promise<Client> => table.signedIn(player.name, DEMO_APP_ID, 'identify sdk.social_layer');

async function bobSeesParty(): Promise<void> {
  await eventually(() => bob.host.friends.get(aliceId())?.presence.activities.find((a) => a.party?.id === 'party-28'), "bob's view of alice's party");
}

describe('issue 28 §1 setOnlineStatus (with the hosts)', () => {
  it("the status alice's game sets is what bob's Companion shows of her, over her own Companion's online; invisible shows offline", async () => {
    const game = await signedIn(alice);
    await eventually(() => bob.host.friends.get(aliceId())?.presence.status === 'online', "bob's Companion sees alice online");
    expect((await game.setOnlineStatus(StatusType.Dnd)).successful).toBe(true);
    await eventually(() => bob.host.friends.get(aliceId())?.presence.status === 'dnd', "bob's Companion sees alice dnd");
    await game.setOnlineStatus(StatusType.Invisible);
    await eventually(() => bob.host.friends.get(aliceId())?.presence.status === 'offline', "bob's Companion sees alice offline");
    // The game's session ends: her choice ends with it, and her Companion's online shows again.
    await game.disconnect();
    await eventually(() => bob.host.friends.get(aliceId())?.presence.status === 'online', "bob's Companion sees alice online again");
  });
});

describe('issue 28 §1 sendActivityJoinRequest (with the hosts)', () => {
  it("bob's game asks to join alice: her game's join-request callback gets bob through her Companion; her yes reaches bob's game as an invite, whose acceptance gives the secret", async () => {
    const host = await connected(alice);
    const requests = new Recorder<[RpcUserSummary, ActivityJoinRequest]>();
    await host.setActivityJoinRequestCallback((user, request) => requests.push([user, request]));
    expect((await host.updateRichPresence(JOINABLE)).successful).toBe(true);
    await bobSeesParty();
    const guest = await signedIn(bob);
    const invites = new Recorder<ActivityInvite>();
    await guest.setActivityInviteCreatedCallback(invites.push);

    const sent = await guest.sendActivityJoinRequest(aliceId());
    expect(sent.successful, sent.error).toBe(true);
    const [user] = await requests.until(() => true, 5000, "alice's join-request callback");
    expect(user).toMatchObject({ id: bobId(), username: 'bob' });
    expect(alice.host.social.joinRequests()).toEqual([expect.objectContaining({ applicationId: DEMO_APP_ID, user: expect.objectContaining({ id: bobId() }) })]);

    expect((await host.sendActivityJoinRequestReply(bobId(), true)).successful).toBe(true);
    const invite = await invites.until(() => true, 5000, "bob's invite-created callback");
    expect(invite).toMatchObject({ senderId: aliceId(), applicationId: DEMO_APP_ID, partyId: 'party-28', isValid: true });
    expect((await guest.acceptActivityInvite(invite)).joinSecret).toBe(SECRET);
  });
});

describe('issue 28 §1 setActivityJoinWithApplicationCallback', () => {
  it("bob's game gets (its application id, the join secret) when he accepts alice's invite in Companion; removing it stops the calls", async () => {
    const host = await connected(alice);
    await host.updateRichPresence(JOINABLE);
    await bobSeesParty();
    const guest = await connected(bob);
    const joins = new Recorder<[string, string]>();
    expect((await guest.setActivityJoinWithApplicationCallback((applicationId, secret) => joins.push([applicationId, secret]))).successful).toBe(true);

    await host.sendActivityInvite(bobId(), 'come');
    const invite = await eventually(() => bob.host.social.invites()[0], "bob's received invite");
    expect(await bob.control('POST', `/v1/invites/${invite.id}/accept`, {})).toMatchObject({ status: 200, body: { secret_delivered: true } });
    expect(await joins.until(() => true, 5000, 'the join-with-application callback')).toEqual([DEMO_APP_ID, SECRET]);
    expect((await guest.setActivityJoinWithApplicationCallback(undefined)).successful).toBe(true);
  });
});

describe('issue 28 §1 setActivityInviteUpdatedCallback', () => {
  it("an invite becomes invalid when its sender leaves the party, and valid again when they are back, as bob's game session sees alice's presence", async () => {
    const host = await connected(alice);
    await host.updateRichPresence(JOINABLE);
    await bobSeesParty();
    const guest = await signedIn(bob);
    const updated = new Recorder<ActivityInvite>();
    const created = new Recorder<ActivityInvite>();
    expect((await guest.setActivityInviteUpdatedCallback(updated.push)).successful).toBe(true);
    await guest.setActivityInviteCreatedCallback(created.push);

    await host.sendActivityInvite(bobId(), null);
    const invite = await created.until(() => true, 5000, 'the invite');
    expect(updated.items).toEqual([]);
    await host.clearRichPresence();
    expect(await updated.until(() => true, 5000, 'the invite made invalid')).toMatchObject({ messageId: invite.messageId, senderId: aliceId(), isValid: false });
    await host.updateRichPresence(JOINABLE);
    expect(await updated.until((item) => item.isValid, 5000, 'the invite valid again')).toMatchObject({ messageId: invite.messageId, isValid: true });
    // Another party: the old invite stays invalid.
    await host.updateRichPresence({ ...JOINABLE, party: { id: 'party-other', size: [1, 4] } });
    await updated.count(() => true, 3, 5000, 'the invite made invalid again');
    expect(updated.items.at(-1)).toMatchObject({ isValid: false });
  });
});

describe('issue 28 §1 registerLaunchSteamApplication (with the host launcher)', () => {
  it("the host's launcher starts the registered Steam game by its steam:// URL to deliver a join", async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'companion-steam-e2e-'));
    try {
      const registrar = new Client({ companionDataDir: dataDir, logger: { sink: () => undefined } });
      expect(await registrar.registerLaunchSteamApplication(DEMO_APP_ID, 440)).toBe(true);
      const runs: string[][] = [];
      const launcher = new CommandGameLauncher({ dataDir, env: {}, platform: 'linux', run: (command, args) => void runs.push([command, ...args]) });
      expect(await launcher.launch(DEMO_APP_ID)).toMatchObject({ launched: true, how: 'registered command' });
      const opener = process.platform === 'darwin' ? ['open'] : process.platform === 'win32' ? ['rundll32', 'url.dll,FileProtocolHandler'] : ['xdg-open'];
      expect(runs).toEqual([[...opener, 'steam://rungameid/440']]);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
