import type { RpcLogger, RpcServer } from '../../../../rpc/src/index.js';
import { listenWebSocket, type PeerCheck, type WebSocketListener } from '../../../../rpc/src/transport/websocket-listener.js';
import type { ApplicationDirectory } from './application-directory.js';
import { OriginApprovals } from '../auth/origin-approvals.js';

export interface OriginApprovalsSetup {
  readonly dataDir: string;
  /** The platform the host uses: its web origin is trusted like the real platform's pages. */
  readonly platformUrl: string;
  readonly apps: Pick<ApplicationDirectory, 'resolve'>;
  readonly logger: RpcLogger;
}

/** The host's OriginApprovals, loaded from the data dir; `warning` when the file had to be set aside. */
export async function loadOriginApprovals(setup: OriginApprovalsSetup): Promise<{ approvals: OriginApprovals; warning: string | null }> {
  const approvals = new OriginApprovals({
    dataDir: setup.dataDir,
    trustedOrigins: [new URL(setup.platformUrl).origin],
    applicationName: async (clientId) => {
      const app = await setup.apps.resolve(clientId);
      return app === null ? null : app.name;
    },
    logger: setup.logger,
  });
  const { warning } = await approvals.load();
  return { approvals, warning };
}

export interface RpcWebSocketOptions {
  readonly server: RpcServer;
  readonly approvals: OriginApprovals;
  /** Default 6463-6472; tests pass their own. */
  readonly ports?: readonly number[];
  /** Default: other OS users refused (Linux), see sameUserPeerCheck. */
  readonly peerCheck?: PeerCheck;
  readonly logger: RpcLogger;
}

/**
 * The RPC WebSocket transport on the first free port of 127.0.0.1:6463-6472, with the host's
 * origin approvals; null (logged) when every port is taken.
 */
export async function startRpcWebSocket(options: RpcWebSocketOptions): Promise<WebSocketListener | null> {
  const { approvals } = options;
  const started = await listenWebSocket({
    server: options.server,
    allowOrigin: (origin, clientId) => approvals.allows(origin, clientId),
    logger: options.logger,
    ...(options.ports === undefined ? {} : { ports: options.ports }),
    ...(options.peerCheck === undefined ? {} : { peerCheck: options.peerCheck }),
  });
  if (started.listener === null) {
    options.logger.warn(
      { reason: started.reason },
      'no free port in 127.0.0.1:6463-6472 for the RPC WebSocket; WebSocket clients cannot connect and npm discord-rpc logins will report an error',
    );
    return null;
  }
  options.logger.info({ port: started.listener.port }, 'rpc websocket listening');
  return started.listener;
}
