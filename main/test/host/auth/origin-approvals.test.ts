import { readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../../../rpc/test/support/test-server.js';
import { normalizeOrigin, ORIGINS_FILE, OriginApprovals, type OriginApprovalsOptions, type OriginRequestView } from '../../../src/host/auth/origin-approvals.js';

const APP = '123456789012345678';
const OTHER_APP = '223456789012345678';
const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function approvals(options: Partial<OriginApprovalsOptions> = {}): Promise<OriginApprovals> {
  const dataDir = options.dataDir ?? (await makeTempDir('companion-origins-'));
  if (options.dataDir === undefined) dirs.push(dataDir);
  let id = 0;
  const store = new OriginApprovals({ dataDir, newId: () => `r${++id}`, ...options });
  await store.load();
  return store;
}

function nextRequest(store: OriginApprovals): Promise<OriginRequestView> {
  return new Promise((resolve) => store.once('request', resolve));
}

describe('normalizeOrigin', () => {
  it.each([
    ['https://Example.COM', 'https://example.com'],
    ['https://example.com:443', 'https://example.com'],
    ['http://127.0.0.1:8080', 'http://127.0.0.1:8080'],
    ['chrome-extension://abcdefgh', 'chrome-extension://abcdefgh'],
  ])('%s is %s', (header, expected) => {
    expect(normalizeOrigin(header)).toBe(expected);
  });

  it.each(['null', '', 'not a url', 'file:///home/me/page.html'])('%j cannot be approved', (header) => {
    expect(normalizeOrigin(header)).toBeNull();
  });
});

describe('OriginApprovals', () => {
  it('allows the platform\'s own origins and the trusted ones for every app, without a request', async () => {
    const store = await approvals({ trustedOrigins: ['http://127.0.0.1:40213'] });
    for (const origin of ['https://discord.com', 'https://ptb.discord.com', 'https://canary.discord.com', 'http://127.0.0.1:40213']) {
      expect(store.allows(origin, APP), origin).toBe(true);
    }
    expect(store.pending()).toEqual([]);
  });

  it('refuses an unknown origin and records one request per (origin, app), counting attempts', async () => {
    let now = 1000;
    const store = await approvals({ now: () => now, applicationName: () => 'Demo Game' });
    const announced = nextRequest(store);
    expect(store.allows('https://game.example', APP)).toBe(false);
    now = 2000;
    expect(store.allows('https://game.example/', APP)).toBe(false);
    expect(store.allows('https://game.example', OTHER_APP)).toBe(false);
    expect(await announced).toMatchObject({ id: 'r1', origin: 'https://game.example', client_id: APP, application_name: 'Demo Game' });
    expect(store.pending()).toEqual([
      { id: 'r1', origin: 'https://game.example', client_id: APP, application_name: 'Demo Game', created_at: 1000, last_attempt_at: 2000, attempts: 2 },
      { id: 'r2', origin: 'https://game.example', client_id: OTHER_APP, application_name: 'Demo Game', created_at: 2000, last_attempt_at: 2000, attempts: 1 },
    ]);
  });

  it('never records a request for an opaque origin or an application that does not exist', async () => {
    const store = await approvals({ applicationName: (clientId) => (clientId === APP ? 'Demo Game' : null) });
    expect(store.allows('null', APP)).toBe(false);
    expect(store.allows('https://game.example', OTHER_APP)).toBe(false);
    await new Promise((resolve) => setImmediate(resolve));
    expect(store.pending()).toEqual([]);
  });

  it('approve: the pair is allowed from then on, kept in an owner-only file, and survives a restart', async () => {
    const store = await approvals({ now: () => 5000 });
    const settled: unknown[] = [];
    store.on('settled', (request, outcome) => settled.push([request.id, outcome]));
    store.allows('https://game.example', APP);
    await nextRequest(store);
    expect(await store.approve('r1')).toBe(true);
    expect(await store.approve('r1')).toBe(false);
    expect(settled).toEqual([['r1', 'approved']]);
    expect(store.allows('https://game.example', APP)).toBe(true);
    expect(store.allows('https://game.example', OTHER_APP)).toBe(false);
    expect(store.decisions()).toEqual([{ id: 'r1', origin: 'https://game.example', client_id: APP, application_name: null, decision: 'approved', decided_at: 5000 }]);

    const file = path.join(store.file);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({
      version: 1,
      approved: [{ id: 'r1', origin: 'https://game.example', client_id: APP, application_name: null, approved_at: 5000 }],
    });
    const again = await approvals({ dataDir: path.dirname(file) });
    expect(again.allows('https://game.example', APP)).toBe(true);
    expect(again.decisions()).toHaveLength(1);
  });

  it('deny: no new request for that pair until forgotten; denials are not written', async () => {
    const store = await approvals();
    store.allows('https://game.example', APP);
    expect(store.deny('r1')).toBe(true);
    expect(store.deny('r1')).toBe(false);
    expect(store.allows('https://game.example', APP)).toBe(false);
    expect(store.pending()).toEqual([]);
    expect(store.decisions()).toMatchObject([{ id: 'r1', decision: 'denied' }]);
    await store.flush();
    await expect(readFile(store.file)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await store.forget('r1')).toBe(true);
    expect(store.allows('https://game.example', APP)).toBe(false);
    expect(store.pending()).toHaveLength(1);
  });

  it('forget removes an approval from the file', async () => {
    const store = await approvals();
    store.allows('https://game.example', APP);
    await store.approve('r1');
    expect(await store.forget('r1')).toBe(true);
    expect(await store.forget('r1')).toBe(false);
    expect(JSON.parse(await readFile(store.file, 'utf8'))).toEqual({ version: 1, approved: [] });
    expect(store.allows('https://game.example', APP)).toBe(false);
  });

  it('expires requests without a new attempt, and keeps at most maxPending', async () => {
    let now = 0;
    const store = await approvals({ now: () => now, pendingTtlMs: 1000, maxPending: 2 });
    const expired: string[] = [];
    store.on('settled', (request, outcome) => expired.push(`${request.id}:${outcome}`));
    store.allows('https://a.example', APP);
    store.allows('https://b.example', APP);
    await new Promise((resolve) => setImmediate(resolve));
    store.allows('https://c.example', APP);
    await new Promise((resolve) => setImmediate(resolve));
    expect(store.pending().map((request) => request.origin)).toEqual(['https://b.example', 'https://c.example']);
    now = 2000;
    expect(store.pending()).toEqual([]);
    expect(expired).toEqual(['r1:expired', 'r2:expired', 'r3:expired']);
  });

  it('sets a corrupt file aside with a warning and starts with no approvals', async () => {
    const dataDir = await makeTempDir('companion-origins-');
    dirs.push(dataDir);
    await writeFile(path.join(dataDir, ORIGINS_FILE), '{"version":1,"approved":[{"origin":42}]}');
    const store = new OriginApprovals({ dataDir });
    const loaded = await store.load();
    expect(loaded.approved).toBe(0);
    expect(loaded.warning).toMatch(/^rpc-origins\.json could not be read; kept as rpc-origins\.json\.corrupt-\d+/);
    expect((await readdir(dataDir)).some((name) => name.startsWith(`${ORIGINS_FILE}.corrupt-`))).toBe(true);
  });
});
