import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { PlatformAddresses, PlatformServices } from '../../src/assembly/platform-services.js';
import type { Route } from '../../src/http/router.js';
import { SEED, type PlatformServer } from '../../src/index.js';
import { Store } from '../../src/state/store.js';
import { DEFAULT_LIMITS, type PlatformLimits } from '../../src/support/limits.js';
import { SILENT_LOGGER } from '../../src/support/logger.js';
import type { Lobby, LobbyMessage, PlatformChannel, PlatformMessage } from '../../src/wire/index.js';
import { api, startTestPlatform } from './harness.js';
import { obtainTokens } from './oauth.js';

export type Player = 'alice' | 'bob' | 'carol' | 'mallory';

/** What the victims hold: if any of it shows in an attacker's answer or dispatch, it leaked. */
export const SECRETS = {
  lobbyMessage: 'meet at the north gate, password swordfish',
  lobbyMetadata: 'north-gate-rendezvous',
  dmMessage: "carol's plan: the vault at midnight",
} as const;

/**
 * Two applications and their players, as an attacker meets them: game A (the seeded app) and
 * game B (another public client). Game B's server made a lobby with alice, bob and carol (alice
 * plays both games), linked to the guild's text channel, with bob's message in it and an
 * invite made for bob; bob and carol share a DM with carol's message. Mallory is a player in no
 * guild, lobby or DM.
 */
export interface Tenants {
  readonly platform: PlatformServer;
  readonly appA: string;
  readonly appB: string;
  /** `Bot <token>` of each app. */
  readonly botA: string;
  readonly botB: string;
  readonly ids: Readonly<Record<Player, string>>;
  /** A player's user token (the desktop client's). */
  userToken(player: Player): string;
  /** `Bearer <token>` of a player's game, with the Social SDK's scope. */
  bearer(player: Player, app: string): Promise<string>;
  readonly lobbyB: string;
  readonly lobbyMessageB: string;
  readonly lobbyA: string;
  readonly dm: string;
  readonly dmMessage: string;
  /** A lobby channel invite of game B's lobby, made for bob. */
  readonly inviteForBob: string;
  /** Bob's OAuth2 grant for game B. */
  readonly grantOfBob: string;
}

export async function otherGame(platform: PlatformServer, name = 'Game B'): Promise<string> {
  const app = platform.admin.createApp({ name });
  expect((await api(platform, 'PATCH', `/_emulator/apps/${app.id}`, { admin: true, body: { public_client: true } })).status).toBe(200);
  return app.id;
}

function botOf(platform: PlatformServer, appId: string): string {
  return `Bot ${platform.admin.apps().find((app) => app.id === appId)?.bot_token ?? ''}`;
}

async function ok<T>(response: Promise<{ status: number; body: T }>): Promise<T> {
  const answered = await response;
  expect(answered.status, JSON.stringify(answered.body)).toBeLessThan(300);
  return answered.body;
}

export async function setUpTenants(platform?: PlatformServer): Promise<Tenants> {
  const server = platform ?? (await startTestPlatform());
  const appA = SEED.appId;
  const appB = await otherGame(server);
  const mallory = (await ok(api<{ id: string }>(server, 'POST', '/_emulator/users', { admin: true, body: { username: 'mallory' } }))).id;
  const ids = { alice: SEED.users.alice, bob: SEED.users.bob, carol: SEED.users.carol, mallory };
  const tokens = new Map<string, string>();
  const bearer = async (player: Player, app: string): Promise<string> => {
    const key = `${player}:${app}`;
    let token = tokens.get(key);
    if (token === undefined) {
      token = `Bearer ${(await obtainTokens(server, server.loginToken(player), { client_id: app, scope: 'identify guilds sdk.social_layer' })).access_token}`;
      tokens.set(key, token);
    }
    return token;
  };
  const [botA, botB] = [botOf(server, appA), botOf(server, appB)];

  const lobbyB = await ok(
    api<Lobby>(server, 'POST', '/api/v10/lobbies', {
      token: botB,
      body: { metadata: { where: SECRETS.lobbyMetadata }, members: [{ id: ids.alice, flags: 1 }, { id: ids.bob }, { id: ids.carol }] },
    }),
  );
  const message = await ok(api<LobbyMessage>(server, 'POST', `/api/v10/lobbies/${lobbyB.id}/messages`, { token: await bearer('bob', appB), body: { content: SECRETS.lobbyMessage } }));
  const general = SEED.channels.general;
  await ok(api(server, 'PATCH', `/api/v10/lobbies/${lobbyB.id}/channel-linking`, { token: await bearer('alice', appB), body: { channel_id: general } }));
  const invite = await ok(api<{ code: string }>(server, 'POST', `/api/v10/lobbies/${lobbyB.id}/members/${ids.bob}/invites`, { token: botB, body: {} }));
  const lobbyA = await ok(api<Lobby>(server, 'PUT', '/api/v10/lobbies', { token: await bearer('alice', appA), body: { secret: 'alice-a' } }));

  const dm = await ok(api<PlatformChannel>(server, 'POST', '/api/v10/users/@me/channels', { token: server.loginToken('carol'), body: { recipient_id: ids.bob } }));
  const dmMessage = await ok(api<PlatformMessage>(server, 'POST', `/api/v10/channels/${dm.id}/messages`, { token: await bearer('carol', appB), body: { content: SECRETS.dmMessage } }));
  const grants = await ok(api<{ id: string; application: { id: string } }[]>(server, 'GET', '/api/v10/oauth2/tokens', { token: server.loginToken('bob') }));
  const grantOfBob = grants.find((grant) => grant.application.id === appB)?.id ?? '';
  expect(grantOfBob).not.toBe('');

  return {
    platform: server,
    appA,
    appB,
    botA,
    botB,
    ids,
    userToken: (player) => server.loginToken(player),
    bearer,
    lobbyB: lobbyB.id,
    lobbyMessageB: message.id,
    lobbyA: lobbyA.id,
    dm: dm.id,
    dmMessage: dmMessage.id,
    inviteForBob: invite.code,
    grantOfBob,
  };
}

/** The emulator's services over a fresh store (not listening), for `work`; closed after. */
export async function withServices<T>(work: (services: PlatformServices) => T | Promise<T>, limits: Partial<PlatformLimits> = {}): Promise<T> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'companion-routes-'));
  const store = await Store.open({ dataDir: dir, now: Date.now, persistDebounceMs: 10_000, messagesPerChannel: 100, logger: SILENT_LOGGER });
  try {
    const services = new PlatformServices(store, { limits: { ...DEFAULT_LIMITS, ...limits }, now: Date.now, logger: SILENT_LOGGER, strictApps: false, adminToken: 'x' }, new PlatformAddresses());
    try {
      return await work(services);
    } finally {
      services.apps.stop();
    }
  } finally {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** The emulator's registered route tables, as a running emulator serves them. */
export function registeredRoutes(): Promise<{ readonly api: readonly Route[]; readonly root: readonly Route[]; readonly admin: readonly Route[] }> {
  return withServices((services) => {
    const routes = services.routes();
    return { api: routes.apiRoutes, root: routes.rootRoutes, admin: routes.adminRoutes };
  });
}
