import { mkdir, readFile, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { removeStrayTemps, writeFileAtomic, writerGone } from '../../../../common/src/node/atomic-file.js';

/**
 * Where the player's platform token lives. Main only: the token is
 * never part of a push or an invoke result. The safeStorage-backed store writes the
 * encrypted token to a 0600 file; when the OS cannot encrypt (no keyring, or Linux's
 * `basic_text` fallback that only obfuscates), it refuses to write and keeps the token in
 * memory for this run, with a warning.
 */
export interface SecretStore {
  save(token: string): Promise<void>;
  /** The token, or null when none is stored (or it cannot be decrypted). */
  load(): Promise<string | null>;
  clear(): Promise<void>;
  /** False while tokens only live in memory (they are lost when the app quits). */
  persistent(): Promise<boolean>;
}

/**
 * The parts of Electron's `safeStorage` used: its asynchronous API (Electron 45 deprecates
 * `isEncryptionAvailable`, `encryptString` and `decryptString`; a file written by
 * `encryptString` is read by `decryptStringAsync`).
 */
export interface SafeStorageLike {
  isAsyncEncryptionAvailable(): Promise<boolean>;
  encryptStringAsync(plainText: string): Promise<Buffer>;
  /** `shouldReEncrypt`: the key was rotated (or a better one is available); encrypt the result again. */
  decryptStringAsync(encrypted: Buffer): Promise<{ shouldReEncrypt: boolean; result: string }>;
  /** Linux only: 'basic_text', 'gnome_libsecret', 'kwallet', ... */
  getSelectedStorageBackend?(): string;
}

export interface SecretStoreLogger {
  warn(fields: Record<string, unknown>, message: string): void;
}

export class MemorySecretStore implements SecretStore {
  private token: string | null = null;

  async persistent(): Promise<boolean> {
    return false;
  }

  async save(token: string): Promise<void> {
    this.token = token;
  }

  async load(): Promise<string | null> {
    return this.token;
  }

  async clear(): Promise<void> {
    this.token = null;
  }
}

export interface SafeStorageSecretStoreOptions {
  readonly safeStorage: SafeStorageLike;
  /** The encrypted token's file (in the app's data directory). */
  readonly file: string;
  /** `process.platform`; the backend check applies on Linux only. */
  readonly platform: NodeJS.Platform;
  readonly logger: SecretStoreLogger;
}

/** Why the OS store cannot be used, or null when it can. */
export async function encryptionRefusal(safeStorage: SafeStorageLike, platform: NodeJS.Platform): Promise<string | null> {
  if (!(await safeStorage.isAsyncEncryptionAvailable())) return 'encryption is not available on this system';
  if (platform === 'linux') {
    const backend = safeStorage.getSelectedStorageBackend?.() ?? 'unknown';
    if (backend === 'basic_text' || backend === 'unknown') return `the Linux secret backend is ${backend} (no keyring)`;
  }
  return null;
}

export class SafeStorageSecretStore implements SecretStore {
  private readonly memory = new MemorySecretStore();
  private warned = false;

  constructor(private readonly options: SafeStorageSecretStoreOptions) {}

  async persistent(): Promise<boolean> {
    return (await encryptionRefusal(this.options.safeStorage, this.options.platform)) === null;
  }

  private async refusal(): Promise<string | null> {
    const reason = await encryptionRefusal(this.options.safeStorage, this.options.platform);
    if (reason !== null && !this.warned) {
      this.warned = true;
      this.options.logger.warn({ reason }, 'the platform token is kept in memory only (you will sign in again next time)');
    }
    return reason;
  }

  async save(token: string): Promise<void> {
    if ((await this.refusal()) !== null) {
      await this.memory.save(token);
      return;
    }
    const encrypted = await this.options.safeStorage.encryptStringAsync(token);
    const { file } = this.options;
    await mkdir(dirname(file), { recursive: true, mode: 0o700 });
    await writeFileAtomic(file, encrypted);
    await this.memory.clear();
  }

  async load(): Promise<string | null> {
    if ((await this.refusal()) !== null) return this.memory.load();
    // An interrupted save leaves its temp (an encrypted token) beside the file: removed at start.
    await removeStrayTemps(this.options.file, writerGone);
    let encrypted: Buffer;
    try {
      encrypted = await readFile(this.options.file);
    } catch {
      return this.memory.load();
    }
    let decrypted: { shouldReEncrypt: boolean; result: string };
    try {
      decrypted = await this.options.safeStorage.decryptStringAsync(encrypted);
    } catch {
      this.options.logger.warn({ file: this.options.file }, 'the stored platform token cannot be decrypted; sign in again');
      return null;
    }
    // Written again with the current key; the token read is good either way.
    if (decrypted.shouldReEncrypt) await this.save(decrypted.result).catch(() => this.options.logger.warn({ file: this.options.file }, 'the platform token could not be encrypted again'));
    return decrypted.result;
  }

  async clear(): Promise<void> {
    await this.memory.clear();
    await rm(this.options.file, { force: true });
  }
}
