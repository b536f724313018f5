import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { cameOverTls, schemeOf } from '../support/tls-socket.js';
import { isForeignOrigin, isLoopbackHost, loopbackOrigins } from '../../../common/src/loopback-request.js';
import { WebSocket, WebSocketServer } from '../../../common/src/node/ws-module.js';
import { GATEWAY_CLOSE_MESSAGES, GatewayClose } from '../wire/index.js';
import { GatewayConnection } from './connection.js';
import { framesFor } from './frames.js';
import type { GatewayContext } from './context.js';

export const GATEWAY_PATH = '/gateway';
const SUPPORTED_VERSIONS: ReadonlySet<number> = new Set([9, 10]);
/** Time a closing client gets to answer our close frame when the server shuts down. */
const SHUTDOWN_GRACE_MS = 250;

export interface SessionInfo {
  readonly session_id: string;
  readonly user_id: string;
  readonly connected: boolean;
  readonly seq: number;
  readonly status: string;
  readonly activities: number;
}

/** The gateway WebSocket endpoint on the HTTP server's `/gateway` path. */
export class GatewayServer {
  private readonly wss: WebSocketServer;
  private readonly connections = new Set<GatewayConnection>();

  constructor(private readonly ctx: GatewayContext) {
    // ws refuses frames over maxPayload itself; see `refuseAs4002` for the close code.
    this.wss = new WebSocketServer({ noServer: true, maxPayload: ctx.limits.maxPayloadBytes, perMessageDeflate: false });
  }

  /**
   * Takes `upgrade` requests for the gateway path; false for other paths (caller refuses them).
   * **(ours)** An upgrade whose `Host` is not this server's loopback address (DNS rebinding), or
   * that comes from a page of another origin, is refused with 403 before it happens.
   */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): boolean {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== GATEWAY_PATH && url.pathname !== `${GATEWAY_PATH}/`) return false;
    const refused = upgradeRefusal(request);
    if (refused !== undefined) {
      this.ctx.logger.debug({ reason: refused }, 'gateway upgrade refused');
      refuseUpgrade(socket, refused);
      return true;
    }
    this.wss.handleUpgrade(request, socket, head, (ws) => this.accept(ws, url.searchParams, cameOverTls(request)));
    return true;
  }

  private accept(ws: WebSocket, params: URLSearchParams, secure: boolean): void {
    refuseAs4002(ws);
    const versionParam = params.get('v');
    const version = versionParam === null ? 10 : Number(versionParam);
    const encoding = params.get('encoding') ?? 'json';
    if (!SUPPORTED_VERSIONS.has(version)) return closeNow(ws, GatewayClose.InvalidApiVersion);
    if (encoding !== 'json') return closeNow(ws, GatewayClose.DecodeError);
    const frames = framesFor(ws, params.get('compress'));
    // **(ours)** A compression the emulator does not speak (zstd-stream) is refused, not ignored:
    // a client would read the uncompressed frames as garbage.
    if (frames === undefined) return ws.close(GatewayClose.DecodeError, 'compress: only zlib-stream is supported');
    const connection = new GatewayConnection(ws, this.ctx, version, (gone) => this.connections.delete(gone), { secure, frames });
    this.connections.add(connection);
    this.ctx.logger.debug({ connection: connection.id, v: version }, 'gateway connection opened');
    connection.start();
  }

  /** Op 7 to every connected session (or the user's); returns how many got it. */
  reconnect(userId?: string): number {
    let count = 0;
    for (const connection of this.connections) {
      if (connection.session === undefined || !connection.open) continue;
      if (userId !== undefined && connection.session.userId !== userId) continue;
      connection.requestReconnect();
      count += 1;
    }
    return count;
  }

  /**
   * A game's authorization went (revoked, or its grant removed): its own gateway sessions of that
   * user end with 4004 Authentication failed, not resumable. Returns how many.
   */
  endAuthorized(userId: string, applicationId: string): number {
    let count = 0;
    for (const connection of [...this.connections]) {
      const session = connection.session;
      if (session?.oauth === undefined || session.userId !== userId || session.oauth.applicationId !== applicationId) continue;
      connection.close(GatewayClose.AuthenticationFailed);
      this.ctx.endSession(session);
      count += 1;
    }
    return count;
  }

  /**
   * An access token went while its grant stays (a refresh replaced it): the sessions identified
   * or last resumed with it end, a connected one with 4004 Authentication failed, a detached one
   * so that it cannot be resumed. Returns how many.
   */
  endToken(tokenId: string): number {
    let count = 0;
    for (const connection of [...this.connections]) {
      const session = connection.session;
      if (session?.oauth?.tokenId !== tokenId) continue;
      connection.close(GatewayClose.AuthenticationFailed);
      this.ctx.endSession(session);
      count += 1;
    }
    for (const session of this.ctx.sessions.all()) {
      if (session.ended || session.oauth?.tokenId !== tokenId) continue;
      this.ctx.endSession(session);
      count += 1;
    }
    return count;
  }

  /** A banned account: every gateway session of the user ends (4004) and cannot come back. */
  endUser(userId: string): number {
    let count = 0;
    for (const connection of [...this.connections]) {
      const session = connection.session;
      if (session?.userId !== userId) continue;
      connection.close(GatewayClose.AuthenticationFailed);
      this.ctx.endSession(session);
      count += 1;
    }
    return count;
  }

  /** Drops every connection without a close frame; sessions stay resumable. */
  kill(): number {
    const all = [...this.connections];
    for (const connection of all) connection.terminate();
    return all.length;
  }

  sessions(): SessionInfo[] {
    return this.ctx.sessions.all().map((session) => ({
      session_id: session.id,
      user_id: session.userId,
      connected: session.transport !== undefined,
      seq: session.seq,
      status: session.presence.status,
      activities: session.presence.activities.length,
    }));
  }

  /** Closes every socket (1001, then terminated if it lingers) and forgets every session. */
  async close(): Promise<void> {
    const sockets = [...this.wss.clients];
    for (const session of this.ctx.sessions.all()) this.ctx.sessions.remove(session);
    await Promise.all(
      sockets.map(
        (ws) =>
          new Promise<void>((resolve) => {
            if (ws.readyState === WebSocket.CLOSED) return resolve();
            ws.once('close', () => resolve());
            const timer = setTimeout(() => ws.terminate(), SHUTDOWN_GRACE_MS);
            timer.unref();
            ws.once('close', () => clearTimeout(timer));
            if (ws.readyState === WebSocket.OPEN) ws.close(1001, 'Server shutting down');
            else ws.terminate();
          }),
      ),
    );
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }
}

function upgradeRefusal(request: IncomingMessage): string | undefined {
  const port = request.socket.localPort ?? 0;
  if (!isLoopbackHost(request.headers.host, port)) return 'the Host header does not name this loopback server';
  if (isForeignOrigin(request.headers.origin, loopbackOrigins(port, schemeOf(request)))) return 'requests from another origin are refused';
  return undefined;
}

function refuseUpgrade(socket: Duplex, reason: string): void {
  const body = JSON.stringify({ code: 0, message: `403: Forbidden: ${reason}` });
  socket.on('error', () => undefined);
  socket.end(`HTTP/1.1 403 Forbidden\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}

function closeNow(ws: WebSocket, code: number): void {
  ws.close(code, GATEWAY_CLOSE_MESSAGES[code] ?? '');
}

/**
 * ws closes an oversized message with 1009 and invalid UTF-8 with 1007; the gateway's code for
 * both is 4002 Decode error, so translate them on this socket's close.
 */
function refuseAs4002(ws: WebSocket): void {
  const close = ws.close.bind(ws);
  ws.close = (code?: number, reason?: string | Buffer): void => {
    if (code === 1009 || code === 1007) return close(GatewayClose.DecodeError, GATEWAY_CLOSE_MESSAGES[GatewayClose.DecodeError]);
    return close(code, reason);
  };
}
