/**
 * Every loopback HTTP and WebSocket service of a host (the embedded emulator's HTTP API and
 * gateway, the control API, the web UI and its bridge, the RPC WebSocket) refuses what a web
 * page could send it through DNS rebinding or from its own origin: a foreign Host, a foreign
 * Origin, a text/plain body where JSON is read; and a declared body over the limit is refused
 * before a byte of it is sent. The route tables come from the code, so a new route is walked too.
 */
import { rm } from 'node:fs/promises';
import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PlatformAddresses, PlatformServices } from '../../../platform/src/assembly/platform-services.js';
import type { Route as PlatformRoute } from '../../../platform/src/http/router.js';
import { Store } from '../../../platform/src/state/store.js';
import { DEFAULT_LIMITS } from '../../../platform/src/support/limits.js';
import { SILENT_LOGGER } from '../../../platform/src/support/logger.js';
import { makeTempDir } from '../../../rpc/test/support/test-server.js';
import { freePorts } from '../../../rpc/test/support/ws-client.js';
import { routes as controlRoutes } from '../../src/host/control/control-routes.js';
import { originRoutes } from '../../src/host/control/origin-routes.js';
import { presenceRoutes } from '../../src/host/control/presence-routes.js';
import type { Host } from '../../src/host/compose/host.js';
import { DEMO_APP_ID, startTestHost } from '../e2e/support/world.js';
import { fakeRenderer, sessionCookie } from '../host/ui-bridge/support.js';
import { fillPattern, rawHttp, rawUpgrade, type RawAnswer } from './loopback-http.js';

const EVIL_HOST = (port: number): string => `rebind.evil.example:${port}`;
const EVIL_ORIGIN = 'https://evil.example';
const GIGABYTE = String(1024 * 1024 * 1024);

let host: Host;
let emulatorPort: number;
let webUiCookie: string;
const cleanups: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  const renderer = await fakeRenderer();
  cleanups.push(() => renderer.remove());
  const dataDir = await makeTempDir('companion-data-');
  const runtimeDir = await makeTempDir('companion-rt-');
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }), () => rm(runtimeDir, { recursive: true, force: true }));
  // No platform URL: the host starts its embedded emulator.
  host = await startTestHost({ dataDir, runtimeDir, rpcWebSocket: true, rpcWebSocketPorts: await freePorts(2), webUiRendererDir: renderer.rendererDir });
  cleanups.unshift(() => host.close());
  expect(host.platform.embedded).not.toBeNull();
  emulatorPort = Number(new URL(host.platform.url).port);
  webUiCookie = await sessionCookie(host.webUi!.port, host.webUi!.token);
}, 30_000);

afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

/** The emulator's route tables, as its HTTP handler gets them, each route with the path it answers on. */
async function emulatorRoutes(): Promise<{ route: PlatformRoute; path: string }[]> {
  const dataDir = await makeTempDir('companion-routes-');
  const store = await Store.open({ dataDir, now: Date.now, persistDebounceMs: 10_000, messagesPerChannel: 10, logger: SILENT_LOGGER });
  try {
    const services = new PlatformServices(store, { limits: DEFAULT_LIMITS, now: Date.now, logger: SILENT_LOGGER, strictApps: false, adminToken: 'a'.repeat(32) }, new PlatformAddresses());
    const { apiRoutes, adminRoutes, rootRoutes } = services.routes();
    return [
      ...apiRoutes.map((route) => ({ route, path: `/api/v10${fillPattern(route.pattern)}` })),
      // Admin patterns carry their /_emulator prefix.
      ...adminRoutes.map((route) => ({ route, path: fillPattern(route.pattern) })),
      ...rootRoutes.map((route) => ({ route, path: fillPattern(route.pattern) })),
    ];
  } finally {
    await store.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** The control API's routes as the host mounts them (the base table, web origins, presence). */
function controlApiRoutes(): { method: string; path: string }[] {
  const table = controlRoutes({} as never, [...originRoutes({} as never), ...presenceRoutes({} as never)]);
  return table.map((route) => ({ method: route.method, path: fillPattern(route.pattern) }));
}

function message(answer: RawAnswer): string {
  try {
    const body = JSON.parse(answer.body) as { message?: unknown };
    return typeof body.message === 'string' ? body.message : '';
  } catch {
    return '';
  }
}

const controlPort = (): number => Number(new URL(host.control.url).port);

const where = (service: string, method: string, path: string, what: string): string => `${service} ${method} ${path}: ${what}`;

describe('the issue: the dev login from a rebinding page', () => {
  it('is refused with a foreign Host, a foreign Origin or a text/plain body; answered with a loopback Host and JSON', async () => {
    const body = JSON.stringify({ login: 'alice' });
    const ask = (headers: Record<string, string>): Promise<RawAnswer> => rawHttp({ port: emulatorPort, method: 'POST', path: '/api/auth/login', headers, body });
    const local = `127.0.0.1:${emulatorPort}`;
    const refusals = [
      await ask({ Host: EVIL_HOST(emulatorPort), 'Content-Type': 'text/plain', Origin: EVIL_ORIGIN }),
      await ask({ Host: EVIL_HOST(emulatorPort), 'Content-Type': 'application/json' }),
      await ask({ Host: local, 'Content-Type': 'application/json', Origin: EVIL_ORIGIN }),
      await ask({ Host: local, 'Content-Type': 'text/plain' }),
    ];
    expect(refusals.map((answer) => answer.status)).toEqual([403, 403, 403, 415]);
    for (const answer of refusals) expect(answer.body).not.toContain('token');
    const answered = await ask({ Host: local, 'Content-Type': 'application/json' });
    expect(answered.status).toBe(200);
    expect(JSON.parse(answered.body)).toHaveProperty('token');
  });
});

describe('the embedded emulator', () => {
  it('refuses every route with a rebinding Host or a foreign Origin (403), and a text/plain body where it reads JSON (415)', async () => {
    const walked = await emulatorRoutes();
    expect(walked.length).toBeGreaterThan(50);
    const port = emulatorPort;
    const local = `127.0.0.1:${port}`;
    for (const { route, path } of walked) {
      const { method } = route;
      const send = (headers: Record<string, string>, body?: string): Promise<RawAnswer> =>
        rawHttp({ port, method, path, headers, ...(body === undefined ? {} : { body }) });

      const rebound = await send({ Host: EVIL_HOST(port) });
      expect([rebound.status, message(rebound)], where('emulator', method, path, 'rebinding Host')).toEqual([403, '403: Forbidden: the Host header does not name this loopback server']);
      const loopback = await send({ Host: local });
      expect(message(loopback), where('emulator', method, path, 'loopback Host')).not.toMatch(/^403: Forbidden: the Host/);
      // The walk reaches the route itself (its auth or its answer), not the router's 404 or 405.
      expect([loopback.status, message(loopback)], where('emulator', method, path, 'routed')).not.toEqual([404, '404: Not Found']);
      expect(loopback.status, where('emulator', method, path, 'routed')).not.toBe(405);
      expect(message(await send({ Host: `localhost:${port}` })), where('emulator', method, path, 'localhost')).not.toMatch(/^403: Forbidden: the Host/);

      const foreign = await send({ Host: local, Origin: EVIL_ORIGIN });
      expect([foreign.status, message(foreign)], where('emulator', method, path, 'foreign Origin')).toEqual([403, '403: Forbidden: requests from another origin are refused']);
      const own = await send({ Host: local, Origin: `http://${local}` });
      expect(message(own), where('emulator', method, path, 'own origin')).not.toMatch(/another origin/);

      if (route.body === 'raw' || method === 'GET') continue;
      const plain = await send({ Host: local, 'Content-Type': 'text/plain' }, '{}');
      expect(plain.status, where('emulator', method, path, 'text/plain body')).toBe(415);
      // Malformed JSON: the type is taken, and nothing runs (the route or its auth answers).
      const json = await send({ Host: local, 'Content-Type': 'application/json' }, '{');
      expect(json.status, where('emulator', method, path, 'JSON body')).not.toBe(415);
    }
  }, 60_000);

  it('refuses the gateway upgrade with a rebinding Host or a foreign Origin; takes it from loopback', async () => {
    const path = '/gateway?v=10&encoding=json';
    const local = `127.0.0.1:${emulatorPort}`;
    expect((await rawUpgrade(emulatorPort, path, { Host: EVIL_HOST(emulatorPort) })).status).toBe(403);
    expect((await rawUpgrade(emulatorPort, path, { Host: local, Origin: EVIL_ORIGIN })).status).toBe(403);
    expect((await rawUpgrade(emulatorPort, path, { Host: local, Origin: 'null' })).status).toBe(403);
    expect((await rawUpgrade(emulatorPort, path, { Host: local })).status).toBe(101);
    expect((await rawUpgrade(emulatorPort, path, { Host: `localhost:${emulatorPort}`, Origin: `http://localhost:${emulatorPort}` })).status).toBe(101);
  });
});

describe('the control API', () => {
  it('refuses every route with a rebinding Host or a foreign Origin (403), and a text/plain body where it reads JSON (415)', async () => {
    const port = controlPort();
    const local = `127.0.0.1:${port}`;
    const bearer = `Bearer ${host.control.token}`;
    const walked = controlApiRoutes();
    expect(walked.length).toBeGreaterThan(20);
    for (const { method, path } of walked) {
      const send = (headers: Record<string, string>, body?: string): Promise<RawAnswer> =>
        rawHttp({ port, method, path, headers, ...(body === undefined ? {} : { body }) });
      // The token does not help a refused request; without it, the loopback one reaches authentication.
      const rebound = await send({ Host: EVIL_HOST(port), Authorization: bearer });
      expect([rebound.status, message(rebound)], where('control', method, path, 'rebinding Host')).toEqual([403, 'the Host header does not name this loopback server']);
      expect((await send({ Host: local })).status, where('control', method, path, 'loopback Host')).toBe(401);
      const foreign = await send({ Host: local, Origin: EVIL_ORIGIN, Authorization: bearer });
      expect([foreign.status, message(foreign)], where('control', method, path, 'foreign Origin')).toEqual([403, 'requests from another origin are refused']);
      expect((await send({ Host: local, Origin: `http://${local}` })).status, where('control', method, path, 'own origin')).toBe(401);

      if (method !== 'POST' && method !== 'PATCH') continue;
      const plain = await send({ Host: local, Authorization: bearer, 'Content-Type': 'text/plain' }, '{}');
      expect([plain.status, message(plain)], where('control', method, path, 'text/plain body')).toEqual([415, 'the body must be application/json']);
      // Malformed JSON: the type is taken, and the parser refuses it before the route runs.
      const json = await send({ Host: local, Authorization: bearer, 'Content-Type': 'application/json' }, '{');
      expect([json.status, message(json)], where('control', method, path, 'JSON body')).toEqual([400, 'body: is not valid JSON']);
    }
  }, 60_000);
});

describe('the web UI', () => {
  const paths = (): string[] => ['/', '/index.html', '/assets/app.js', '/bridge', '/no-such-page', `/?token=${host.webUi!.token}`];

  it('refuses every page with a rebinding Host (421) or a foreign Origin (403); serves its own', async () => {
    const port = host.webUi!.port;
    const local = `127.0.0.1:${port}`;
    for (const path of paths()) {
      const send = (headers: Record<string, string>): Promise<RawAnswer> => rawHttp({ port, method: 'GET', path, headers: { Cookie: webUiCookie, ...headers } });
      expect((await send({ Host: EVIL_HOST(port) })).status, where('web UI', 'GET', path, 'rebinding Host')).toBe(421);
      expect((await send({ Host: local, Origin: EVIL_ORIGIN })).status, where('web UI', 'GET', path, 'foreign Origin')).toBe(403);
      expect([200, 302, 404, 426], where('web UI', 'GET', path, 'own origin')).toContain((await send({ Host: local, Origin: `http://${local}` })).status);
    }
  });

  it('refuses the bridge upgrade with a rebinding Host or a foreign Origin; takes it from its own page', async () => {
    const port = host.webUi!.port;
    const local = `127.0.0.1:${port}`;
    expect((await rawUpgrade(port, '/bridge', { Host: EVIL_HOST(port), Cookie: webUiCookie })).status).toBe(421);
    expect((await rawUpgrade(port, '/bridge', { Host: local, Cookie: webUiCookie, Origin: EVIL_ORIGIN })).status).toBe(403);
    expect((await rawUpgrade(port, '/bridge', { Host: local, Cookie: webUiCookie, Origin: `http://${local}` })).status).toBe(101);
  });
});

describe('the RPC WebSocket', () => {
  const rpcPath = `/?v=1&client_id=${DEMO_APP_ID}&encoding=json`;

  it('refuses a rebinding Host (403) on the upgrade and on plain HTTP; a foreign Origin is closed with 4001', async () => {
    const port = host.rpcWebSocketPort!;
    const local = `127.0.0.1:${port}`;
    expect((await rawUpgrade(port, rpcPath, { Host: EVIL_HOST(port) })).status).toBe(403);
    expect((await rawHttp({ port, method: 'GET', path: '/', headers: { Host: EVIL_HOST(port) } })).status).toBe(403);
    expect((await rawHttp({ port, method: 'GET', path: '/', headers: { Host: local } })).status).toBe(404);

    const closed = await new Promise<{ code: number; reason: string }>((resolve, reject) => {
      const ws = new WebSocket(`ws://${local}${rpcPath}`, { headers: { Origin: EVIL_ORIGIN } });
      ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() }));
      ws.on('error', reject);
    });
    expect(closed).toEqual({ code: 4001, reason: 'Invalid Origin' });
    expect((await rawUpgrade(port, rpcPath, { Host: local })).status).toBe(101);
  });
});

describe('a declared body over the limit', () => {
  it('is refused with 413 at once, while no byte of it was sent: emulator, control API, web UI, RPC WebSocket', async () => {
    const head = (port: number, method: string, path: string, headers: Record<string, string> = {}): Promise<RawAnswer> =>
      rawHttp({ port, method, path, headOnly: true, headers: { Host: `127.0.0.1:${port}`, 'Content-Type': 'application/json', 'Content-Length': GIGABYTE, ...headers } }, 3000);
    const emulator = await head(emulatorPort, 'POST', '/api/v10/auth/login');
    expect(emulator.status).toBe(413);
    expect(emulator.headers.connection).toBe('close');
    expect((await head(emulatorPort, 'PATCH', '/_emulator/users/1')).status).toBe(413);
    expect((await head(controlPort(), 'POST', '/v1/invites', { Authorization: `Bearer ${host.control.token}` })).status).toBe(413);
    expect((await head(controlPort(), 'POST', '/v1/invites')).status).toBe(413);
    expect((await head(host.webUi!.port, 'GET', '/', { Cookie: webUiCookie })).status).toBe(413);
    expect((await head(host.webUi!.port, 'POST', '/')).status).toBe(413);
    expect((await head(host.rpcWebSocketPort!, 'POST', '/')).status).toBe(413);
  });

  it('leaves each service answering the next request', async () => {
    const get = (port: number, path: string, headers: Record<string, string> = {}): Promise<RawAnswer> =>
      rawHttp({ port, method: 'GET', path, headers: { Host: `127.0.0.1:${port}`, ...headers } });
    expect((await get(emulatorPort, '/api/v10/gateway')).status).toBe(200);
    expect((await get(controlPort(), '/v1/status', { Authorization: `Bearer ${host.control.token}` })).status).toBe(200);
    expect((await get(host.webUi!.port, '/', { Cookie: webUiCookie })).status).toBe(200);
  });
});
