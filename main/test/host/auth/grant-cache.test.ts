import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OAuthGrant } from '../../../../platform/src/wire/oauth.js';
import { writeFileAtomic } from '../../../../common/src/node/atomic-file.js';
import { GrantCache, type GrantCacheLogger } from '../../../src/host/auth/grant-cache.js';

const APP_A = '1000000000000000001';
const APP_B = '1000000000000000002';

function grant(overrides: Partial<OAuthGrant> & { app?: string } = {}): OAuthGrant {
  const { app = APP_A, ...rest } = overrides;
  return {
    id: `g-${app}`,
    application: { id: app, name: `Game ${app.slice(-1)}`, icon: null },
    scopes: ['identify'],
    integration_type: 1,
    created_at: '2025-01-01T00:00:00.000Z',
    ...rest,
  };
}

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'companion-grants-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const file = () => path.join(dir, 'grants.json');

describe('GrantCache', () => {
  it('starts empty without a file, and round-trips grants through the file', async () => {
    const cache = new GrantCache(dir);
    expect(await cache.load()).toEqual({ grants: 0, warning: null });
    expect(cache.list()).toEqual([]);
    await cache.record(grant());
    await cache.record(grant({ app: APP_B, scopes: ['guilds'], integration_type: null }));

    const again = new GrantCache(dir);
    expect(await again.load()).toEqual({ grants: 2, warning: null });
    expect(again.list()).toEqual(cache.list());
    expect(again.covers(APP_A, ['identify'], 1)).toBe(true);
    expect(again.covers(APP_B, ['guilds'], null)).toBe(true);
    const stored = JSON.parse(await readFile(file(), 'utf8')) as { version: number; grants: unknown[] };
    expect(stored.version).toBe(1);
    expect(stored.grants).toHaveLength(2);
  });

  it('does not rewrite the file when a change leaves the list as it is (a refresh after a reconnect)', async () => {
    const cache = new GrantCache(dir);
    await cache.load();
    const list = [grant()];
    await cache.replaceAll(list);
    const written = await stat(path.join(dir, 'grants.json'));
    await cache.replaceAll(list);
    await cache.record(grant());
    expect((await stat(path.join(dir, 'grants.json'))).ino).toBe(written.ino); // every write renames a new file in
    await cache.replaceAll([]);
    expect((await stat(path.join(dir, 'grants.json'))).ino).not.toBe(written.ino);
  });

  it('writes the file with mode 0600 and leaves no temp file behind', async () => {
    const cache = new GrantCache(path.join(dir, 'nested'));
    await cache.record(grant());
    expect((await stat(path.join(dir, 'nested', 'grants.json'))).mode & 0o777).toBe(0o600);
    expect((await stat(path.join(dir, 'nested'))).mode & 0o777).toBe(0o700);
    expect(await readdir(path.join(dir, 'nested'))).toEqual(['grants.json']);
  });

  it('covers only when one grant of the app holds every scope, with the same integration type (any when none is asked)', async () => {
    const cache = new GrantCache(dir);
    await cache.record(grant({ scopes: ['identify', 'guilds'], integration_type: 1 }));
    expect(cache.covers(APP_A, ['identify'], 1)).toBe(true);
    expect(cache.covers(APP_A, ['guilds', 'identify'], 1)).toBe(true);
    expect(cache.covers(APP_A, ['identify', 'email'], 1)).toBe(false);
    expect(cache.covers(APP_A, ['identify'], 0)).toBe(false);
    expect(cache.covers(APP_A, ['identify'], null)).toBe(true);
    expect(cache.covers(APP_B, ['identify'], 1)).toBe(false);
    expect(cache.covers(APP_A, [], 1)).toBe(true);
    expect(cache.covers(APP_B, [], 1)).toBe(false);
  });

  it('merges scopes into the grant of the same id, or of the same app and integration type', async () => {
    const cache = new GrantCache(dir);
    await cache.record(grant({ scopes: ['identify', 'guilds'] }));
    await cache.record(grant({ scopes: ['guilds', 'email'], created_at: '2025-02-01T00:00:00.000Z' }));
    expect(cache.list()).toEqual([grant({ scopes: ['identify', 'guilds', 'email'], created_at: '2025-02-01T00:00:00.000Z' })]);
    // Same app and type under a new id: one grant, the new id.
    await cache.record(grant({ id: 'g-new', scopes: ['connections'] }));
    expect(cache.list()).toEqual([grant({ id: 'g-new', scopes: ['identify', 'guilds', 'email', 'connections'], created_at: '2025-01-01T00:00:00.000Z' })]);
    // Another integration type is another grant.
    await cache.record(grant({ id: 'g-guild', scopes: ['applications.commands'], integration_type: 0 }));
    expect(cache.list().map((g) => [g.id, g.integration_type])).toEqual([
      ['g-new', 1],
      ['g-guild', 0],
    ]);
    const reloaded = new GrantCache(dir);
    await reloaded.load();
    expect(reloaded.list()).toEqual(cache.list());
  });

  it('replaceAll takes the platform\'s list; remove and removeGrant forget', async () => {
    const cache = new GrantCache(dir);
    await cache.record(grant({ scopes: ['email'] }));
    await cache.replaceAll([grant({ app: APP_B }), grant({ id: 'g2', scopes: ['guilds'] })]);
    expect(cache.list().map((g) => g.id)).toEqual([`g-${APP_B}`, 'g2']);
    expect(cache.covers(APP_A, ['email'], 1)).toBe(false);

    expect(await cache.removeGrant('g2')).toBe(true);
    expect(await cache.removeGrant('g2')).toBe(false);
    await cache.record(grant({ id: 'g3', integration_type: 0 }));
    await cache.record(grant({ id: 'g4', integration_type: null }));
    expect(await cache.remove(APP_A)).toBe(2);
    expect(await cache.remove(APP_A)).toBe(0);
    const reloaded = new GrantCache(dir);
    await reloaded.load();
    expect(reloaded.list().map((g) => g.id)).toEqual([`g-${APP_B}`]);
  });

  it('concurrent record() calls all land, in the file too', async () => {
    const cache = new GrantCache(dir);
    const apps = Array.from({ length: 25 }, (_, i) => `20000000000000000${String(i).padStart(2, '0')}`);
    await Promise.all([...apps.map((app) => cache.record(grant({ app }))), cache.record(grant({ app: apps[0] as string, scopes: ['guilds'] }))]);
    expect(cache.list()).toHaveLength(25);
    const reloaded = new GrantCache(dir);
    expect((await reloaded.load()).grants).toBe(25);
    expect(reloaded.covers(apps[0] as string, ['identify', 'guilds'], 1)).toBe(true);
    expect(await readdir(dir)).toEqual(['grants.json']);
  });

  it('a change before load() reads the file first and never writes over grants it did not read', async () => {
    await new GrantCache(dir).record(grant());
    const cache = new GrantCache(dir);
    await cache.record(grant({ app: APP_B }));
    const reloaded = new GrantCache(dir);
    await reloaded.load();
    expect(reloaded.list().map((g) => g.application.id)).toEqual([APP_A, APP_B]);
  });
});

describe('GrantCache with a corrupt or interrupted file', () => {
  function logger() {
    const warnings: { fields: object; message: string }[] = [];
    const log: GrantCacheLogger = { info: () => undefined, warn: (fields, message) => warnings.push({ fields, message }) };
    return { log, warnings };
  }

  it('keeps a file that is not JSON aside, with a clear message, and starts empty', async () => {
    await writeFile(file(), '{"version":1,"grants":[{"id":', { mode: 0o600 });
    const { log, warnings } = logger();
    const now = Date.parse('2025-03-04T05:06:07.089Z');
    const cache = new GrantCache(dir, { now: () => now, logger: log });
    const result = await cache.load();
    expect(result).toEqual({
      grants: 0,
      warning: 'grants.json was not valid JSON; kept as grants.json.corrupt-2025-03-04T05-06-07-089Z; starting with no remembered grants',
    });
    expect(warnings.map((w) => w.message)).toEqual([result.warning]);
    expect(await readFile(path.join(dir, 'grants.json.corrupt-2025-03-04T05-06-07-089Z'), 'utf8')).toBe('{"version":1,"grants":[{"id":');
    expect(cache.list()).toEqual([]);

    // Later writes make a fresh file; the aside copy stays.
    await cache.record(grant());
    expect((await readdir(dir)).sort()).toEqual(['grants.json', 'grants.json.corrupt-2025-03-04T05-06-07-089Z']);
  });

  it('keeps aside a JSON file that is not a grant list, naming the problem, without overwriting an earlier aside copy', async () => {
    const now = Date.parse('2025-03-04T05:06:07.089Z');
    await writeFile(path.join(dir, 'grants.json.corrupt-2025-03-04T05-06-07-089Z'), 'older');
    await writeFile(file(), JSON.stringify({ version: 1, grants: [{ id: 5 }] }));
    const cache = new GrantCache(dir, { now: () => now });
    const { warning } = await cache.load();
    expect(warning).toMatch(/^grants\.json did not hold a grant list \(grants\.0\.id: .+\); kept as grants\.json\.corrupt-2025-03-04T05-06-07-089Z-1; starting with no remembered grants$/);
    expect(await readFile(path.join(dir, 'grants.json.corrupt-2025-03-04T05-06-07-089Z'), 'utf8')).toBe('older');
    expect(JSON.parse(await readFile(path.join(dir, 'grants.json.corrupt-2025-03-04T05-06-07-089Z-1'), 'utf8'))).toEqual({ version: 1, grants: [{ id: 5 }] });
  });

  it('a crash between writing the temp file and renaming it leaves the old file readable; the stray temp is cleaned up', async () => {
    const cache = new GrantCache(dir);
    await cache.record(grant({ scopes: ['identify'] }));
    const before = await readFile(file(), 'utf8');
    // What a writer killed before its rename leaves: a complete or a torn temp file, never grants.json.
    const deadPid = 999_999_999;
    await writeFile(path.join(dir, `grants.json.${deadPid}.AbC123.tmp`), '{"version":1,"grants":[{"id":"torn"');
    await writeFile(path.join(dir, `grants.json.${deadPid}.Full99.tmp`), JSON.stringify({ version: 1, grants: [] }));
    // A live writer's temp (another host on the same data dir) is left alone.
    await writeFile(path.join(dir, 'grants.json.4242.Live01.tmp'), '{}');
    expect(await readFile(file(), 'utf8')).toBe(before);

    const restarted = new GrantCache(dir, { isAlive: (pid) => pid === 4242 });
    expect(await restarted.load()).toEqual({ grants: 1, warning: null });
    expect(restarted.covers(APP_A, ['identify'], 1)).toBe(true);
    expect((await readdir(dir)).sort()).toEqual(['grants.json', 'grants.json.4242.Live01.tmp']);
  });

  it('a failed write leaves the old file and no temp file; the change is written with the next one', async () => {
    const cache = new GrantCache(dir);
    await cache.record(grant());
    const before = await readFile(file(), 'utf8');
    // Renaming over a non-empty directory fails after the temp file was written and synced.
    const blocked = path.join(dir, 'blocked');
    await mkdir(blocked);
    await writeFile(path.join(blocked, 'x'), 'x');
    await expect(writeFileAtomic(blocked, 'new')).rejects.toThrow();
    expect((await readdir(dir)).sort()).toEqual(['blocked', 'grants.json']);
    expect(await readFile(file(), 'utf8')).toBe(before);
  });

  it('a read error other than a missing file rejects and leaves the file alone', async () => {
    await mkdir(file());
    const cache = new GrantCache(dir);
    await expect(cache.load()).rejects.toThrow(/EISDIR/);
    await expect(cache.record(grant())).rejects.toThrow(/EISDIR/);
    expect((await stat(file())).isDirectory()).toBe(true);
  });
});
