import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { encryptionRefusal, MemorySecretStore, SafeStorageSecretStore, type SafeStorageLike } from '../../../src/shells/electron/secret-store.js';

function fakeSafeStorage(available: boolean, backend?: string): SafeStorageLike & { encrypted: number; rotated: boolean } {
  const fake = {
    encrypted: 0,
    /** What decryptStringAsync says of the key (true: rotated, encrypt again). */
    rotated: false,
    isAsyncEncryptionAvailable: async () => available,
    encryptStringAsync: async (plain: string) => {
      fake.encrypted++;
      return Buffer.from(`enc:${Buffer.from(plain).toString('base64')}`);
    },
    decryptStringAsync: async (encrypted: Buffer) => {
      const text = encrypted.toString();
      if (!text.startsWith('enc:')) throw new Error('cannot decrypt');
      return { shouldReEncrypt: fake.rotated, result: Buffer.from(text.slice(4), 'base64').toString() };
    },
    ...(backend === undefined ? {} : { getSelectedStorageBackend: () => backend }),
  };
  return fake;
}

describe('SecretStore', () => {
  let dir: string;
  let file: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'companion-secret-'));
    file = path.join(dir, 'nested', 'platform-token.bin');
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('encrypts to a 0600 file and reads it back', async () => {
    const safe = fakeSafeStorage(true, 'gnome_libsecret');
    const store = new SafeStorageSecretStore({ safeStorage: safe, file, platform: 'linux', logger: { warn: vi.fn() } });
    expect(await store.persistent()).toBe(true);
    await store.save('tok-123');
    expect(safe.encrypted).toBe(1);
    expect(await readFile(file, 'utf8')).not.toContain('tok-123');
    if (process.platform !== 'win32') expect((await stat(file)).mode & 0o777).toBe(0o600);
    const again = new SafeStorageSecretStore({ safeStorage: safe, file, platform: 'linux', logger: { warn: vi.fn() } });
    expect(await again.load()).toBe('tok-123');
    await again.clear();
    expect(await again.load()).toBeNull();
    await expect(stat(file)).rejects.toThrow();
  });

  it.each([
    ['the Linux basic_text backend', fakeSafeStorage(true, 'basic_text'), 'linux' as const],
    ['an unknown Linux backend', fakeSafeStorage(true), 'linux' as const],
    ['unavailable encryption', fakeSafeStorage(false), 'darwin' as const],
    ['unavailable encryption on Linux', fakeSafeStorage(false, 'gnome_libsecret'), 'linux' as const],
  ])('refuses to write with %s: memory only, one warning', async (_name, safe, platform) => {
    const logger = { warn: vi.fn() };
    const store = new SafeStorageSecretStore({ safeStorage: safe, file, platform, logger });
    expect(await store.persistent()).toBe(false);
    await store.save('tok-1');
    await store.save('tok-2');
    expect(await store.load()).toBe('tok-2');
    expect(safe.encrypted).toBe(0);
    await expect(stat(file)).rejects.toThrow();
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(JSON.stringify(logger.warn.mock.calls)).not.toContain('tok-');
    await store.clear();
    expect(await store.load()).toBeNull();
  });

  it('the basic_text check is Linux only; macOS and Windows trust isAsyncEncryptionAvailable', async () => {
    expect(await encryptionRefusal(fakeSafeStorage(true), 'darwin')).toBeNull();
    expect(await encryptionRefusal(fakeSafeStorage(true), 'win32')).toBeNull();
    expect(await encryptionRefusal(fakeSafeStorage(true, 'kwallet5'), 'linux')).toBeNull();
    expect(await encryptionRefusal(fakeSafeStorage(true, 'basic_text'), 'linux')).toMatch(/basic_text/);
  });

  it('encrypts the token again when the key was rotated', async () => {
    const safe = fakeSafeStorage(true, 'gnome_libsecret');
    const store = new SafeStorageSecretStore({ safeStorage: safe, file, platform: 'linux', logger: { warn: vi.fn() } });
    await store.save('tok-rotated');
    safe.rotated = true;
    expect(await store.load()).toBe('tok-rotated');
    expect(safe.encrypted).toBe(2);
    safe.rotated = false;
    expect(await store.load()).toBe('tok-rotated');
    expect(safe.encrypted).toBe(2);
  });

  it('answers null (with a warning) for a file it cannot decrypt', async () => {
    const safe = fakeSafeStorage(true, 'kwallet');
    const logger = { warn: vi.fn() };
    const store = new SafeStorageSecretStore({ safeStorage: safe, file, platform: 'linux', logger });
    await store.save('tok');
    const other = new SafeStorageSecretStore({
      safeStorage: { ...safe, decryptStringAsync: async () => { throw new Error('wrong key'); } },
      file,
      platform: 'linux',
      logger,
    });
    expect(await other.load()).toBeNull();
    expect(logger.warn).toHaveBeenCalledTimes(1);
  });

  it('has an in-memory store for tests', async () => {
    const store = new MemorySecretStore();
    expect(await store.persistent()).toBe(false);
    expect(await store.load()).toBeNull();
    await store.save('x');
    expect(await store.load()).toBe('x');
    await store.clear();
    expect(await store.load()).toBeNull();
  });
});
