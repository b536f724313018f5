import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AccountCache } from '../../../src/host/session/account-cache.js';
import type { PlatformUser } from '../../../../platform/src/wire/index.js';

const USER: PlatformUser = {
  id: '80351110224678912',
  username: 'nelly',
  discriminator: '0',
  global_name: 'Nelly',
  avatar: null,
  bot: false,
  flags: 0,
  premium_type: 0,
};

describe('AccountCache', () => {
  let dir: string;
  let dataDir: string;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'companion-account-'));
    dataDir = path.join(dir, 'data');
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function saved(): Promise<unknown> {
    return JSON.parse(await readFile(path.join(dataDir, 'account.json'), 'utf8'));
  }

  it('stores the file as <data dir>/account.json', () => {
    expect(new AccountCache(dataDir).file).toBe(path.join(dataDir, 'account.json'));
  });

  it('writes that overlap all succeed, in call order: the last one is what the file holds', async () => {
    const cache = new AccountCache(dataDir);
    const results = await Promise.allSettled([cache.write(USER), cache.write(null), cache.write(USER), cache.write(null)]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled']);
    await expect(cache.read()).resolves.toBeNull();
  });

  it('reads null when nothing was written', async () => {
    await expect(new AccountCache(dataDir).read()).resolves.toBeNull();
  });

  it('reads back the user it wrote, creating the data directory', async () => {
    await new AccountCache(dataDir).write(USER);
    await expect(new AccountCache(dataDir).read()).resolves.toEqual(USER);
  });

  it('replaces the previous account and leaves no temporary file behind', async () => {
    const cache = new AccountCache(dataDir);
    await cache.write(USER);
    await cache.write({ ...USER, id: '42', username: 'other' });
    await expect(cache.read()).resolves.toMatchObject({ id: '42', username: 'other' });
    expect(await readdir(dataDir)).toEqual(['account.json']);
  });

  it.skipIf(process.platform === 'win32')('writes the file with mode 0600 and a new data directory with 0700', async () => {
    await new AccountCache(dataDir).write(USER);
    expect((await stat(path.join(dataDir, 'account.json'))).mode & 0o777).toBe(0o600);
    expect((await stat(dataDir)).mode & 0o777).toBe(0o700);
  });

  it('writes exactly { user, savedAt } with an ISO timestamp', async () => {
    const before = Date.now();
    await new AccountCache(dataDir).write(USER);
    const content = (await saved()) as Record<string, unknown>;
    expect(Object.keys(content).sort()).toEqual(['savedAt', 'user']);
    expect(content.user).toEqual(USER);
    expect(typeof content.savedAt).toBe('string');
    const savedAt = Date.parse(content.savedAt as string);
    expect(new Date(savedAt).toISOString()).toBe(content.savedAt);
    expect(savedAt).toBeGreaterThanOrEqual(before - 1000);
    expect(savedAt).toBeLessThanOrEqual(Date.now() + 1000);
  });

  it('write(null) forgets the account: read gives null', async () => {
    const cache = new AccountCache(dataDir);
    await cache.write(USER);
    await cache.write(null);
    await expect(cache.read()).resolves.toBeNull();
    expect(await saved()).toMatchObject({ user: null });
  });

  it.each([
    ['corrupt JSON', '{"user": {"id": "1", "username": '],
    ['an empty file', ''],
    ['JSON null', 'null'],
    ['no user', JSON.stringify({ savedAt: '2024-01-01T00:00:00.000Z' })],
    ['a user without an id', JSON.stringify({ user: { username: 'nelly' } })],
    ['a user with a numeric id', JSON.stringify({ user: { id: 1, username: 'nelly' } })],
    ['a user without a username', JSON.stringify({ user: { id: '1' } })],
  ])('reads %s as null', async (_label, content) => {
    await mkdir(dataDir, { recursive: true });
    await writeFile(path.join(dataDir, 'account.json'), content);
    await expect(new AccountCache(dataDir).read()).resolves.toBeNull();
  });
});
