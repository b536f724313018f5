/* eslint-disable @typescript-eslint/no-explicit-any -- replies and control API bodies are checked by the tests' own expectations */
/**
 * The RPC WebSocket transport of a host: READY as on IPC with the signed-in user, commands,
 * web origins approved through the control API (and remembered across restarts), foreign
 * Host headers, and the `GET /` probe. Each host gets its own free ports instead of
 * 6463-6472, so the tests run beside anything holding those.
 */
import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { RawClient } from '../../../rpc/test/support/raw-client.js';
import { freePorts, WsClient } from '../../../rpc/test/support/ws-client.js';
import { DEMO_APP_ID, eventually, World, type Player, type TestHostOptions } from './support/world.js';

let world: World;
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await world.close();
});

async function alice(extra: Partial<TestHostOptions> = {}): Promise<Player & { port: number }> {
  world = await World.start();
  const player = await world.player('alice', { rpcWebSocket: true, rpcWebSocketPorts: await freePorts(2), ...extra });
  const port = player.host.rpcWebSocketPort;
  if (port === null) throw new Error('the host has no WebSocket port');
  return Object.assign(player, { port });
}

function open(port: number, options: Parameters<typeof WsClient.open>[2] = {}, clientId = DEMO_APP_ID): WsClient {
  const client = WsClient.open(port, `v=1&client_id=${clientId}&encoding=json`, options);
  cleanups.push(() => client.close());
  return client;
}

describe('the host\'s WebSocket transport', () => {
  it('answers READY with the same payload as IPC, user included, and runs SET_ACTIVITY; the game shows as a WebSocket game', async () => {
    const player = await alice();
    const ipc = await RawClient.ready(player.host.ipcPath, DEMO_APP_ID);
    cleanups.push(() => ipc.client.close());
    const ws = open(player.port);
    const ready = await ws.next();
    expect(ready).toEqual(ipc.ready);
    expect(ready.data.user).toMatchObject({ username: 'alice' });

    const reply = await ws.request('SET_ACTIVITY', { activity: { state: 'In the browser', details: 'Lobby' } });
    expect(reply).toMatchObject({ cmd: 'SET_ACTIVITY', evt: null, data: { state: 'In the browser', application_id: DEMO_APP_ID, name: 'Companion Demo Game' } });
    const games = (await player.control('GET', '/v1/games')).body.games as any[];
    expect(games.find((game) => game.transport === 'websocket')).toMatchObject({ client_id: DEMO_APP_ID, activity: { state: 'In the browser' } });
    expect(games.find((game) => game.transport === 'ipc')).toMatchObject({ client_id: DEMO_APP_ID });
  });

  it('answers npm discord-rpc\'s GET / probe with 404 on the same port', async () => {
    const player = await alice();
    const status = await new Promise<number>((resolve, reject) => {
      http.get({ host: '127.0.0.1', port: player.port, path: '/', agent: false }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      }).on('error', reject);
    });
    expect(status).toBe(404);
  });

  it('refuses a foreign Host header (DNS rebinding) with HTTP 403', async () => {
    const player = await alice();
    const ws = open(player.port, { host: `attacker.example:${player.port}` });
    expect(await ws.ended).toEqual({ status: 403 });
  });

  it('closes with 4004 / 4005 for a bad version or encoding', async () => {
    const player = await alice();
    const version = WsClient.open(player.port, `v=3&client_id=${DEMO_APP_ID}`);
    const encoding = WsClient.open(player.port, `v=1&client_id=${DEMO_APP_ID}&encoding=etf`);
    cleanups.push(() => version.close(), () => encoding.close());
    expect(await version.ended).toEqual({ close: { code: 4004, reason: 'Invalid Version: 3' } });
    expect(await encoding.ended).toEqual({ close: { code: 4005, reason: 'Invalid Encoding: etf' } });
  });

  it('allows no Origin (a local app), the platform\'s web origins and the configured platform\'s origin', async () => {
    const player = await alice();
    for (const origin of [undefined, 'https://discord.com', 'https://canary.discord.com', new URL(world.platform.url).origin]) {
      const ws = open(player.port, origin === undefined ? {} : { origin });
      expect(await ws.next(), String(origin)).toMatchObject({ evt: 'READY' });
    }
    expect((await player.control('GET', '/v1/origin-requests')).body).toEqual({ origin_requests: [] });
  });
});

describe('web origins the player approves', () => {
  const ORIGIN = 'https://game.example';

  it('refuses an unapproved origin with 4001 and asks the player; once approved, the next connection gets READY; the approval survives a restart', async () => {
    const player = await alice();
    const events: any[] = [];
    const unsubscribe = player.host.control.backend.subscribe((event) => {
      if (event.type.startsWith('origin')) events.push(event);
    });
    cleanups.push(unsubscribe);

    const refused = open(player.port, { origin: ORIGIN });
    expect(await refused.ended).toEqual({ close: { code: 4001, reason: 'Invalid Origin' } });
    expect(refused.messages).toEqual([]);
    await eventually(() => events.length > 0, 'the origin-request event');
    const requests = (await player.control('GET', '/v1/origin-requests')).body.origin_requests as any[];
    expect(requests).toEqual([
      {
        id: expect.any(String),
        origin: ORIGIN,
        client_id: DEMO_APP_ID,
        application_name: 'Companion Demo Game',
        created_at: expect.any(Number),
        last_attempt_at: expect.any(Number),
        attempts: 1,
      },
    ]);
    expect(events[0]).toEqual({ type: 'origin-request', data: requests[0] });

    // Still refused while the player has not answered; the attempt is counted.
    expect(await open(player.port, { origin: ORIGIN }).ended).toEqual({ close: { code: 4001, reason: 'Invalid Origin' } });
    expect((await player.control('GET', '/v1/origin-requests')).body.origin_requests[0].attempts).toBe(2);

    const id = requests[0].id as string;
    expect(await player.control('POST', `/v1/origin-requests/${id}/approve`)).toMatchObject({ status: 200, body: { ok: true } });
    expect(events.map((event) => event.type)).toEqual(['origin-request', 'origin-settled', 'origins']);
    expect(events[1].data).toMatchObject({ request: { id }, outcome: 'approved' });
    expect((await player.control('POST', `/v1/origin-requests/${id}/approve`)).status).toBe(404);
    expect((await player.control('GET', '/v1/origin-requests')).body.origin_requests).toEqual([]);
    expect((await player.control('GET', '/v1/origins')).body.origins).toEqual([
      { id, origin: ORIGIN, client_id: DEMO_APP_ID, application_name: 'Companion Demo Game', decision: 'approved', decided_at: expect.any(Number) },
    ]);

    const approved = open(player.port, { origin: ORIGIN });
    expect(await approved.next()).toMatchObject({ evt: 'READY' });
    // For that application only.
    expect(await open(player.port, { origin: ORIGIN }, '999999999999999999').ended).toEqual({ close: { code: 4001, reason: 'Invalid Origin' } });

    // Remembered across a restart of the host (same data dir).
    const dataDir = player.dataDir;
    await player.host.close();
    const restarted = await world.player('alice', { dataDir, rpcWebSocket: true, rpcWebSocketPorts: await freePorts(2) }, 'alice-restarted');
    const port = restarted.host.rpcWebSocketPort as number;
    expect(await open(port, { origin: ORIGIN }).next()).toMatchObject({ evt: 'READY' });

    // Forgetting it refuses the origin again.
    expect(await restarted.control('DELETE', `/v1/origins/${id}`)).toMatchObject({ status: 200, body: { ok: true } });
    expect((await restarted.control('DELETE', `/v1/origins/${id}`)).status).toBe(404);
    expect(await open(port, { origin: ORIGIN }).ended).toEqual({ close: { code: 4001, reason: 'Invalid Origin' } });
  });

  it('deny: refused, and not asked again', async () => {
    const player = await alice();
    expect(await open(player.port, { origin: ORIGIN }).ended).toEqual({ close: { code: 4001, reason: 'Invalid Origin' } });
    const requests = (await player.control('GET', '/v1/origin-requests')).body.origin_requests as any[];
    expect(await player.control('POST', `/v1/origin-requests/${requests[0].id}/deny`)).toMatchObject({ status: 200, body: { ok: true } });
    expect(await open(player.port, { origin: ORIGIN }).ended).toEqual({ close: { code: 4001, reason: 'Invalid Origin' } });
    expect((await player.control('GET', '/v1/origin-requests')).body.origin_requests).toEqual([]);
    expect((await player.control('GET', '/v1/origins')).body.origins).toMatchObject([{ origin: ORIGIN, decision: 'denied' }]);
    expect((await player.control('POST', '/v1/origin-requests/unknown-id/deny')).status).toBe(404);
  });
});
