import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { declaresTooLong, isLoopbackHost, loopbackHosts } from '../../../common/src/loopback-request.js';
import { closeServer } from '../../../common/src/node/close-server.js';
import { http } from '../../../common/src/node/http-module.js';
import { IdleConnectionChecks } from '../../../common/src/node/idle-connection-checks.js';
import { WebSocketServer, type WebSocket } from '../../../common/src/node/ws-module.js';
import { CloseCode } from '../protocol/codes.js';
import { validateHandshake } from '../protocol/handshake.js';
import type { ConnectionTransport, RemotePeer } from './connection-transport.js';
import type { RpcLogger } from '../protocol/rpc-logger.js';
import { lookupPeerUid, type PeerUidLookupOptions, type TcpEndpoint } from './tcp-peer-user.js';
import { closeWebSocket, WebSocketTransport } from './websocket-transport.js';

/** The real client's WebSocket (and HTTP) RPC ports, tried in order. */
export const RPC_WEBSOCKET_PORTS: readonly number[] = Array.from({ length: 10 }, (_, i) => 6463 + i);

/** The body of every plain HTTP answer: the platform API's 404 form (npm discord-rpc probes `GET /` for it). */
export const NOT_FOUND_BODY = JSON.stringify({ message: '404: Not Found', code: 0 });

/** Whether a connection's peer may use the server; `uid` when the OS told it. */
export type PeerVerdict = { readonly allowed: true; readonly uid: number | null } | { readonly allowed: false; readonly reason: string };

/** Decides a peer from its TCP endpoints (the peer's, and ours). */
export type PeerCheck = (peer: TcpEndpoint, ours: TcpEndpoint) => Promise<PeerVerdict>;

export interface WebSocketListenerOptions {
  readonly server: { attachTransport(io: ConnectionTransport): unknown; readonly maxPayload: number };
  /** Default 127.0.0.1: the transport is for this machine only. */
  readonly host?: string;
  /** Tried in order; the first free one is taken (default 6463-6472). */
  readonly ports?: readonly number[];
  /**
   * Whether a page of `origin` may connect as the application `clientId`. Asked only when the
   * request carries an Origin header (none: a local app, allowed). Default: no origin is.
   */
  readonly allowOrigin?: (origin: string, clientId: string) => boolean;
  /** Default sameUserPeerCheck(): on Linux, other OS users are refused. */
  readonly peerCheck?: PeerCheck;
  readonly logger?: RpcLogger;
}

export interface WebSocketListener {
  readonly host: string;
  readonly port: number;
  /** Stops listening and drops every connection (close them through the RPC server first). */
  close(): Promise<void>;
}

export type WebSocketListenResult = { readonly listener: WebSocketListener } | { readonly listener: null; readonly reason: string };

/** Errors that mean "try the next port". */
const PORT_UNAVAILABLE = new Set(['EADDRINUSE', 'EACCES']);

/**
 * The same-user rule for TCP peers. On Linux the peer's user id comes from the kernel's socket
 * table, and a peer of another user (or one no longer in the table) is refused. Where the OS
 * has no such table (macOS, Windows, a Linux without a readable /proc), every peer is allowed
 * with uid null: the listener is on loopback only, and the Host and Origin rules still apply.
 */
export function sameUserPeerCheck(options: PeerUidLookupOptions & { readonly uid?: number } = {}): PeerCheck {
  const ownUid = options.uid ?? process.geteuid?.();
  return async (peer, ours) => {
    if (ownUid === undefined) return { allowed: true, uid: null };
    const found = await lookupPeerUid(peer, ours, options);
    switch (found.kind) {
      case 'unsupported':
        return { allowed: true, uid: null };
      case 'not-found':
        return { allowed: false, reason: 'the peer is not in the kernel socket table' };
      case 'found':
        return found.uid === ownUid ? { allowed: true, uid: found.uid } : { allowed: false, reason: 'the peer belongs to another OS user' };
    }
  };
}

/** The `Host` values a request to this listener may carry: anything else is DNS rebinding. */
export function allowedHosts(port: number): ReadonlySet<string> {
  return loopbackHosts(port);
}

/** Plain HTTP requests carry no body worth reading: a declared one over this is refused at once. */
const MAX_PLAIN_BODY_BYTES = 64 * 1024;

/**
 * The query-string half of the handshake: `v` must be 1 (4004), `encoding` json or absent (npm
 * discord-rpc sends none; 4005 otherwise, ETF is not supported), then `client_id` as on IPC
 * (4000). Returns the refusal's close code and message, or the client id.
 */
export function checkUrlHandshake(query: URLSearchParams): { ok: true; clientId: string } | { ok: false; code: number; message: string; reason: string } {
  const v = query.get('v');
  if (v === null || v.trim() === '' || Number(v) !== 1) {
    return { ok: false, code: CloseCode.InvalidVersion, message: `Invalid Version: ${v ?? 'null'}`, reason: 'invalid version' };
  }
  const encoding = query.get('encoding');
  if (encoding !== null && encoding !== 'json') {
    return { ok: false, code: CloseCode.InvalidEncoding, message: `Invalid Encoding: ${encoding}`, reason: 'invalid encoding' };
  }
  const result = validateHandshake({ v: 1, client_id: query.get('client_id') ?? undefined });
  if (!result.ok) return { ok: false, code: result.code, message: result.message, reason: result.reason };
  return { ok: true, clientId: result.clientId };
}

/**
 * The RPC WebSocket transport on the first free port of 127.0.0.1:6463-6472.
 *
 * - Plain HTTP requests (npm discord-rpc's `GET /` probe after AUTHORIZE) get a JSON 404; a
 *   foreign `Host` gets 403, a declared body over 64 KiB 413, both without reading the body.
 * - An upgrade is refused with HTTP 403 before it happens when its `Host` is not this
 *   listener's loopback address (DNS rebinding), or when its peer is another OS user
 *   (sameUserPeerCheck); with 404 for a path other than `/`.
 * - An accepted WebSocket is closed at once with 4004 (bad `v`), 4005 (bad `encoding`), 4000
 *   (client id) or 4001 "Invalid Origin" (an Origin that `allowOrigin` refuses); else it
 *   becomes an RPC connection whose READY is the same as on IPC.
 *
 * Resolves `{listener: null, reason}` when no port is free (Discord itself may hold them).
 */
export async function listenWebSocket(options: WebSocketListenerOptions): Promise<WebSocketListenResult> {
  const host = options.host ?? '127.0.0.1';
  const ports = options.ports ?? RPC_WEBSOCKET_PORTS;
  const taken: number[] = [];
  for (const port of ports) {
    const server = http.createServer(answerPlainRequest);
    server.headersTimeout = 10_000;
    server.requestTimeout = 30_000;
    // Node's connection checks only while an HTTP connection is held (issue 27 §4: idle wake-ups).
    IdleConnectionChecks.attach(server);
    const outcome = await listen(server, host, port);
    if (outcome === 'listening') {
      const bound = (server.address() as AddressInfo).port;
      options.logger?.debug({ port: bound, skipped: taken }, 'rpc websocket listening');
      return { listener: serve(server, host, bound, options) };
    }
    if (!PORT_UNAVAILABLE.has(outcome.code ?? '')) {
      return { listener: null, reason: `cannot listen on ${host}:${port}: ${outcome.code ?? outcome.message}` };
    }
    taken.push(port);
  }
  const range = ports.length === 0 ? 'no ports given' : `${host}:${ports.join(', ')}`;
  return { listener: null, reason: `every RPC WebSocket port is taken (${range})` };
}

function serve(server: Server, host: string, port: number, options: WebSocketListenerOptions): WebSocketListener {
  const wss = new WebSocketServer({ noServer: true, maxPayload: options.server.maxPayload, perMessageDeflate: false });
  const hosts = allowedHosts(port);
  const peerCheck = options.peerCheck ?? sameUserPeerCheck();
  const allowOrigin = options.allowOrigin ?? (() => false);
  const logger = options.logger;
  /** Upgrades waiting for the peer check: the HTTP server no longer tracks their sockets. */
  const upgrading = new Set<Socket>();

  const refuse = (socket: Socket, status: 403 | 404, reason: string): void => {
    logger?.info({ status, reason }, 'rpc websocket upgrade refused');
    const body = status === 404 ? NOT_FOUND_BODY : JSON.stringify({ message: '403: Forbidden', code: 0 });
    socket.end(
      `HTTP/1.1 ${status} ${status === 404 ? 'Not Found' : 'Forbidden'}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  };

  server.on('upgrade', (request: IncomingMessage, socket: Socket, head: Buffer) => {
    socket.on('error', () => undefined);
    const url = new URL(request.url ?? '/', 'http://rpc.invalid');
    if (url.pathname !== '/') return refuse(socket, 404, 'path');
    if (!hosts.has((request.headers.host ?? '').toLowerCase())) return refuse(socket, 403, 'foreign Host header');
    const peer = { address: socket.remoteAddress ?? '', port: socket.remotePort ?? 0 };
    const ours = { address: socket.localAddress ?? host, port };
    upgrading.add(socket);
    peerCheck(peer, ours)
      .catch((): PeerVerdict => ({ allowed: false, reason: 'the peer check failed' }))
      .then((verdict) => {
        upgrading.delete(socket);
        if (socket.destroyed) return;
        if (!verdict.allowed) return refuse(socket, 403, verdict.reason);
        wss.handleUpgrade(request, socket, head, (ws) => accept(ws, request, url, { ...peer, uid: verdict.uid }));
      });
  });

  const accept = (ws: WebSocket, request: IncomingMessage, url: URL, peer: { address: string; port: number; uid: number | null }): void => {
    const handshake = checkUrlHandshake(url.searchParams);
    if (!handshake.ok) {
      logger?.info({ code: handshake.code, reason: handshake.reason }, 'rpc websocket handshake refused');
      closeWebSocket(ws, handshake.code, handshake.message);
      return;
    }
    const origin = request.headers.origin;
    if (origin !== undefined && !allowOrigin(origin, handshake.clientId)) {
      logger?.info({ code: CloseCode.InvalidOrigin, clientId: handshake.clientId }, 'rpc websocket origin refused');
      closeWebSocket(ws, CloseCode.InvalidOrigin, 'Invalid Origin');
      return;
    }
    const remote: RemotePeer = { address: peer.address, port: peer.port, origin: origin ?? null, uid: peer.uid };
    options.server.attachTransport(new WebSocketTransport(ws, remote, { v: 1, client_id: handshake.clientId }));
  };

  return {
    host,
    port,
    close: async () => {
      for (const socket of upgrading) socket.destroy();
      upgrading.clear();
      for (const ws of wss.clients) ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await closeServer(server);
    },
  };
}

function answerPlainRequest(request: IncomingMessage, response: ServerResponse): void {
  const answer = (status: number, body: string, close: boolean): void => {
    response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...(close ? { connection: 'close' } : {}) });
    response.end(body);
  };
  if (!isLoopbackHost(request.headers.host, request.socket.localPort ?? 0)) {
    return answer(403, JSON.stringify({ message: '403: Forbidden: the Host header does not name this loopback server', code: 0 }), true);
  }
  if (declaresTooLong(request.headers['content-length'], MAX_PLAIN_BODY_BYTES)) {
    return answer(413, JSON.stringify({ message: '413: Request Entity Too Large', code: 0 }), true);
  }
  request.resume();
  answer(404, NOT_FOUND_BODY, false);
}

function listen(server: Server, host: string, port: number): Promise<'listening' | NodeJS.ErrnoException> {
  return new Promise((resolve) => {
    const onError = (error: NodeJS.ErrnoException): void => {
      server.off('listening', onListening);
      resolve(error);
    };
    const onListening = (): void => {
      server.off('error', onError);
      resolve('listening');
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen({ host, port, exclusive: true });
  });
}
