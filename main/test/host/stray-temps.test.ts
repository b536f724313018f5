import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RuntimeFile, runtimeFilePath, writeSecondaryRuntimeFile } from '../../src/base/runtime-file.js';
import { OriginApprovals } from '../../src/host/auth/origin-approvals.js';
import { AccountCache } from '../../src/host/session/account-cache.js';
import { SafeStorageSecretStore } from '../../src/shells/electron/secret-store.js';

/** No process has this id (above any pid_max). */
const DEAD_PID = 999_999_999;
/** Alive, and not this process. */
const LIVE_PID = process.ppid;

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'companion-strays-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Leaves what an interrupted write of `file` would leave, by a dead writer and by a live one. */
async function leaveTemps(file: string, names: (base: string) => { dead: string[]; live: string[] }): Promise<{ dead: string[]; live: string[] }> {
  await mkdir(path.dirname(file), { recursive: true });
  const temps = names(path.basename(file));
  for (const name of [...temps.dead, ...temps.live]) await writeFile(path.join(path.dirname(file), name), '{"torn": ');
  return temps;
}

const atomicTemps = (base: string) => ({ dead: [`${base}.${DEAD_PID}.AbC123.tmp`, `${base}.${DEAD_PID}.x-Y_z.tmp`], live: [`${base}.${LIVE_PID}.Live01.tmp`] });

async function expectOnlyLiveLeft(file: string, temps: { dead: string[]; live: string[] }): Promise<void> {
  const left = await readdir(path.dirname(file));
  for (const name of temps.dead) expect(left).not.toContain(name);
  for (const name of temps.live) expect(left).toContain(name);
}

describe('temps of interrupted writes are removed at start (only those whose writer is gone)', () => {
  it('rpc-origins.json, when the approvals load', async () => {
    const approvals = new OriginApprovals({ dataDir: dir });
    const temps = await leaveTemps(approvals.file, atomicTemps);
    await approvals.load();
    await expectOnlyLiveLeft(approvals.file, temps);
  });

  it('account.json, when the cached account is read', async () => {
    const cache = new AccountCache(dir);
    const temps = await leaveTemps(cache.file, atomicTemps);
    expect(await cache.read()).toBeNull();
    await expectOnlyLiveLeft(cache.file, temps);
  });

  it('the host runtime file (host.json and host-N.json): temps and set-aside locks', async () => {
    const file = runtimeFilePath(dir);
    const temps = await leaveTemps(file, (base) => ({ dead: [`${base}.${DEAD_PID}.tmp`, `${base}.${DEAD_PID}.stale`], live: [`${base}.${LIVE_PID}.tmp`] }));
    const info = { pid: process.pid, version: 'test', startedAt: new Date().toISOString(), ipc: null };
    const runtime = await RuntimeFile.acquire(dir, info);
    await expectOnlyLiveLeft(file, temps);
    await runtime.release();
    const secondary = path.join(path.dirname(file), 'host-1.json');
    const more = await leaveTemps(secondary, (base) => ({ dead: [`${base}.${DEAD_PID}.tmp`], live: [] }));
    await writeSecondaryRuntimeFile(dir, 1, info);
    await expectOnlyLiveLeft(secondary, more);
  });

  it('the encrypted token file, when the token is loaded', async () => {
    const file = path.join(dir, 'platform-token.bin');
    const safeStorage = {
      isAsyncEncryptionAvailable: async () => true,
      getSelectedStorageBackend: () => 'gnome_libsecret',
      encryptStringAsync: async (plain: string) => Buffer.from(plain),
      decryptStringAsync: async (encrypted: Buffer) => ({ shouldReEncrypt: false, result: encrypted.toString() }),
    };
    const store = new SafeStorageSecretStore({ safeStorage, file, platform: 'linux', logger: { warn: vi.fn() } });
    const temps = await leaveTemps(file, atomicTemps);
    expect(await store.load()).toBeNull();
    await expectOnlyLiveLeft(file, temps);
  });
});
