import { assemble, type AssembleTls, type PlatformServer } from './assembly/assemble.js';
import { CertificateStore } from './tls/certificate-store.js';
import { RESERVED_PORTS } from './assembly/http-listener.js';
import { resolveLimits, type PlatformLimitsInput } from './support/limits.js';
import { SILENT_LOGGER, type PlatformLogger } from './support/logger.js';
import { claimDataDir, releaseDataDir } from './support/runtime-file.js';
import { Store } from './state/store.js';
import type { WebhookSleep } from './webhooks/deliverer.js';

export { DEFAULT_LIMITS, type PlatformLimits, type PlatformLimitsInput, type WindowLimit } from './support/limits.js';
export { LimitsInputError, parseLimitsInput } from './support/limits-schema.js';
export type { PlatformLogger } from './support/logger.js';
export { PlatformAdmin, type AdminApp } from './admin/admin.js';
export type { SessionInfo } from './gateway/server.js';
export { PlatformAlreadyRunningError, readRuntimeFile, runtimeFilePath, type PlatformRuntimeInfo } from './support/runtime-file.js';
export { CorruptStateError, MIGRATED_SUFFIX, STATE_DB_NAME, STATE_FILE_NAME } from './state/store.js';
export { SEED } from './state/seed.js';
export { signWebhook, verifyWebhook, type WebhookSignatureHeaders } from './webhooks/signer.js';
export type { WebhookSleep } from './webhooks/deliverer.js';
export type { AppPatch } from './admin/admin.js';
export { isJoinable, isPublicParty } from './invites/invites.js';

export { RESERVED_PORTS } from './assembly/http-listener.js';
export type { PlatformServer, PlatformTlsListener } from './assembly/assemble.js';
export { CertificateStore, TLS_DIR_NAME, tlsFiles, type CertificateStoreOptions, type ServerCredentials, type TlsFiles } from './tls/certificate-store.js';
export { AUTHORITY_NAME, trustInstructionLines, trustInstructions, type TrustInstruction } from './tls/trust-instructions.js';

export interface PlatformOptions {
  /** 0 (default) = a free port outside 6463-6472. */
  readonly port?: number;
  readonly host?: '127.0.0.1';
  /** State and runtime file; created (0700) if missing. */
  readonly dataDir: string;
  /** Unknown application ids are 404 10002 instead of registered on first use. */
  readonly strictApps?: boolean;
  readonly limits?: PlatformLimitsInput;
  /** The clock for limits, invite validity and timestamps (epoch ms). */
  readonly now?: () => number;
  readonly logger?: PlatformLogger;
  /**
   * Waits before a webhook retry (default: a real timer). Tests pass one that records the
   * delays and resolves at once.
   */
  readonly webhookSleep?: WebhookSleep;
  /**
   * Also listen with TLS (https and wss) on this port (0 = a free one outside 6463-6472), for
   * a game whose SDK only speaks TLS. The certificates are `<dataDir>/tls/`'s (made on first
   * use, reused, renewed when they expire: `CertificateStore`).
   */
  readonly tls?: { readonly port?: number };
}

function checkPort(requestedPort: number): void {
  if (!Number.isInteger(requestedPort) || requestedPort < 0 || requestedPort > 65535) throw new RangeError(`invalid port ${requestedPort}`);
  if (requestedPort >= RESERVED_PORTS.first && requestedPort <= RESERVED_PORTS.last) {
    throw new RangeError(`port ${requestedPort} is reserved for the local RPC transport (${RESERVED_PORTS.first}-${RESERVED_PORTS.last})`);
  }
}

/** The TLS listener's port and certificates (kept in the data dir, by the real clock), when asked for. */
async function tlsOf(options: PlatformOptions): Promise<AssembleTls | undefined> {
  if (options.tls === undefined) return undefined;
  const port = options.tls.port ?? 0;
  const credentials = await new CertificateStore({ dataDir: options.dataDir, now: Date.now }).credentials();
  // Paths and dates only: the keys stay in their files.
  const { files, newAuthority, newServerCertificate, serverNotAfter } = credentials;
  options.logger?.info({ caCertFile: files.caCert, newAuthority, newServerCertificate, serverNotAfter: serverNotAfter.toISOString() }, 'platform tls certificates');
  return { port, credentials };
}

export async function startPlatform(options: PlatformOptions): Promise<PlatformServer> {
  const host = options.host ?? '127.0.0.1';
  const requestedPort = options.port ?? 0;
  checkPort(requestedPort);
  checkPort(options.tls?.port ?? 0);
  const limits = resolveLimits(options.limits);
  const now = options.now ?? Date.now;
  const logger = options.logger ?? SILENT_LOGGER;
  const dataDir = options.dataDir;

  await claimDataDir(dataDir);
  let store: Store | undefined;
  try {
    const tls = await tlsOf(options);
    store = await Store.open({ dataDir, now, persistDebounceMs: limits.persistDebounceMs, messagesPerChannel: limits.messagesPerChannel, logger });
    return await assemble(store, {
      host,
      requestedPort,
      limits,
      now,
      logger,
      dataDir,
      strictApps: options.strictApps === true,
      ...(tls !== undefined ? { tls } : {}),
      ...(options.webhookSleep !== undefined ? { webhookSleep: options.webhookSleep } : {}),
    });
  } catch (error) {
    await store?.close();
    releaseDataDir(dataDir);
    throw error;
  }
}
