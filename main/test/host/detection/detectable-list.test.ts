import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startPlatform } from '../../../../platform/src/index.js';
import type { DetectableApplication } from '../../../../platform/src/wire/index.js';
import { makeTempDir } from '../../../../rpc/test/support/test-server.js';
import { PlatformApi } from '../../../src/host/gateway/platform-api.js';
import { DetectableListFile, DETECTABLE_CACHE_FILE } from '../../../src/host/detection/detectable-list-file.js';
import { DETECTABLE_REFRESH_MS, DETECTABLE_RETRY_MS, DetectableList } from '../../../src/host/detection/detectable-list.js';
import { FakeClock } from '../presence/fake-clock.js';

const DEMO_APP_ID = '1234567890123456789';
const quiet = { info: () => undefined, warn: () => undefined, debug: () => undefined, error: () => undefined };
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

type Platform = Awaited<ReturnType<typeof startPlatform>>;

async function platform(): Promise<Platform> {
  const started = await startPlatform({ port: 0, dataDir: await makeTempDir('companion-platform-'), logger: quiet });
  closers.push(() => started.close());
  return started;
}

/** A list keeper over a real PlatformApi, counting what the platform answered. */
function keeper(baseUrl: string, dataDir: string, clock: FakeClock): { list: DetectableList; answers: string[]; lists: (readonly DetectableApplication[])[] } {
  const api = new PlatformApi({ baseUrl, timeoutMs: 2000 });
  const answers: string[] = [];
  const list = new DetectableList({
    fetch: async (etag) => {
      const answer = await api.detectableApplications(etag);
      answers.push(answer.kind);
      return answer;
    },
    file: new DetectableListFile(dataDir),
    logger: quiet,
    clock,
  });
  const lists: (readonly DetectableApplication[])[] = [];
  list.on('list', (applications) => lists.push(applications));
  closers.push(async () => list.dispose());
  return { list, answers, lists };
}

describe('issue 30 §1: the host fetches the detectable list at sign-in and keeps it fresh', () => {
  it('fetches at sign-in, writes the cached copy, asks again with the tag (304) and takes a changed list', async () => {
    const server = await platform();
    const dataDir = await makeTempDir('companion-data-');
    const clock = new FakeClock();
    const { list, answers, lists } = keeper(server.url, dataDir, clock);
    await list.signIn();
    expect(answers).toEqual(['list']);
    expect(list.applications().find((app) => app.id === DEMO_APP_ID)?.executables).toContainEqual({ os: 'linux', name: 'companion-demo-game', is_launcher: false });
    expect(list.status()).toMatchObject({ source: 'platform', last_error: null });
    const cached = JSON.parse(await readFile(path.join(dataDir, DETECTABLE_CACHE_FILE), 'utf8')) as { etag: string; applications: DetectableApplication[] };
    expect(cached.etag).toMatch(/^".+"$/);
    expect(cached.applications.map((app) => app.id)).toContain(DEMO_APP_ID);

    await list.refresh();
    expect(answers).toEqual(['list', 'unchanged']);
    expect(lists).toHaveLength(1);

    server.admin.patchApp(DEMO_APP_ID, { executables: [{ os: 'linux', name: 'renamed-demo', is_launcher: false }] });
    await list.refresh();
    expect(answers).toEqual(['list', 'unchanged', 'list']);
    expect(lists).toHaveLength(2);
    expect(list.applications().find((app) => app.id === DEMO_APP_ID)?.executables).toEqual([{ os: 'linux', name: 'renamed-demo', is_launcher: false }]);
  });

  it('a daily timer is armed only while signed in, and it asks again', async () => {
    const server = await platform();
    const clock = new FakeClock();
    const { list, answers } = keeper(server.url, await makeTempDir('companion-data-'), clock);
    expect(clock.pending).toBe(0);
    await list.signIn();
    expect(clock.pending).toBe(1);
    clock.advance(DETECTABLE_REFRESH_MS - 1);
    expect(answers).toEqual(['list']);
    clock.advance(1);
    await list.refresh();
    expect(answers).toEqual(['list', 'unchanged']);
    list.signOut();
    expect(clock.pending).toBe(0);
    clock.advance(2 * DETECTABLE_REFRESH_MS);
    expect(answers).toEqual(['list', 'unchanged']);
  });

  it('unref: the real timers never keep the process alive', async () => {
    const server = await platform();
    const list = new DetectableList({ fetch: (etag) => new PlatformApi({ baseUrl: server.url }).detectableApplications(etag), file: new DetectableListFile(await makeTempDir('companion-data-')), logger: quiet });
    closers.push(async () => list.dispose());
    const handles: NodeJS.Timeout[] = [];
    const original = globalThis.setTimeout;
    globalThis.setTimeout = ((...args: Parameters<typeof original>) => {
      const handle = original(...args);
      handles.push(handle);
      return handle;
    }) as typeof original;
    try {
      await list.signIn();
    } finally {
      globalThis.setTimeout = original;
    }
    const armed = handles.filter((handle) => !(handle as unknown as { _destroyed?: boolean })._destroyed);
    expect(armed.length).toBeGreaterThan(0);
    expect(armed.every((handle) => !handle.hasRef())).toBe(true);
  });
});

describe('issue 30 §1: the host works from its cached copy when the platform is unreachable', () => {
  it('a host started offline uses the cached list, says why, and retries while signed in', async () => {
    const server = await platform();
    const dataDir = await makeTempDir('companion-data-');
    const first = keeper(server.url, dataDir, new FakeClock());
    await first.list.signIn();
    await server.close();
    closers.pop();

    const clock = new FakeClock();
    const offline = keeper(server.url, dataDir, clock);
    await offline.list.loadCache();
    expect(offline.list.status().source).toBe('cache');
    expect(offline.lists).toHaveLength(1);
    expect(offline.list.applications().map((app) => app.id)).toContain(DEMO_APP_ID);
    await offline.list.signIn();
    expect(offline.list.status().last_error).toMatch(/ECONNREFUSED|unreachable|connect/i);
    expect(offline.list.applications().map((app) => app.id)).toContain(DEMO_APP_ID);
    expect(clock.pending).toBe(1);
    clock.advance(DETECTABLE_RETRY_MS);
    await offline.list.refresh();
    expect(offline.list.status().source).toBe('cache');
  });

  it('a cache file that is not the host\'s format is no copy (and the fetch replaces it)', async () => {
    const server = await platform();
    const dataDir = await makeTempDir('companion-data-');
    await writeFile(path.join(dataDir, DETECTABLE_CACHE_FILE), '{"version": 1, "etag": 3');
    const { list } = keeper(server.url, dataDir, new FakeClock());
    await list.loadCache();
    expect(list.status().source).toBe('none');
    await list.signIn();
    expect(list.status().source).toBe('platform');
    expect(await new DetectableListFile(dataDir).read()).not.toBeNull();
  });
});
