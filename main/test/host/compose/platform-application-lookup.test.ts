import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startPlatform, type PlatformServer } from '../../../../platform/src/index.js';
import { REFUSED } from '../../../src/host/compose/application-directory.js';
import { PlatformApplicationLookup } from '../../../src/host/compose/platform-application-lookup.js';
import { PlatformApi } from '../../../src/host/gateway/platform-api.js';

const UNKNOWN = '987654321098765432';
let platform: PlatformServer | undefined;
let dir: string | undefined;

afterEach(async () => {
  await platform?.close();
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  platform = undefined;
  dir = undefined;
});

async function start(limits?: Parameters<typeof startPlatform>[0]['limits']): Promise<PlatformServer> {
  dir = await mkdtemp(path.join(os.tmpdir(), 'companion-lookup-'));
  platform = await startPlatform({ dataDir: dir, ...(limits === undefined ? {} : { limits }) });
  return platform;
}

describe('PlatformApplicationLookup (against the emulator)', () => {
  it('signed in: registers an unknown id on first use with the user token', async () => {
    const emulator = await start();
    const authed = new PlatformApi({ baseUrl: emulator.url, token: emulator.loginToken('alice') });
    const lookup = new PlatformApplicationLookup(new PlatformApi({ baseUrl: emulator.url }), () => authed);
    expect(await lookup.application(UNKNOWN)).toMatchObject({ id: UNKNOWN, name: `Application ${UNKNOWN}`, verified: false });
    expect(emulator.admin.apps().map((app) => app.id)).toContain(UNKNOWN);
    expect(await lookup.application('not-a-snowflake')).toBeNull();
  });

  it('signed out: only looks up, so an unknown id stays unknown and nothing is created', async () => {
    const emulator = await start();
    const lookup = new PlatformApplicationLookup(new PlatformApi({ baseUrl: emulator.url }), () => null);
    expect(await lookup.application(UNKNOWN)).toBeNull();
    expect(emulator.admin.apps().map((app) => app.id)).not.toContain(UNKNOWN);
  });

  it('past the per-user rate: REFUSED; past the cap: unknown (null)', async () => {
    const emulator = await start({ http: { appRegister: { count: 1, windowMs: 60_000 } }, autoRegisteredAppsMax: 2 });
    const api = (user: string) => new PlatformApi({ baseUrl: emulator.url, token: emulator.loginToken(user) });
    const lookupAs = (user: string) => new PlatformApplicationLookup(new PlatformApi({ baseUrl: emulator.url }), () => api(user));
    expect(await lookupAs('alice').application('111111111111111111')).not.toBeNull();
    expect(await lookupAs('alice').application('222222222222222222')).toBe(REFUSED);
    expect(await lookupAs('bob').application('222222222222222222')).not.toBeNull();
    expect(await lookupAs('carol').application('333333333333333333')).toBeNull();
  });
});
