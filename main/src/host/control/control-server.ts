import { randomBytes } from 'node:crypto';
import { closeServer } from '../../../../common/src/node/close-server.js';
import { listenLoopbackHttp } from '../../../../common/src/node/loopback-http.js';
import type { ControlBackend } from './control-backend.js';
import { ControlHttp } from './control-http.js';
import { routes, type ControlRouteEntry } from './control-routes.js';
import { EventStreams } from './event-streams.js';
import { originRoutes, type OriginControl } from './origin-routes.js';
import { presenceRoutes, type PresenceControl } from './presence-routes.js';

export type { ControlRouteEntry, Handler, RequestContext } from './control-routes.js';

/** Same shape as the host's pino logger and the RPC server's logger. */
export interface ControlLogger {
  debug(fields: object, message: string): void;
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

export interface ControlServerOptions {
  readonly backend: ControlBackend;
  /** Bearer token clients must send; default 32 random bytes, base64url. */
  readonly token?: string;
  readonly logger?: ControlLogger;
  /** A loopback address (default 127.0.0.1); anything else is refused. */
  readonly host?: string;
  /** Comment line on idle event streams (default 15 s), so proxies and clients see a live stream. */
  readonly heartbeatMs?: number;
  /** Request body limit in bytes (default 64 KiB). */
  readonly maxBodyBytes?: number;
  /** Routes a front end adds (QA mode mounts `/v1/inject/...` here); absent: none. */
  readonly extraRoutes?: readonly ControlRouteEntry[];
  /** Web origins of the RPC WebSocket (`/v1/origin-requests`, `/v1/origins`); absent: those routes do not exist. */
  readonly origins?: OriginControl;
  /** Presence arbitration, privacy and relay outcomes (`/v1/presence`); absent: those routes do not exist. */
  readonly presence?: PresenceControl;
}

export interface ControlServer {
  /** `http://127.0.0.1:PORT`, without the token. */
  readonly url: string;
  readonly port: number;
  readonly token: string;
  close(): Promise<void>;
}

/** The local RPC's WebSocket ports: clients probe them, so nothing else of ours may sit there. */
export const RPC_PORT_RANGE = { first: 6463, last: 6472 } as const;
export const MAX_BODY_BYTES = 64 * 1024;
export const SSE_HEARTBEAT_MS = 15_000;
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '::1', 'localhost']);

export function isReservedPort(port: number): boolean {
  return port >= RPC_PORT_RANGE.first && port <= RPC_PORT_RANGE.last;
}

export interface Listening {
  readonly port: number;
  close(): Promise<void>;
}

/**
 * Listens on an OS-chosen port outside the RPC range. A listener that got a reserved port is
 * kept open until a good one is found, so the OS cannot hand the same port back, then closed.
 */
export async function listenOutsideReserved<T extends Listening>(listen: () => Promise<T>, attempts = 16): Promise<T> {
  const rejected: T[] = [];
  try {
    for (let attempt = 0; attempt < attempts; attempt++) {
      const listening = await listen();
      if (!isReservedPort(listening.port)) return listening;
      rejected.push(listening);
    }
    throw new Error(`no port outside ${RPC_PORT_RANGE.first}-${RPC_PORT_RANGE.last} after ${attempts} attempts`);
  } finally {
    await Promise.all(rejected.map((listening) => listening.close()));
  }
}

const silentLogger: ControlLogger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

/**
 * Starts the control API: JSON over HTTP on loopback, every request authenticated with
 * `Authorization: Bearer <token>` (ControlHttp), the routes' table (control-routes.ts), event
 * streams (EventStreams). It serves the UI and QA tools; the host's state is reached only
 * through `backend`.
 */
export async function startControlServer(options: ControlServerOptions): Promise<ControlServer> {
  const host = options.host ?? '127.0.0.1';
  if (!LOOPBACK_HOSTS.has(host)) throw new Error('the control API listens on loopback only');
  const token = options.token ?? randomBytes(32).toString('base64url');
  if (token.length < 16 || /\s/.test(token)) throw new Error('the control token needs at least 16 characters and no spaces');
  const logger = options.logger ?? silentLogger;
  const table = routes(options.backend, [
    ...(options.extraRoutes ?? []),
    ...(options.origins === undefined ? [] : originRoutes(options.origins)),
    ...(options.presence === undefined ? [] : presenceRoutes(options.presence)),
  ]);
  const streams = new EventStreams(options.backend, logger, options.heartbeatMs ?? SSE_HEARTBEAT_MS);
  const http = new ControlHttp(token, table, streams, logger, options.maxBodyBytes ?? MAX_BODY_BYTES);
  const { server, port } = await listenOutsideReserved(() => listenLoopbackHttp(host));
  server.on('request', http.onRequest);
  const urlHost = host.includes(':') ? `[${host}]` : host;
  logger.info({ port }, 'control API listening');
  return {
    url: `http://${urlHost}:${port}`,
    port,
    token,
    close: async () => {
      streams.stopAll();
      await closeServer(server);
    },
  };
}
