import { readFile, readdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, SEED, STATE_DB_NAME, STATE_FILE_NAME, type PlatformServer } from '../src/index.js';
import type { RpcApplication } from '../src/wire/index.js';
import { GatewayClient, isDispatch } from './support/gateway-client.js';
import { api, FakeClock, startTestPlatform, stopTestPlatform, tempDir } from './support/harness.js';
import { downgradeToStateFile, storedState } from './support/stored-state.js';
import { withServices } from './support/tenants.js';

const register = (platform: PlatformServer, token: string, id: string) => api<RpcApplication>(platform, 'POST', `/api/v10/oauth2/applications/${id}/rpc`, { token, body: {} });

/** A distinct snowflake-shaped id per n. */
const appId = (n: number): string => String(900_000_000_000_000_000n + BigInt(n));

async function stateApps(platform: PlatformServer): Promise<{ id: string; auto_registered: boolean }[]> {
  await platform.flush();
  return (await storedState(platform.dataDir)).apps;
}

describe('application registration on first use', () => {
  it('a GET never creates an application: the RPC view, assets and both authorize routes answer "unknown"', async () => {
    const platform = await startTestPlatform();
    const id = '987654321098765432';
    expect(await api(platform, 'GET', `/api/v10/oauth2/applications/${id}/rpc`)).toMatchObject({ status: 404, body: { code: 10002, message: 'Unknown Application' } });
    expect(await api(platform, 'GET', `/api/oauth2/applications/${id}/rpc`)).toMatchObject({ status: 404, body: { code: 10002 } });
    expect(await api(platform, 'GET', `/api/oauth2/applications/${id}/assets`)).toMatchObject({ status: 404, body: { code: 10002 } });
    const token = platform.loginToken('alice');
    expect(await api(platform, 'GET', `/api/v10/oauth2/authorize?client_id=${id}&scope=rpc`, { token })).toMatchObject({ status: 400, body: { error: 'invalid_client' } });
    const page = await fetch(`${platform.url}/oauth2/authorize?client_id=${id}&scope=rpc&response_type=code`);
    expect(page.status).toBe(400);
    expect(platform.admin.apps().map((app) => app.id)).toEqual([SEED.appId]);
    expect((await stateApps(platform)).map((app) => app.id)).toEqual([SEED.appId]);
  });

  it('registers only through the POST with a user token: 201 once, 200 after, 401 without a token', async () => {
    const platform = await startTestPlatform();
    const token = platform.loginToken('alice');
    const id = '987654321098765432';
    expect((await api(platform, 'POST', `/api/v10/oauth2/applications/${id}/rpc`, { body: {} })).status).toBe(401);
    expect(await register(platform, token, id)).toMatchObject({ status: 201, body: { id, name: `Application ${id}`, verified: false } });
    expect(await register(platform, token, id)).toMatchObject({ status: 200, body: { id } });
    expect(await register(platform, token, SEED.appId)).toMatchObject({ status: 200, body: { id: SEED.appId, verified: true } });
    expect((await api(platform, 'GET', `/api/v10/oauth2/applications/${id}/rpc`)).status).toBe(200);
  });

  it('limits registrations per user (30 a minute): the 31st is 429 with the rate-limit body; known apps and other users still pass', async () => {
    const clock = new FakeClock();
    const platform = await startTestPlatform({ clock });
    const alice = platform.loginToken('alice');
    const { count, windowMs } = DEFAULT_LIMITS.http.appRegister;
    expect(count).toBe(30);
    for (let n = 0; n < count; n += 1) expect((await register(platform, alice, appId(n))).status).toBe(201);
    const refused = await register(platform, alice, appId(count));
    expect(refused).toMatchObject({ status: 429, body: { message: 'You are being rate limited.', global: false } });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(platform.admin.apps().map((app) => app.id)).not.toContain(appId(count));
    expect((await register(platform, alice, appId(0))).status).toBe(200);
    expect((await register(platform, platform.loginToken('bob'), appId(count))).status).toBe(201);
    clock.advance(windowMs);
    expect((await register(platform, alice, appId(count + 1))).status).toBe(201);
  });

  it('holds at most autoRegisteredAppsMax apps registered on first use: past it 404 10002 and nothing is created', async () => {
    const platform = await startTestPlatform({ limits: { autoRegisteredAppsMax: 3 } });
    const token = platform.loginToken('alice');
    for (let n = 0; n < 3; n += 1) expect((await register(platform, token, appId(n))).status).toBe(201);
    expect(await register(platform, token, appId(3))).toMatchObject({ status: 404, body: { code: 10002, message: 'Unknown Application' } });
    expect(platform.admin.apps().filter((app) => app.auto_registered)).toHaveLength(3);
  });

  it('forgets an unused app registered on first use after unusedAppTtlMs idle (a new request restarts it; the cap frees up)', async () => {
    const clock = new FakeClock();
    const platform = await startTestPlatform({ clock, limits: { autoRegisteredAppsMax: 2 } });
    const token = platform.loginToken('alice');
    const ttl = DEFAULT_LIMITS.unusedAppTtlMs;
    expect(ttl).toBe(10 * 60 * 1000);
    await register(platform, token, appId(1));
    await register(platform, token, appId(2));
    clock.advance(ttl - 1000);
    expect((await register(platform, token, appId(2))).status).toBe(200); // asked again: idle from now
    clock.advance(2000);
    expect((await api(platform, 'GET', `/api/v10/oauth2/applications/${appId(1)}/rpc`)).status).toBe(404);
    expect((await api(platform, 'GET', `/api/v10/oauth2/applications/${appId(2)}/rpc`)).status).toBe(200);
    expect((await stateApps(platform)).map((app) => app.id)).toEqual([SEED.appId, appId(2)]);
    expect((await register(platform, token, appId(3))).status).toBe(201);
  });

  it('keeps an app registered on first use once it is used: an activity, a grant, an asset or a rename', async () => {
    const clock = new FakeClock();
    const platform = await startTestPlatform({ clock });
    const token = platform.loginToken('alice');
    for (let n = 1; n <= 5; n += 1) await register(platform, token, appId(n));
    const alice = await GatewayClient.ready(platform.gatewayUrl, token);
    const bob = await GatewayClient.ready(platform.gatewayUrl, platform.loginToken('bob'));
    alice.client.send(3, { since: null, status: 'online', afk: false, activities: [{ name: 'Game', type: 0, application_id: appId(1) }] });
    await bob.client.next(isDispatch('PRESENCE_UPDATE'));
    const grant = await api(platform, 'POST', `/api/v10/oauth2/authorize?client_id=${appId(2)}&scope=rpc`, { token, body: { authorize: true, rpc: true } });
    expect(grant.status).toBe(200);
    expect((await api(platform, 'POST', `/_emulator/apps/${appId(3)}/assets`, { admin: true, body: { name: 'logo' } })).status).toBe(201);
    expect((await api(platform, 'PATCH', `/_emulator/apps/${appId(4)}`, { admin: true, body: { name: 'Named Game' } })).status).toBe(200);
    clock.advance(DEFAULT_LIMITS.unusedAppTtlMs + 1);
    const statuses = [];
    for (let n = 1; n <= 5; n += 1) statuses.push((await api(platform, 'GET', `/api/v10/oauth2/applications/${appId(n)}/rpc`)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 404]);
  });

  it('forgets, at start, idle apps a state.json from before bounded registration holds (the used ones stay)', async () => {
    const clock = new FakeClock();
    const dataDir = await tempDir();
    const first = await startTestPlatform({ dataDir, clock });
    const token = first.loginToken('alice');
    await register(first, token, appId(1));
    await register(first, token, appId(2));
    await api(first, 'POST', `/_emulator/apps/${appId(2)}/assets`, { admin: true, body: { name: 'logo' } });
    await stopTestPlatform(first);
    await downgradeToStateFile(dataDir);
    // Rewrite the file the way emulators before this change wrote it: no use tracking.
    const file = path.join(dataDir, STATE_FILE_NAME);
    const data = JSON.parse(await readFile(file, 'utf8')) as { app_use_tracked?: boolean; apps: { unused_since?: number }[] };
    delete data.app_use_tracked;
    for (const app of data.apps) delete app.unused_since;
    await writeFile(file, JSON.stringify(data));
    clock.advance(60_000);
    const second = await startTestPlatform({ dataDir, clock });
    expect(second.admin.apps().map((app) => app.id)).toEqual([SEED.appId, appId(1), appId(2)]);
    clock.advance(DEFAULT_LIMITS.unusedAppTtlMs + 1);
    await stopTestPlatform(second);
    const third = await startTestPlatform({ dataDir, clock });
    expect(third.admin.apps().map((app) => app.id)).toEqual([SEED.appId, appId(2)]);
  });

  it('10,000 distinct client ids through the registration route (20 users) leave the state under 1 MB', { timeout: 60_000 }, async () => {
    const platform = await startTestPlatform();
    const users = 20;
    const tokens: string[] = [];
    for (let u = 0; u < users; u += 1) {
      const created = await api<{ username: string }>(platform, 'POST', '/_emulator/users', { admin: true, body: { username: `player_${u}` } });
      tokens.push(platform.loginToken(created.body.username));
    }
    const statuses = new Map<number, number>();
    const total = 10_000;
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < total) {
        const n = next;
        next += 1;
        const { status } = await register(platform, tokens[n % users] as string, appId(n));
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    const max = DEFAULT_LIMITS.autoRegisteredAppsMax;
    expect(statuses.get(201)).toBe(max);
    expect(statuses.get(404)).toBe(users * DEFAULT_LIMITS.http.appRegister.count - max);
    expect(statuses.get(429)).toBe(total - users * DEFAULT_LIMITS.http.appRegister.count);
    expect((await stateApps(platform)).filter((app) => app.auto_registered)).toHaveLength(max);
    expect((await stat(path.join(platform.dataDir, STATE_DB_NAME))).size).toBeLessThan(1024 * 1024);
  });
});

describe('stray temp files at start', () => {
  it('removes every temp left beside state.json and platform.json; the state itself is read as it was', async () => {
    const dataDir = await tempDir();
    const first = await startTestPlatform({ dataDir });
    await register(first, first.loginToken('alice'), appId(1));
    await stopTestPlatform(first);
    const strays = [`${STATE_FILE_NAME}.${process.pid}.abc123.tmp`, `${STATE_FILE_NAME}.99999999.x-Y_z.tmp`, 'platform.json.99999999.tmp'];
    for (const name of strays) await writeFile(path.join(dataDir, name), '{"half": ');
    await writeFile(path.join(dataDir, 'notes.tmp'), 'not ours');
    const second = await startTestPlatform({ dataDir });
    const left = await readdir(dataDir);
    for (const name of strays) expect(left).not.toContain(name);
    expect(left).toContain('notes.tmp');
    expect(second.admin.apps().map((app) => app.id)).toContain(appId(1));
  });
});

describe('issue 27 §4: the forgetting timer runs only while unused apps registered on first use are held', () => {
  it('none at start; a registration on first use arms it; once the app is used (none unused left) it stops', async () => {
    await withServices((services) => {
      services.apps.start();
      expect(services.apps.sweeping).toBe(false);
      expect(services.apps.register(appId(7)).kind).toBe('registered');
      expect(services.apps.sweeping).toBe(true);
      services.store.markAppUsed(appId(7));
      expect(services.apps.forgetIdle()).toBe(0);
      expect(services.apps.sweeping).toBe(false);
      expect(services.apps.find(appId(7))?.id).toBe(appId(7));
    });
  });

  it('one timer, set for the longest-unused app’s time: each unused app is forgotten at its time, then the timer stops', async () => {
    await withServices(
      async (services) => {
        services.apps.start();
        expect(services.apps.register(appId(8)).kind).toBe('registered');
        await new Promise((resolve) => setTimeout(resolve, 600));
        expect(services.apps.register(appId(9)).kind).toBe('registered');
        // appId(8)'s time (1.5 s after its registration) is up, appId(9)'s is not.
        await new Promise((resolve) => setTimeout(resolve, 1_100));
        expect(services.store.app(appId(8))).toBeUndefined();
        expect(services.store.app(appId(9))?.id).toBe(appId(9));
        expect(services.apps.sweeping).toBe(true);
        await new Promise((resolve) => setTimeout(resolve, 700));
        expect(services.store.app(appId(9))).toBeUndefined();
        expect(services.apps.sweeping).toBe(false);
      },
      { unusedAppTtlMs: 1_500 },
    );
  });
});
