import { readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../../../rpc/test/support/test-server.js';
import { MAX_ANNOUNCED, PRESENCE_FILE, PresenceSettingsStore } from '../../../src/host/presence/presence-settings-store.js';
import { DEFAULT_PRESENCE_SETTINGS, redactActivity } from '../../../src/host/presence/presence-privacy.js';
import { applyPatch, PresenceSettingsError } from '../../../src/host/presence/presence-service.js';

const APP_A = '1234567890123456789';
const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});
async function tempDir(): Promise<string> {
  const dir = await makeTempDir('companion-presence-');
  dirs.push(dir);
  return dir;
}

describe('PresenceSettingsStore', () => {
  it('starts from the defaults, saves settings and announced apps (mode 0600) and reads them back', async () => {
    const dir = await tempDir();
    const { store, warning } = await PresenceSettingsStore.load(dir, { now: () => 42 });
    expect(warning).toBeNull();
    expect(store.settings).toEqual(DEFAULT_PRESENCE_SETTINGS);
    const settings = applyPatch(store.settings, { policy: 'first-connected', hide_all: true, rules: { [APP_A]: { mode: 'redact' } } });
    await store.replace(settings);
    const first = store.markAnnounced({ application_id: APP_A, application_name: 'Demo' });
    expect(first.added).toBe(true);
    expect(store.markAnnounced({ application_id: APP_A, application_name: 'Demo' }).added).toBe(false);
    await first.saved;
    expect((await stat(path.join(dir, PRESENCE_FILE))).mode & 0o777).toBe(0o600);

    const again = await PresenceSettingsStore.load(dir);
    expect(again.store.settings).toEqual(settings);
    expect(again.store.settings.rules[APP_A]).toEqual({ mode: 'redact', fields: ['details', 'state', 'party', 'buttons', 'assets'] });
    expect(again.store.isAnnounced(APP_A)).toBe(true);
    expect(again.store.announced()).toEqual([{ application_id: APP_A, application_name: 'Demo', at: 42 }]);
  });

  it('sets a corrupt or foreign file aside with a warning and uses the defaults', async () => {
    const dir = await tempDir();
    const warnings: string[] = [];
    const logger = { warn: (_fields: object, message: string) => void warnings.push(message) };
    await writeFile(path.join(dir, PRESENCE_FILE), '{"version": 1, "policy": "loudest"');
    const broken = await PresenceSettingsStore.load(dir, { logger });
    expect(broken.warning).toMatch(/presence\.json was not valid JSON; kept as presence\.json\.corrupt-/);
    expect(broken.store.settings).toEqual(DEFAULT_PRESENCE_SETTINGS);

    await writeFile(path.join(dir, PRESENCE_FILE), JSON.stringify({ version: 1, policy: 'loudest', pinned_application_id: null, hide_all: false, rules: {}, announced: [] }));
    const foreign = await PresenceSettingsStore.load(dir, { logger });
    expect(foreign.warning).toMatch(/did not hold presence settings \(policy: /);
    expect(warnings).toHaveLength(2);
    const names = await readdir(dir);
    expect(names.filter((name) => name.startsWith(`${PRESENCE_FILE}.corrupt-`))).toHaveLength(2);
    expect(names).not.toContain(PRESENCE_FILE);
    // The aside copy is kept as it was.
    const aside = names.find((name) => name.startsWith(`${PRESENCE_FILE}.corrupt-`)) as string;
    expect(await readFile(path.join(dir, aside), 'utf8')).toContain('loudest');
  });

  it('removes a temp file left by a dead writer', async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, `${PRESENCE_FILE}.999999999.abc.tmp`), 'half');
    await PresenceSettingsStore.load(dir);
    expect(await readdir(dir)).toEqual([]);
  });
});

describe('applyPatch and redactActivity', () => {
  it('remembers at most MAX_ANNOUNCED apps, the least recently active forgotten first: 10,000 ids leave presence.json small', async () => {
    const dir = await tempDir();
    const { store } = await PresenceSettingsStore.load(dir);
    const id = (n: number): string => String(100_000_000_000_000_000n + BigInt(n));
    const played = '555555555555555555';
    store.markAnnounced({ application_id: played, application_name: 'The Game Played' });
    for (let n = 0; n < 10_000; n += 1) {
      store.markAnnounced({ application_id: id(n), application_name: `Application ${id(n)}` });
      // The player's game keeps setting activities meanwhile: it stays remembered.
      if (n % 100 === 0) expect(store.markAnnounced({ application_id: played, application_name: 'The Game Played' }).added).toBe(false);
    }
    await store.flush();
    expect(MAX_ANNOUNCED).toBeLessThanOrEqual(500);
    expect(store.announced()).toHaveLength(MAX_ANNOUNCED);
    expect(store.isAnnounced(played)).toBe(true);
    expect(store.isAnnounced(id(9_999))).toBe(true);
    expect(store.isAnnounced(id(0))).toBe(false);
    expect((await stat(path.join(dir, PRESENCE_FILE))).size).toBeLessThan(100 * 1024);
    const again = await PresenceSettingsStore.load(dir);
    expect(again.store.isAnnounced(played)).toBe(true);
    expect(again.store.announced()).toHaveLength(MAX_ANNOUNCED);
  });

  it('merges rules per app; share or null removes a rule; unpin with null', () => {
    let settings = applyPatch(DEFAULT_PRESENCE_SETTINGS, { pinned_application_id: APP_A, rules: { [APP_A]: { mode: 'hide' }, '42': { mode: 'redact', fields: ['state', 'state'] } } });
    expect(settings.rules).toEqual({ [APP_A]: { mode: 'hide' }, '42': { mode: 'redact', fields: ['state'] } });
    settings = applyPatch(settings, { pinned_application_id: null, rules: { [APP_A]: null, '42': { mode: 'share' } } });
    expect(settings).toEqual(DEFAULT_PRESENCE_SETTINGS);
    const many = Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [String(i + 1), { mode: 'hide' as const }]));
    expect(() => applyPatch(DEFAULT_PRESENCE_SETTINGS, { rules: many })).toThrow(PresenceSettingsError);
  });

  it('redacts details with its link and a status display pointing at it; leaves the input alone', () => {
    const wire = { name: 'Game', type: 0, details: 'Ranked', details_url: 'https://x.example', status_display_type: 2, buttons: [{ label: 'Site', url: 'https://x.example' }] };
    expect(redactActivity(wire, ['details', 'buttons'])).toEqual({ name: 'Game', type: 0 });
    expect(wire.details).toBe('Ranked');
  });
});
