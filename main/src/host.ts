import { mkdir } from 'node:fs/promises';
import {
  assertSocketPathsFit,
  listenIpc,
  resolveIpcPrefix,
  RpcServer,
  type Env,
  type ResolvedPrefix,
  type RpcLogger,
  type SlotReport,
} from '../../rpc/src/index.js';
import { DEFAULT_READY_CONFIG, localUser, placeholderApplicationName } from './local-identity.js';
import { RuntimeFile } from './runtime-file.js';

export interface HostOptions {
  readonly env: Env;
  /** `--runtime-dir`: where the sockets and the runtime file go, instead of the env's choice. */
  readonly runtimeDir?: string | undefined;
  /** Run beside another Companion for the same directory, on the next free index. */
  readonly allowSecond: boolean;
  readonly username: string;
  readonly version: string;
  readonly logger: RpcLogger;
}

export interface Host {
  readonly prefix: ResolvedPrefix;
  readonly ipcPath: string;
  readonly ipcIndex: number;
  /** What each discord-ipc-N looked like before binding. */
  readonly slots: readonly SlotReport[];
  /** The runtime file, or null for a second host started with --allow-second. */
  readonly runtimeFile: string | null;
  readonly server: RpcServer;
  close(): Promise<void>;
}

/**
 * Composes the headless host: RPC server on the first free discord-ipc-N, plus the runtime
 * file that marks this host as running. Electron's shell (later) wraps the same host.
 */
export async function startHost(options: HostOptions): Promise<Host> {
  const prefix = resolveIpcPrefix(options.env, options.runtimeDir);
  assertSocketPathsFit(prefix.dir);
  await mkdir(prefix.dir, { recursive: true, mode: 0o700 });

  const startedAt = new Date().toISOString();
  const runtime = options.allowSecond
    ? null
    : await RuntimeFile.acquire(prefix.dir, { pid: process.pid, version: options.version, startedAt, ipc: null });

  const user = localUser(options.username);
  const server = new RpcServer({
    identity: () => ({ user, config: DEFAULT_READY_CONFIG }),
    applicationName: placeholderApplicationName,
    logger: options.logger,
  });

  let listener;
  try {
    listener = await listenIpc({ dir: prefix.dir, onConnection: (socket) => server.attach(socket) });
    await runtime?.update({
      pid: process.pid,
      version: options.version,
      startedAt,
      ipc: { path: listener.path, index: listener.index },
    });
  } catch (error) {
    await listener?.close();
    await runtime?.release();
    throw error;
  }
  const bound = listener;

  let closing: Promise<void> | undefined;
  return {
    prefix,
    ipcPath: bound.path,
    ipcIndex: bound.index,
    slots: bound.slots,
    runtimeFile: runtime?.file ?? null,
    server,
    close() {
      closing ??= (async () => {
        // Stop accepting first, so no client can arrive between the two steps.
        const listenerClosed = bound.close();
        await server.closeAll();
        await listenerClosed;
        await runtime?.release();
      })();
      return closing;
    },
  };
}
