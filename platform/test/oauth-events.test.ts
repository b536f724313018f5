import { describe, expect, it } from 'vitest';
import { SEED, startPlatform, verifyWebhook, type AdminApp, type PlatformServer } from '../src/index.js';
import type { OAuthGrant, PlatformGuild, WebhookEnvelope } from '../src/wire/index.js';
import { GatewayClient, isDispatch } from './support/gateway-client.js';
import { api, FakeClock, startTestPlatform, stopTestPlatform, tempDir, type TestPlatformOptions } from './support/harness.js';
import { authorizeCode, startWebhookReceiver, type ReceivedWebhook } from './support/oauth.js';

const APP = SEED.appId;

function seededApp(platform: PlatformServer): AdminApp {
  return platform.admin.apps().find((app) => app.id === APP) as AdminApp;
}

/** Checks the signature as a receiver would and returns the envelope. */
function verified(app: AdminApp, request: ReceivedWebhook): WebhookEnvelope {
  const signature = request.headers['x-signature-ed25519'] as string;
  const timestamp = request.headers['x-signature-timestamp'] as string;
  expect(verifyWebhook(app.public_key, request.body, signature, timestamp)).toBe(true);
  expect(request.headers['content-type']).toBe('application/json');
  return JSON.parse(request.body) as WebhookEnvelope;
}

async function withWebhook(platform: PlatformServer, url: string): Promise<void> {
  const response = await api(platform, 'PATCH', `/_emulator/apps/${APP}`, { admin: true, body: { webhook_events_url: url } });
  expect(response).toMatchObject({ status: 200, body: { webhook_events_url: url } });
}

/** Starts an emulator whose webhook retries do not wait; `delays` records what they would have waited. */
async function withFakeDelays(options: TestPlatformOptions = {}): Promise<{ platform: PlatformServer; delays: number[] }> {
  const delays: number[] = [];
  const platform = await startPlatform({
    dataDir: await tempDir(),
    ...(options.limits !== undefined ? { limits: options.limits } : {}),
    ...(options.clock !== undefined ? { now: options.clock.now } : {}),
    webhookSleep: async (ms) => {
      delays.push(ms);
    },
  });
  return { platform, delays };
}

describe('webhook events', () => {
  it('a PING when the URL is set; APPLICATION_AUTHORIZED and APPLICATION_DEAUTHORIZED, signed', async () => {
    const clock = new FakeClock();
    const platform = await startTestPlatform({ clock });
    const receiver = await startWebhookReceiver();
    await withWebhook(platform, receiver.url);
    const app = seededApp(platform);
    const [ping] = await receiver.waitFor(1);
    expect(verified(app, ping as ReceivedWebhook)).toEqual({ version: 1, application_id: APP, type: 0 });
    expect((ping as ReceivedWebhook).headers['x-signature-timestamp']).toBe(String(Math.floor(clock.time / 1000)));

    const token = platform.loginToken('alice');
    await authorizeCode(platform, token, { client_id: APP, scope: 'identify rpc', integration_type: '1' });
    const authorized = verified(app, (await receiver.waitFor(2))[1] as ReceivedWebhook);
    expect(authorized).toEqual({
      version: 1,
      application_id: APP,
      type: 1,
      event: {
        type: 'APPLICATION_AUTHORIZED',
        timestamp: new Date(clock.time).toISOString(),
        data: { integration_type: 1, user: expect.objectContaining({ id: SEED.users.alice, username: 'alice' }), scopes: ['identify', 'rpc'] },
      },
    });
    const [grant] = (await api<OAuthGrant[]>(platform, 'GET', '/api/oauth2/tokens', { token })).body;
    expect((await api(platform, 'DELETE', `/api/oauth2/tokens/${grant?.id}`, { token })).status).toBe(204);
    const deauthorized = verified(app, (await receiver.waitFor(3))[2] as ReceivedWebhook);
    expect(deauthorized).toMatchObject({ type: 1, event: { type: 'APPLICATION_DEAUTHORIZED', data: { user: { id: SEED.users.alice } } } });
    expect(Object.keys((deauthorized.event?.data ?? {}) as object)).toEqual(['user']);
  });

  it('never holds the HTTP response that caused the event, even when the receiver hangs', async () => {
    const platform = await startTestPlatform();
    const receiver = await startWebhookReceiver([204, 0]);
    await withWebhook(platform, receiver.url);
    await receiver.waitFor(1);
    const started = Date.now();
    await authorizeCode(platform, platform.loginToken('alice'), { client_id: APP, scope: 'identify' });
    expect(Date.now() - started).toBeLessThan(1000);
    await receiver.waitFor(2);
    // Closing the emulator drops the hanging delivery.
    await stopTestPlatform(platform);
  });

  it('retries a 500 after 1 s, then delivers (fake delays)', async () => {
    const { platform, delays } = await withFakeDelays();
    try {
      const receiver = await startWebhookReceiver([500]);
      await withWebhook(platform, receiver.url);
      const [first, second] = await receiver.waitFor(2);
      expect([first?.status, second?.status]).toEqual([500, 204]);
      expect(first?.body).toBe(second?.body);
      verified(seededApp(platform), second as ReceivedWebhook);
      await platform.webhooksIdle();
      expect(delays).toEqual([1000]);
    } finally {
      await platform.close();
    }
  });

  it('backs off 1 s, 2 s, ... and gives up when the next wait would pass 10 minutes (real scale)', async () => {
    const { platform, delays } = await withFakeDelays();
    try {
      const receiver = await startWebhookReceiver(Array.from({ length: 20 }, () => 503));
      await withWebhook(platform, receiver.url);
      await receiver.waitFor(11);
      await platform.webhooksIdle();
      expect(delays).toEqual([1000, 2000, 4000, 8000, 16_000, 32_000, 64_000, 128_000, 256_000, 512_000]);
      expect(receiver.received).toHaveLength(11);
    } finally {
      await platform.close();
    }
  });

  it('a delivery not answered within 3 s is retried (real scale)', async () => {
    const { platform, delays } = await withFakeDelays();
    try {
      const receiver = await startWebhookReceiver([0, 204]);
      const started = Date.now();
      await withWebhook(platform, receiver.url);
      await receiver.waitFor(2, 6000);
      expect(Date.now() - started).toBeGreaterThanOrEqual(2900);
      await platform.webhooksIdle();
      expect(delays).toEqual([1000]);
    } finally {
      await platform.close();
    }
  }, 10_000);

  it('a delivery not answered within the timeout is retried', async () => {
    const { platform, delays } = await withFakeDelays({ limits: { webhookTimeoutMs: 100 } });
    try {
      const receiver = await startWebhookReceiver([0, 204]);
      await withWebhook(platform, receiver.url);
      await receiver.waitFor(2);
      await platform.webhooksIdle();
      expect(delays).toEqual([1000]);
    } finally {
      await platform.close();
    }
  });
});

describe('admin: PATCH apps and guilds', () => {
  it('PATCH /_emulator/guilds/{id} sends GUILD_UPDATE to the members sessions only', async () => {
    const platform = await startTestPlatform();
    const bob = await GatewayClient.ready(platform.gatewayUrl, platform.loginToken('bob'));
    platform.admin.createUser('erin');
    const erin = await GatewayClient.ready(platform.gatewayUrl, platform.loginToken('erin'));
    const response = await api<PlatformGuild>(platform, 'PATCH', `/_emulator/guilds/${SEED.guildId}`, { admin: true, body: { name: 'Renamed Lounge', icon: 'abc123' } });
    expect(response).toMatchObject({ status: 200, body: { id: SEED.guildId, name: 'Renamed Lounge', icon: 'abc123' } });
    expect((await bob.client.next(isDispatch('GUILD_UPDATE'))).d).toMatchObject({ id: SEED.guildId, name: 'Renamed Lounge', icon: 'abc123', member_count: 4 });
    await erin.client.barrier();
    expect(erin.client.dispatches('GUILD_UPDATE')).toEqual([]);
    expect((await api(platform, 'PATCH', '/_emulator/guilds/123456789012345678', { admin: true, body: { name: 'x y' } })).status).toBe(404);
    expect((await api(platform, 'PATCH', `/_emulator/guilds/${SEED.guildId}`, { admin: true, body: { name: 'x' } })).body).toMatchObject({ code: 50035 });
  });

  it('PATCH /_emulator/apps/{id} validates and persists; client_secret only in admin answers', async () => {
    const platform = await startTestPlatform();
    const patch = (body: unknown) => api(platform, 'PATCH', `/_emulator/apps/${APP}`, { admin: true, body });
    expect((await patch({ approved_scopes: ['rpc', 'bogus'] })).body).toMatchObject({ code: 50035, errors: { approved_scopes: expect.anything() } });
    expect((await patch({ webhook_events_url: 'ftp://x' })).body).toMatchObject({ code: 50035 });
    expect((await patch({ redirect_uris: ['not a url'] })).body).toMatchObject({ code: 50035 });
    expect((await api(platform, 'PATCH', '/_emulator/apps/111111111111111111', { admin: true, body: { name: 'Nope' } })).status).toBe(404);
    expect((await api(platform, 'PATCH', `/_emulator/apps/${APP}`, { body: { name: 'Nope' } })).status).toBe(401);
    const ok = await patch({ name: 'Renamed Game', public_client: false, approved_scopes: ['rpc', 'rpc.voice.read'], redirect_uris: ['http://127.0.0.1:7777/cb'], webhook_events_url: null });
    expect(ok.body).toMatchObject({ name: 'Renamed Game', public_client: false, approved_scopes: ['rpc', 'rpc.voice.read'], redirect_uris: ['http://127.0.0.1:7777/cb'], webhook_events_url: null, client_secret: expect.any(String) });
    expect(ok.body).not.toHaveProperty('private_key');
    const rpcApp = await api(platform, 'GET', `/api/oauth2/applications/${APP}/rpc`);
    expect(rpcApp.body).toMatchObject({ name: 'Renamed Game' });
    expect(JSON.stringify(rpcApp.body)).not.toContain((ok.body as { client_secret: string }).client_secret);
  });
});
