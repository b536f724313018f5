import { listenIpcDirectories, StaleSocketSweeper, type IpcListenerSet, type RpcServer } from '../../../../rpc/src/index.js';
import type { Socket } from 'node:net';
import type { WebSocketListener } from '../../../../rpc/src/transport/websocket-listener.js';
import type { OriginApprovals } from '../auth/origin-approvals.js';
import type { HostOptions, HostTuning } from './host-options.js';
import { hostIpcDirectories } from './ipc-directories.js';
import { startRpcWebSocket } from './rpc-websocket.js';
import { once, type Teardown } from './teardown.js';

/** Where games reach the host: the RPC WebSocket (when on and a port was free) and the discord-ipc sockets. */
export interface Listening {
  readonly webSocket: WebSocketListener | null;
  readonly ipc: IpcListenerSet;
  /** Stops accepting on the sockets; once, however often it is called. */
  readonly closeIpc: () => Promise<void>;
}

/** Starts accepting games: last of all, once everything a game can ask for is there. */
export async function startListening(
  options: HostOptions,
  tuning: HostTuning,
  parts: { server: RpcServer; origins: OriginApprovals; guiTempDir: string | undefined },
  teardown: Teardown,
): Promise<Listening> {
  const { server } = parts;
  const webSocket =
    options.listen?.rpcWebSocket === false
      ? null
      : await startRpcWebSocket({
          server,
          approvals: parts.origins,
          logger: options.logger,
          ...(tuning.rpcWebSocketPorts === undefined ? {} : { ports: tuning.rpcWebSocketPorts }),
          ...(tuning.rpcWebSocketPeerCheck === undefined ? {} : { peerCheck: tuning.rpcWebSocketPeerCheck }),
        });
  if (webSocket !== null) teardown.add(() => webSocket.close());
  const ipc = await ipcListeners(options, server, parts.guiTempDir);
  const closeIpc = once(() => ipc.close());
  teardown.add(closeIpc);
  // A discord-ipc-N beside the host's that stops answering later is removed too (stale-socket-sweeper.ts).
  // Windows' named pipes leave nothing behind.
  if (process.platform === 'win32') return { webSocket, ipc, closeIpc };
  const sweeper = StaleSocketSweeper.start({
    dirs: ipc.listeners.map((placed) => placed.directory.dir),
    own: ipc.listeners.map((placed) => placed.listener.path),
    onRemoved: (socketPath) => options.logger.info({ path: socketPath }, 'removed a stale socket (nobody listens on it)'),
  });
  teardown.add(() => sweeper.close());
  return { webSocket, ipc, closeIpc };
}

/**
 * The discord-ipc listeners: those bound when `serve` started (their waiting connections
 * served now, in arrival order), else bound here, or adopted from systemd.
 */
async function ipcListeners(options: HostOptions, server: RpcServer, guiTempDir: string | undefined): Promise<IpcListenerSet> {
  const attach = (socket: Socket): void => void server.attach(socket);
  const bound = options.boundAtStart;
  if (bound !== undefined) {
    bound.pending.serve(attach);
    return bound.ipc;
  }
  const adopted = options.listen?.adoptedSockets;
  return listenIpcDirectories({ directories: hostIpcDirectories(options, guiTempDir), onConnection: attach, ...(adopted === undefined ? {} : { adopted }) });
}
