/**
 * QA mode is opt-in: a host started without the QA extension, as the desktop app and a plain
 * `companion serve` start it, answers 404 on every `/v1/inject/*` route and its gateway client
 * carries no fault hooks; the same host with the extension serves them.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { GatewayClient } from '../../../src/host/gateway/gateway-client.js';
import { startHost, type Host } from '../../../src/host/compose/host.js';
import { controlCall, quietLogger, World } from '../../e2e/support/world.js';

const INJECT_ROUTES = [
  ['POST', '/v1/inject/event', { connection_id: 'c1', evt: 'ACTIVITY_JOIN', data: { secret: 's' } }],
  ['POST', '/v1/inject/output', { connection_id: 'c1', delay_ms: 10 }],
  ['POST', '/v1/inject/gateway', { action: 'drop' }],
  ['POST', '/v1/inject/token-error', { error: 'invalid_grant' }],
  ['DELETE', '/v1/inject/token-error', undefined],
] as const;

let world: World | undefined;
const hosts: Host[] = [];
afterEach(async () => {
  for (const host of hosts.splice(0)) await host.close();
  await world?.close();
  world = undefined;
});

describe('QA mode', () => {
  it('is off in a host started as the desktop app starts it: every /v1/inject route is 404', async () => {
    world = await World.start();
    const host = await startHost({
      env: {},
      version: '0.0.0-test',
      logger: quietLogger,
      dataDir: await world.tempDir('companion-data-'),
      listen: { runtimeDir: await world.tempDir('companion-rt-'), rpcWebSocket: false },
      platform: { url: world.platform.url, credentials: { username: 'alice' } },
    });
    hosts.push(host);
    for (const [method, route, body] of INJECT_ROUTES) {
      expect(await controlCall(host, method, route, body), `${method} ${route}`).toMatchObject({ status: 404, body: { error: 'not_found', message: 'no such route' } });
    }
    // The product's own routes are there.
    expect((await controlCall(host, 'GET', '/v1/status')).status).toBe(200);
  });

  it('is off in a test host unless asked for, and on with the extension', async () => {
    world = await World.start();
    const plain = await world.player('alice');
    expect((await plain.control('POST', '/v1/inject/gateway', { action: 'drop' })).status).toBe(404);
    const qa = await world.player('bob', { qa: true });
    expect(await qa.control('POST', '/v1/inject/gateway', { action: 'drop' })).toMatchObject({ status: 200, body: { action: 'drop' } });
    // Served (this host uses another platform, so there is no emulator to arm token errors on).
    expect(await qa.control('DELETE', '/v1/inject/token-error')).toMatchObject({ status: 409, body: { error: 'not_embedded' } });
  });

  it('leaves the fault hooks out of the gateway client itself', () => {
    expect('simulateNetworkLoss' in GatewayClient.prototype).toBe(false);
    expect('simulateStall' in GatewayClient.prototype).toBe(false);
  });
});
