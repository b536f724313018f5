import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CorruptStateError, PlatformAlreadyRunningError, SEED, startPlatform } from '../src/index.js';
import { api, startTestPlatform, stopTestPlatform, tempDir } from './support/harness.js';

describe('persistence', () => {
  it('keeps users, tokens, friendships, apps (with keys) and messages across a restart; state.db is 0600', async () => {
    const dataDir = await tempDir();
    const first = await startTestPlatform({ dataDir });
    const erin = first.admin.createUser('erin');
    first.admin.addFriends('erin', 'alice');
    first.admin.removeFriends('bob', 'carol');
    const app = first.admin.createApp({ name: 'Saved Game', id: '777777777777777777' });
    first.admin.addAsset(app.id, 'banner');
    const token = first.loginToken('erin');
    const aliceToken = first.loginToken('alice');
    const dm = await api<{ id: string }>(first, 'POST', '/api/users/@me/channels', { token, body: { recipient_id: SEED.users.alice } });
    await api(first, 'POST', `/api/channels/${dm.body.id}/messages`, { token, body: { content: 'remember me' } });
    await stopTestPlatform(first);

    const stateFile = path.join(dataDir, 'state.db');
    expect((await stat(stateFile)).mode & 0o777).toBe(0o600);
    const second = await startTestPlatform({ dataDir });
    expect(second.user('erin')?.id).toBe(erin.id);
    expect(second.loginToken('erin')).toBe(token);
    expect(second.loginToken('alice')).toBe(aliceToken);
    const relationships = await api<{ id: string }[]>(second, 'GET', '/api/users/@me/relationships', { token });
    expect(relationships.body.map((r) => r.id)).toEqual([SEED.users.alice]);
    const bobFriends = await api<{ id: string }[]>(second, 'GET', '/api/users/@me/relationships', { token: second.loginToken('bob') });
    expect(bobFriends.body.map((r) => r.id)).not.toContain(SEED.users.carol);
    const saved = second.admin.apps().find((a) => a.id === app.id);
    expect(saved).toMatchObject({ name: 'Saved Game', public_key: app.public_key, assets: [{ name: 'banner' }] });
    const messages = await api<{ content: string }[]>(second, 'GET', `/api/channels/${dm.body.id}/messages`, { token });
    expect(messages.body.map((m) => m.content)).toEqual(['remember me']);
    // New ids stay unique after the restart.
    expect(second.admin.createUser('frank').id).not.toBe(erin.id);
  });

  it('seeds fixed ids on first start', async () => {
    const platform = await startTestPlatform();
    expect(platform.users().map((u) => [u.username, u.id, u.global_name])).toEqual([
      ['alice', SEED.users.alice, 'Alice'],
      ['bob', SEED.users.bob, 'Bob'],
      ['carol', SEED.users.carol, 'Carol'],
      ['dave', SEED.users.dave, 'Dave'],
    ]);
    expect(platform.admin.apps()[0]).toMatchObject({ id: '1234567890123456789', verified: true, public_client: true, redirect_uris: ['http://127.0.0.1/callback', `discord-${SEED.appId}:/authorize/callback`], approved_scopes: ['rpc', 'rpc.activities.write'] });
  });

  it('writes platform.json (0600) with pid, url and admin token, and removes it on close', async () => {
    const dataDir = await tempDir();
    const platform = await startTestPlatform({ dataDir });
    expect(platform.runtimeFile).toBe(path.join(dataDir, 'platform.json'));
    expect((await stat(platform.runtimeFile)).mode & 0o777).toBe(0o600);
    const info = JSON.parse(await readFile(platform.runtimeFile, 'utf8')) as Record<string, unknown>;
    expect(info).toEqual({ pid: process.pid, url: platform.url, adminToken: platform.adminToken, startedAt: expect.any(String) });
    expect(platform.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(platform.port < 6463 || platform.port > 6472).toBe(true);
    await expect(startPlatform({ dataDir })).rejects.toBeInstanceOf(PlatformAlreadyRunningError);
    await stopTestPlatform(platform);
    await expect(stat(platform.runtimeFile)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('refuses the reserved RPC ports and a corrupt state file', async () => {
    await expect(startPlatform({ dataDir: await tempDir(), port: 6463 })).rejects.toBeInstanceOf(RangeError);
    const dataDir = await tempDir();
    await writeFile(path.join(dataDir, 'state.json'), '{broken');
    await expect(startPlatform({ dataDir })).rejects.toBeInstanceOf(CorruptStateError);
    // The refused start released the data dir.
    await writeFile(path.join(dataDir, 'state.json'), '');
    await expect(startPlatform({ dataDir })).rejects.toBeInstanceOf(CorruptStateError);
    // A state database that is not one is refused too, and left as it is.
    const damaged = await tempDir();
    await writeFile(path.join(damaged, 'state.db'), 'not a database, '.repeat(512));
    await expect(startPlatform({ dataDir: damaged })).rejects.toBeInstanceOf(CorruptStateError);
    expect(await readFile(path.join(damaged, 'state.db'), 'utf8')).toBe('not a database, '.repeat(512));
  });
});
