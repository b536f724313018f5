/**
 * The `lobby-fanout` phase (output key `platform.lobbyFanout`): how fast a lobby message reaches
 * every member, and what it costs the emulator. BENCH_LOBBY_MEMBERS (100) users, each with a
 * gateway session, are put in one lobby by the game server's API (bulks of 25); one member's game
 * (its own Bearer token) sends BENCH_LOBBY_MESSAGES (200) messages, BENCH_LOBBY_RATE (20) a second.
 * Reported: the latency from the POST to each member's LOBBY_MESSAGE_CREATE (p50/p99 over every
 * delivery), and the emulator's CPU per delivered message over the sending window.
 */
import { performance } from 'node:perf_hooks';
import { GatewayClient } from './gateway-client.js';
import { admin, devLogin, FANOUT_EMULATOR_LIMITS, pool, startEmulator, summarizeMs, type Emulator, type PlatformBenchContext } from './platform-phases.js';
import { cpuSample, round2 } from './proc.js';
import { envInt } from './shared.js';

const APP_ID = '1234567890123456789';

export const LOBBY_CONFIG = {
  members: envInt('BENCH_LOBBY_MEMBERS', 100),
  messages: envInt('BENCH_LOBBY_MESSAGES', 200),
  perSecond: envInt('BENCH_LOBBY_RATE', 20),
};

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function json<T>(url: string, init: RequestInit): Promise<T> {
  const response = await fetch(url, init);
  const text = await response.text();
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${url}: ${response.status} ${text.slice(0, 200)}`);
  return (text === '' ? undefined : JSON.parse(text)) as T;
}

/** The demo game's own token for a user (authorize through the API, then the token exchange). */
export async function gameToken(emulator: Emulator, userToken: string): Promise<string> {
  const query = new URLSearchParams({ client_id: APP_ID, response_type: 'code', scope: 'identify sdk.social_layer' });
  const { code } = await json<{ code: string }>(`${emulator.url}/api/v10/oauth2/authorize?${query.toString()}`, {
    method: 'POST',
    headers: { Authorization: userToken, 'Content-Type': 'application/json' },
    body: JSON.stringify({ authorize: true, rpc: true }),
  });
  const token = await json<{ access_token: string }>(`${emulator.url}/api/v10/oauth2/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', client_id: APP_ID, code }),
  });
  return token.access_token;
}

/** The members: users signed in on the gateway, each noting when a lobby message arrives (by its content). */
async function members(ctx: PlatformBenchContext, emulator: Emulator, arrivals: Map<string, number[]>): Promise<{ ids: string[]; tokens: string[]; clients: GatewayClient[] }> {
  const names = Array.from({ length: LOBBY_CONFIG.members }, (_, i) => `lobby_member_${i}`);
  const ids = await pool(names, 8, async (name) => (await admin<{ id: string }>(emulator, 'POST', '/_emulator/users', { username: name })).id);
  const tokens = await pool(names, 8, (name) => devLogin(emulator, name));
  const clients = tokens.map(
    (token) =>
      new GatewayClient({
        url: emulator.gatewayUrl,
        token,
        onDispatch: (t, d, at) => {
          if (t !== 'LOBBY_MESSAGE_CREATE') return;
          const content = (d as { content?: string }).content ?? '';
          const list = arrivals.get(content);
          if (list === undefined) arrivals.set(content, [at]);
          else list.push(at);
        },
      }),
  );
  await Promise.all(clients.map((client) => client.ready));
  ctx.progress(`lobby-fanout: ${clients.length} members on the gateway`);
  return { ids, tokens, clients };
}

export async function lobbyFanoutPhase(ctx: PlatformBenchContext): Promise<Record<string, unknown>> {
  // One member sends every message: the per-user message limit is raised, off the measured path.
  const emulator = await startEmulator(ctx, 'lobby-emulator', { http: { ...FANOUT_EMULATOR_LIMITS.http, lobbyMessage: { count: 100_000, windowMs: 1000 } } });
  const arrivals = new Map<string, number[]>();
  let clients: GatewayClient[] = [];
  try {
    const crowd = await members(ctx, emulator, arrivals);
    clients = crowd.clients;
    const apps = await admin<{ id: string; bot_token: string }[]>(emulator, 'GET', '/_emulator/apps');
    const bot = `Bot ${apps.find((app) => app.id === APP_ID)?.bot_token ?? ''}`;
    const lobby = await json<{ id: string }>(`${emulator.url}/api/v10/lobbies`, { method: 'POST', headers: { Authorization: bot, 'Content-Type': 'application/json' }, body: '{}' });
    for (let i = 0; i < crowd.ids.length; i += 25) {
      await json(`${emulator.url}/api/v10/lobbies/${lobby.id}/members/bulk`, {
        method: 'POST',
        headers: { Authorization: bot, 'Content-Type': 'application/json' },
        body: JSON.stringify(crowd.ids.slice(i, i + 25).map((id) => ({ id }))),
      });
    }
    const sender = `Bearer ${await gameToken(emulator, crowd.tokens[0] as string)}`;
    const sent = new Map<string, number>();
    const cpu0 = cpuSample(emulator.server.pid).ms;
    const t0 = performance.now();
    for (let n = 0; n < LOBBY_CONFIG.messages; n += 1) {
      const content = `m${n}`;
      sent.set(content, performance.now());
      await json(`${emulator.url}/api/v10/lobbies/${lobby.id}/messages`, { method: 'POST', headers: { Authorization: sender, 'Content-Type': 'application/json' }, body: JSON.stringify({ content }) });
      await sleep(Math.max(0, t0 + ((n + 1) * 1000) / LOBBY_CONFIG.perSecond - performance.now()));
    }
    await sleep(500);
    const cpuMs = cpuSample(emulator.server.pid).ms - cpu0;
    const latencies: number[] = [];
    for (const [content, at] of sent) for (const arrived of arrivals.get(content) ?? []) latencies.push(arrived - at);
    const expected = LOBBY_CONFIG.messages * LOBBY_CONFIG.members;
    return {
      config: LOBBY_CONFIG,
      emulator: emulator.how,
      deliveries: { expected, received: latencies.length },
      latency: summarizeMs(latencies),
      emulatorCpuMs: round2(cpuMs),
      emulatorCpuUsPerDelivery: latencies.length === 0 ? null : round2((cpuMs * 1000) / latencies.length),
      windowS: round2((performance.now() - t0) / 1000),
    };
  } finally {
    for (const client of clients) client.close();
    await emulator.server.stop().catch(() => undefined);
  }
}
