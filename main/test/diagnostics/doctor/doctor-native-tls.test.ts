import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startPlatform } from '../../../../platform/src/index.js';
import type { CommandIo } from '../../../src/shells/cli/cli-args.js';
import { doctorCommand } from '../../../src/shells/cli/doctor.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'companion-doctor-tls-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function doctor(env: Record<string, string>, json = false): Promise<string> {
  let out = '';
  const io: CommandIo = { stdout: (text) => void (out += text), stderr: () => undefined, env, version: '0.0.0-test' };
  expect(await doctorCommand(json ? ['--json'] : [], io)).toBe(0);
  return out;
}

describe('issue 28 §3: companion doctor tells where a native game goes and how to trust the local CA', () => {
  it('says how to set it up, then where the running emulator serves TLS and its CA, then that it is not served now; never a key', async () => {
    const home = await tempDir();
    const env = { XDG_CONFIG_HOME: home, HOME: home, XDG_RUNTIME_DIR: await tempDir() };
    expect(await doctor(env)).toContain("not set up: 'companion serve --platform-tls'");

    const dataDir = path.join(home, 'companion', 'platform');
    const platform = await startPlatform({ dataDir, tls: {} });
    const tls = platform.tls;
    if (tls === undefined) throw new Error('no TLS listener');
    const served = await doctor(env);
    expect(served).toContain(`the emulator serves ${tls.url}: pass Client("${tls.url}", "${tls.url}")`);
    expect(served).toContain(`local CA: ${tls.caCertFile} (a game's machine trusts it once: 'companion platform tls' tells how)`);
    expect(JSON.parse(await doctor(env, true)).nativeGames).toEqual({ state: 'served', url: tls.url, caCertFile: tls.caCertFile });
    const key = (await readFile(path.join(dataDir, 'tls', 'companion-ca.key'), 'utf8')).split('\n')[1] ?? 'missing';
    expect(served).not.toContain(key);
    await platform.close();

    expect(await doctor(env)).toContain('not served now: start Companion with');
  });
});
