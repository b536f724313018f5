import { describe, expect, it } from 'vitest';
import { SEED } from '../src/index.js';
import type { DetectableApplication } from '../src/wire/index.js';
import { api, startTestPlatform, stopTestPlatform, tempDir } from './support/harness.js';
import { otherGame } from './support/tenants.js';

type AdminAppView = { id: string; executables: unknown[] };
const list = (platform: Parameters<typeof api>[0], headers: Record<string, string> = {}): Promise<Response> =>
  fetch(`${platform.url}/api/v10/applications/detectable`, { headers });

describe('issue 30 §1: GET /applications/detectable', () => {
  it('serves the demo app with its executables, without auth', async () => {
    const platform = await startTestPlatform();
    const response = await list(platform);
    expect(response.status).toBe(200);
    const body = (await response.json()) as DetectableApplication[];
    const demo = body.find((app) => app.id === SEED.appId);
    expect(demo?.name).toBe(SEED.appName);
    expect(demo?.executables).toContainEqual({ os: 'linux', name: 'companion-demo-game', is_launcher: false });
    expect(demo?.executables.some((executable) => executable.is_launcher)).toBe(true);
  });

  it('lists an app once PATCH gives it executables, names lower-cased with / separators, and keeps them across a restart', async () => {
    const dataDir = await tempDir();
    const platform = await startTestPlatform({ dataDir });
    const app = await otherGame(platform, 'Block Game');
    expect(((await list(platform).then((r) => r.json())) as DetectableApplication[]).some((entry) => entry.id === app)).toBe(false);
    const executables = [
      { os: 'linux', name: 'java', arguments: 'net.minecraft.client.main.Main' },
      { os: 'win32', name: '>Games\\Block Game\\Block.EXE', is_launcher: false },
    ];
    const patched = await api<AdminAppView>(platform, 'PATCH', `/_emulator/apps/${app}`, { admin: true, body: { executables } });
    expect(patched.status).toBe(200);
    const expected = [
      { os: 'linux', name: 'java', is_launcher: false, arguments: 'net.minecraft.client.main.Main' },
      { os: 'win32', name: '>games/block game/block.exe', is_launcher: false },
    ];
    expect(patched.body.executables).toEqual(expected);
    const listing = await api<AdminAppView[]>(platform, 'GET', '/_emulator/apps', { admin: true });
    expect(listing.body.find((entry) => entry.id === app)?.executables).toEqual(expected);
    const served = (await list(platform).then((r) => r.json())) as DetectableApplication[];
    expect(served.find((entry) => entry.id === app)).toEqual({ id: app, name: 'Block Game', executables: expected, aliases: [] });

    await stopTestPlatform(platform);
    const again = await startTestPlatform({ dataDir });
    const reloaded = (await list(again).then((r) => r.json())) as DetectableApplication[];
    expect(reloaded.find((entry) => entry.id === app)?.executables).toEqual(expected);
  });

  it('an empty list takes the app out', async () => {
    const platform = await startTestPlatform();
    expect((await api(platform, 'PATCH', `/_emulator/apps/${SEED.appId}`, { admin: true, body: { executables: [] } })).status).toBe(200);
    const served = (await list(platform).then((r) => r.json())) as DetectableApplication[];
    expect(served.some((entry) => entry.id === SEED.appId)).toBe(false);
  });
});

describe('issue 30 §1: PATCH /_emulator/apps/{id} executables are validated', () => {
  it.each([
    ['an unknown os', [{ os: 'amiga', name: 'game' }]],
    ['an empty name', [{ os: 'linux', name: '  ' }]],
    ['a > inside the name', [{ os: 'linux', name: 'a>b' }]],
    ['is_launcher not a boolean', [{ os: 'linux', name: 'game', is_launcher: 'yes' }]],
    ['not a list', { os: 'linux', name: 'game' }],
    ['more than 50 entries', Array.from({ length: 51 }, (_, i) => ({ os: 'linux', name: `game${i}` }))],
  ])('%s: 400 50035 naming executables, nothing changed', async (_what, executables) => {
    const platform = await startTestPlatform();
    const response = await api<{ code: number; errors: Record<string, unknown> }>(platform, 'PATCH', `/_emulator/apps/${SEED.appId}`, { admin: true, body: { executables } });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe(50035);
    expect(Object.keys(response.body.errors)).toContain('executables');
    const served = (await list(platform).then((r) => r.json())) as DetectableApplication[];
    expect(served.find((entry) => entry.id === SEED.appId)?.executables.length).toBe(3);
  });

  it('only the admin may change them: a player or a game gets 401, the list is unchanged', async () => {
    const platform = await startTestPlatform();
    const app = await otherGame(platform);
    const bot = `Bot ${platform.admin.apps().find((entry) => entry.id === app)?.bot_token ?? ''}`;
    const body = { executables: [{ os: 'linux', name: 'not-the-demo' }] };
    for (const token of [platform.loginToken('bob'), bot, undefined]) {
      const response = await api(platform, 'PATCH', `/_emulator/apps/${SEED.appId}`, { ...(token !== undefined ? { token } : {}), body });
      expect(response.status).toBe(401);
    }
    const served = (await list(platform).then((r) => r.json())) as DetectableApplication[];
    expect(served.find((entry) => entry.id === SEED.appId)?.executables).not.toContainEqual(expect.objectContaining({ name: 'not-the-demo' }));
  });
});

describe('issue 30 §1: the list carries an ETag', () => {
  it('If-None-Match with the tag answers 304 without a body; a change gives a new tag', async () => {
    const platform = await startTestPlatform();
    const first = await list(platform);
    const tag = first.headers.get('etag');
    expect(tag).toMatch(/^".+"$/);
    const same = await list(platform, { 'If-None-Match': tag ?? '' });
    expect(same.status).toBe(304);
    expect(await same.text()).toBe('');
    expect((await list(platform, { 'If-None-Match': '"something-else"' })).status).toBe(200);

    await api(platform, 'PATCH', `/_emulator/apps/${SEED.appId}`, { admin: true, body: { executables: [{ os: 'linux', name: 'renamed-game' }] } });
    const changed = await list(platform, { 'If-None-Match': tag ?? '' });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(tag);
  });
});
