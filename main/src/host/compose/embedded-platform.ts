import path from 'node:path';
import type { RpcLogger } from '../../../../rpc/src/index.js';
import type { PlatformLimitsInput } from '../../../../platform/src/support/limits.js';
import type { PlatformTlsListener } from '../../../../platform/src/index.js';
import { httpRequest } from '../../base/http-request.js';

export interface EmbeddedPlatform {
  readonly url: string;
  readonly adminToken: string;
  /** The demo user the host signs in as by default. */
  readonly firstUsername: string;
  /** Another host's embedded emulator for the same data dir, used instead of starting a second one. */
  readonly shared: boolean;
  /** Its TLS listener for native games, when asked for (and not shared). */
  readonly tls?: PlatformTlsListener;
  close(): Promise<void>;
}

export interface EmbeddedPlatformOptions {
  /** The host's data directory; the emulator keeps its state in `<dataDir>/platform`. */
  readonly dataDir: string;
  readonly strictApps: boolean;
  readonly logger: RpcLogger;
  readonly limits?: PlatformLimitsInput;
  readonly tls?: { readonly port?: number };
}

/**
 * Starts the platform emulator inside the host process. The module is imported only here,
 * so a host pointed at another platform with --platform never loads it.
 */
export async function startEmbeddedPlatform(options: EmbeddedPlatformOptions): Promise<EmbeddedPlatform> {
  const { startPlatform, PlatformAlreadyRunningError, readRuntimeFile } = await import('../../../../platform/src/index.js');
  const dataDir = path.join(options.dataDir, 'platform');
  try {
    const platform = await startPlatform({
      port: 0,
      dataDir,
      strictApps: options.strictApps,
      logger: options.logger,
      ...(options.limits === undefined ? {} : { limits: options.limits }),
      ...(options.tls === undefined ? {} : { tls: options.tls }),
    });
    return {
      url: platform.url,
      ...(platform.tls === undefined ? {} : { tls: platform.tls }),
      adminToken: platform.adminToken,
      firstUsername: platform.users()[0]?.username ?? 'alice',
      shared: false,
      close: () => platform.close(),
    };
  } catch (error) {
    // A second host (--allow-second) with the same data dir: one emulator owns the state, so
    // use the running one rather than fail.
    if (!(error instanceof PlatformAlreadyRunningError)) throw error;
    const running = await readRuntimeFile(dataDir);
    if (running === undefined) throw error;
    if (options.strictApps) options.logger.warn({}, '--strict-apps has no effect: another host runs this data directory\'s emulator');
    if (options.tls !== undefined) options.logger.warn({ tlsUrl: running.tlsUrl }, '--platform-tls has no effect: another host runs this data directory\'s emulator');
    const firstUsername = await firstUserOf(running.url, running.adminToken);
    return { url: running.url, adminToken: running.adminToken, firstUsername, shared: true, close: async () => undefined };
  }
}

/** The first user of a running emulator, through its admin API (the default account). */
async function firstUserOf(url: string, adminToken: string): Promise<string> {
  try {
    const response = await httpRequest(`${url}/_emulator/users`, { method: 'GET', headers: { Authorization: `Admin ${adminToken}` }, timeoutMs: 5000 });
    const users = JSON.parse(response.text) as unknown;
    const list = Array.isArray(users) ? users : (users as { users?: unknown }).users;
    const first = Array.isArray(list) ? (list[0] as { username?: unknown } | undefined) : undefined;
    if (typeof first?.username === 'string') return first.username;
  } catch {
    // fall through to the seeded default
  }
  return 'alice';
}
