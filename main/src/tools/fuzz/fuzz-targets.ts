import { FuzzSocket, type Outcome } from './fuzz-socket.js';
import type { FuzzTargets } from './valid-commands.js';

/** Application ids HANDSHAKE variants may name besides the fuzz's own (registered once each). */
const OTHER_CLIENT_IDS = ['1000000000000000001', '1000000000000000002', '1000000000000000003'];

function data(outcome: Outcome, what: string): Record<string, unknown> {
  const reply = outcome.kind === 'frame' ? (outcome.payload as { evt?: unknown; data?: unknown }) : undefined;
  if (reply === undefined || reply.evt !== null || typeof reply.data !== 'object' || reply.data === null) {
    throw new Error(`${what} failed: ${outcome.kind === 'frame' ? JSON.stringify((outcome.payload as { data?: unknown }).data) : outcome.kind}`);
  }
  return reply.data as Record<string, unknown>;
}

/** AUTHORIZE (the host's consent policy must approve), then the code redeemed at the platform. */
async function accessToken(socket: FuzzSocket, platformUrl: string, clientId: string): Promise<string> {
  const { code } = data(await socket.request('AUTHORIZE', { client_id: clientId, scopes: ['identify', 'rpc', 'guilds'] }), 'AUTHORIZE');
  if (typeof code !== 'string') throw new Error('AUTHORIZE gave no code');
  const response = await fetch(`${platformUrl}/api/v10/oauth2/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', client_id: clientId, code }),
  });
  const body = (await response.json()) as { access_token?: unknown };
  if (!response.ok || typeof body.access_token !== 'string') throw new Error(`the token exchange failed with HTTP ${response.status}`);
  return body.access_token;
}

function ids(list: unknown): string[] {
  return Array.isArray(list) ? list.map((item) => (item as { id?: unknown }).id).filter((id): id is string => typeof id === 'string') : [];
}

/**
 * What the fuzz needs to build valid frames: the signed-in user (READY), and with the platform's
 * URL, an access token for `clientId` and the user's guild and channel ids (GET_GUILDS,
 * GET_CHANNELS). Without a platform URL, commands that need AUTHENTICATE are sent unauthenticated.
 */
export async function discoverTargets(socketPath: string, clientId: string, platformUrl: string | null): Promise<FuzzTargets> {
  const { socket, ready } = await FuzzSocket.ready(socketPath, clientId);
  try {
    const selfUserId = typeof ready.user?.id === 'string' ? ready.user.id : null;
    const base = { clientId, otherClientIds: OTHER_CLIENT_IDS, selfUserId, guildIds: [], channelIds: [], accessToken: null };
    if (platformUrl === null) return base;
    const token = await accessToken(socket, platformUrl, clientId);
    data(await socket.request('AUTHENTICATE', { access_token: token }), 'AUTHENTICATE');
    const guildIds = ids(data(await socket.request('GET_GUILDS', {}), 'GET_GUILDS')['guilds']);
    const channelIds: string[] = [];
    for (const guildId of guildIds.slice(0, 2)) channelIds.push(...ids(data(await socket.request('GET_CHANNELS', { guild_id: guildId }), 'GET_CHANNELS')['channels']));
    return { ...base, guildIds, channelIds, accessToken: token };
  } finally {
    socket.destroy();
  }
}
