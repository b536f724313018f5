import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { closeServer } from '../../../../common/src/node/close-server.js';
import { WebSocketServer, WebSocket, type RawData } from '../../../../common/src/node/ws-module.js';
import type { BridgeServerMessage, InvokeChannel, PushChannel, PushChannels } from '../../../../preload/src/contract.js';
import type { RpcServer } from '../../../../rpc/src/index.js';
import { listenOutsideReserved, type ControlLogger } from '../../host/control/control-server.js';
import { parseClientMessage, type BridgeInvoke } from '../../host/ui-bridge/bridge-schemas.js';
import type { PushMessage } from '../../host/ui-bridge/bridge-port.js';
import {
  createBridgeBackend,
  FRAMES_INTERVAL_MS,
  SNAPSHOT_INTERVAL_MS,
  type WebUiBackend,
  type WebUiSettings,
} from '../../host/ui-bridge/bridge-backend.js';
import type { FrameLinter, FrameLog } from '../../host/ui-bridge/frame-log.js';
import { contentType, defaultRendererDir, findIndex, resolveStatic } from './static-files.js';

export type { WebUiBackend, WebUiSettings } from '../../host/ui-bridge/bridge-backend.js';

export interface WebUiOptions {
  readonly backend: WebUiBackend;
  /** Where frames come from (the inspector); listened to only while a UI is connected. */
  readonly server: Pick<RpcServer, 'on' | 'off'>;
  /** The built renderer; default `<repo>/out/renderer`. Looked at on every request (it may be built later). */
  readonly rendererDir?: string;
  readonly logger?: ControlLogger;
  readonly settings: WebUiSettings;
  /** Lints for the inspector's SET_ACTIVITY frames. */
  readonly lint?: FrameLinter;
  /** Default 32 random bytes, base64url. */
  readonly token?: string;
  /** Minimum time between two snapshot pushes (default 100 ms). */
  readonly snapshotIntervalMs?: number;
  /** Minimum time between two frame batches (default 50 ms). */
  readonly framesIntervalMs?: number;
  /** The inspector's ring (default a new one). */
  readonly frameLog?: FrameLog;
}

export interface WebUi {
  /** `http://127.0.0.1:PORT/?token=...`: what the user opens (once: the token becomes a cookie). */
  readonly url: string;
  /** `http://127.0.0.1:PORT/`, without the token. */
  readonly baseUrl: string;
  readonly port: number;
  readonly token: string;
  /** The session cookie's name, `companion_ui_<port>`. */
  readonly cookieName: string;
  close(): Promise<void>;
}

export { FRAMES_INTERVAL_MS, SNAPSHOT_INTERVAL_MS };
/** Bridge messages are small calls; anything bigger is refused by the WebSocket layer. */
const MAX_MESSAGE_BYTES = 64 * 1024;
const MAX_CLIENTS = 16;
const MAX_IN_FLIGHT = 32;
/** A UI that reads slower than this much backlog is dropped (it reconnects and gets a snapshot). */
const MAX_CLIENT_BACKLOG_BYTES = 8 * 1024 * 1024;
const CLOSE_GRACE_MS = 1000;

const silentLogger: ControlLogger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** Constant-time comparison of a presented secret with the digest of the real one. */
function matches(given: string, expected: Buffer): boolean {
  return timingSafeEqual(digest(given), expected);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>` +
    `<body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(body)}</p></body></html>\n`;
}

/** The status an error asks for, as the control API reads it (ControlError, SocialError...). */
function errorStatus(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null || !('status' in error)) return undefined;
  const status = (error as { status: unknown }).status;
  return typeof status === 'number' && Number.isInteger(status) && status >= 400 && status <= 599 ? status : undefined;
}

function splitUrl(raw: string): { readonly path: string; readonly query: URLSearchParams } {
  const q = raw.indexOf('?');
  return q === -1 ? { path: raw, query: new URLSearchParams() } : { path: raw.slice(0, q), query: new URLSearchParams(raw.slice(q + 1)) };
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

interface Client {
  readonly socket: WebSocket;
  /** Sent `companion:ready`: pushes flow to it. */
  ready: boolean;
  /** The newest frame it has (in its ready snapshot or a batch): batches send only newer ones. */
  lastSeq: number;
  inFlight: number;
}

/**
 * The headless host's UI: serves the built renderer on loopback, and the contract's bridge
 * over one WebSocket per page (`/bridge`). Access needs the token, once, in the URL; it
 * becomes an HttpOnly, SameSite=Strict cookie named after the port. Requests for another
 * `Host` (DNS rebinding) or from another `Origin` are refused, the WebSocket upgrade too.
 */
export async function startWebUi(options: WebUiOptions): Promise<WebUi> {
  const { backend, settings } = options;
  const logger = options.logger ?? silentLogger;
  const rendererDir = options.rendererDir ?? defaultRendererDir();
  const token = options.token ?? randomBytes(32).toString('base64url');
  if (token.length < 16 || !/^[A-Za-z0-9_.~-]+$/.test(token)) throw new Error('the web UI token needs at least 16 URL-safe characters');
  const tokenDigest = digest(token);
  // The cookie carries its own random value, not the URL token.
  const session = randomBytes(32).toString('base64url');
  const sessionDigest = digest(session);

  const bridge = createBridgeBackend({
    backend,
    server: options.server,
    settings,
    logger,
    ...(options.frameLog === undefined ? {} : { frameLog: options.frameLog }),
    ...(options.lint === undefined ? {} : { lint: options.lint }),
    snapshotIntervalMs: options.snapshotIntervalMs ?? SNAPSHOT_INTERVAL_MS,
    framesIntervalMs: options.framesIntervalMs ?? FRAMES_INTERVAL_MS,
  });
  const clients = new Set<Client>();
  let readyClients = 0;
  let closing = false;

  // ---- HTTP

  let port = 0;
  let cookieName = '';
  let allowedHosts: ReadonlySet<string> = new Set();
  let securityHeaders: Readonly<Record<string, string>> = {};

  /** Why a request (or upgrade) must be refused before anything else, or undefined. */
  function foreign(req: IncomingMessage): { status: number; title: string } | undefined {
    const host = req.headers.host?.toLowerCase();
    if (host === undefined || !allowedHosts.has(host)) return { status: 421, title: 'Misdirected Request' };
    const origin = req.headers.origin;
    if (origin !== undefined && origin.toLowerCase() !== `http://${host}`) return { status: 403, title: 'Forbidden' };
    return undefined;
  }

  function hasSession(req: IncomingMessage): boolean {
    const value = cookieValue(req.headers.cookie, cookieName);
    return value !== undefined && matches(value, sessionDigest);
  }

  function sendPage(res: ServerResponse, req: IncomingMessage, status: number, title: string, text: string, headers: Readonly<Record<string, string>> = {}): void {
    const body = page(title, text);
    res.writeHead(status, {
      ...securityHeaders,
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Length': Buffer.byteLength(body),
      'Cache-Control': 'no-store',
      ...headers,
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  async function sendFile(res: ServerResponse, req: IncomingMessage, file: string, size: number): Promise<void> {
    res.writeHead(200, {
      ...securityHeaders,
      'Content-Type': contentType(file),
      'Content-Length': size,
      'Cache-Control': 'no-cache',
    });
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    await pipeline(createReadStream(file), res);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const refused = foreign(req);
    if (refused !== undefined) {
      sendPage(res, req, refused.status, refused.title, 'This request is not for the Companion UI on this address.');
      return;
    }
    const raw = req.url ?? '/';
    if (!raw.startsWith('/')) {
      sendPage(res, req, 400, 'Bad Request', 'Bad request target.');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendPage(res, req, 405, 'Method Not Allowed', 'Only GET and HEAD are served here.', { Allow: 'GET, HEAD' });
      return;
    }
    const { path: rawPath, query } = splitUrl(raw);
    const given = query.get('token');
    if (given !== null) {
      if (!matches(given, tokenDigest)) {
        sendPage(res, req, 401, 'Unauthorized', 'Wrong token. Open the URL that companion serve printed, or the one in its runtime file.');
        return;
      }
      // The token leaves the address bar (and the history) at once; the cookie takes over.
      res.writeHead(302, {
        ...securityHeaders,
        Location: '/',
        'Set-Cookie': `${cookieName}=${session}; HttpOnly; SameSite=Strict; Path=/`,
        'Cache-Control': 'no-store',
        'Content-Length': 0,
      });
      res.end();
      return;
    }
    if (!hasSession(req)) {
      sendPage(res, req, 401, 'Unauthorized', 'Open the URL with the token that companion serve printed (also in its runtime file).');
      return;
    }
    if (rawPath === '/bridge') {
      sendPage(res, req, 426, 'Upgrade Required', 'The bridge speaks WebSocket only.', { Upgrade: 'websocket' });
      return;
    }
    const built = await findIndex(rendererDir);
    if (built === null) {
      sendPage(
        res,
        req,
        503,
        'The Companion UI is not built',
        `No index.html in ${rendererDir}. Build the UI with "npx vite build --config renderer/vite.config.ts" ` +
          'in the project folder, then reload this page.',
      );
      return;
    }
    const resolved = await resolveStatic(built.root, rawPath);
    if (resolved.kind === 'bad') {
      sendPage(res, req, 400, 'Bad Request', 'Bad path.');
      return;
    }
    if (resolved.kind === 'file') {
      await sendFile(res, req, resolved.file, resolved.size);
      return;
    }
    if (!resolved.spa) {
      sendPage(res, req, 404, 'Not Found', 'No such file.');
      return;
    }
    const index = await resolveStatic(built.root, '/index.html');
    if (index.kind !== 'file') {
      sendPage(res, req, 404, 'Not Found', 'No such file.');
      return;
    }
    await sendFile(res, req, index.file, index.size);
  }

  function onRequest(req: IncomingMessage, res: ServerResponse): void {
    const started = Date.now();
    handle(req, res)
      .catch((error: unknown) => {
        logger.error({ error: error instanceof Error ? error.name : typeof error }, 'web UI: request failed');
        if (res.headersSent) res.destroy();
        else sendPage(res, req, 500, 'Internal Server Error', 'The request failed.');
      })
      .finally(() => {
        // Never the path or the query: the first request carries the token.
        logger.debug({ method: req.method, status: res.statusCode, ms: Date.now() - started }, 'web UI request');
      })
      .catch(() => undefined);
  }

  // ---- WebSocket bridge

  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES, clientTracking: false });

  function refuseUpgrade(socket: Duplex, status: number, title: string): void {
    if (socket.writable) socket.end(`HTTP/1.1 ${status} ${title}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    else socket.destroy();
  }

  function onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', () => socket.destroy());
    const refused = foreign(req);
    if (refused !== undefined) return refuseUpgrade(socket, refused.status, refused.title);
    if (splitUrl(req.url ?? '/').path !== '/bridge') return refuseUpgrade(socket, 404, 'Not Found');
    if (!hasSession(req)) return refuseUpgrade(socket, 401, 'Unauthorized');
    if (closing) return refuseUpgrade(socket, 503, 'Service Unavailable');
    if (clients.size >= MAX_CLIENTS) return refuseUpgrade(socket, 503, 'Service Unavailable');
    wss.handleUpgrade(req, socket, head, (ws) => onClient(ws));
  }

  function send(client: Client, text: string): void {
    const { socket } = client;
    if (socket.readyState !== WebSocket.OPEN) return;
    if (socket.bufferedAmount > MAX_CLIENT_BACKLOG_BYTES) {
      logger.warn({ backlog: socket.bufferedAmount }, 'web UI: client too slow, dropped');
      socket.terminate();
      return;
    }
    socket.send(text);
  }

  function reply(client: Client, message: BridgeServerMessage): void {
    send(client, JSON.stringify(message));
  }

  function pushText<C extends PushChannel>(channel: C, payload: PushChannels[C]): string {
    const message: BridgeServerMessage = { push: channel, payload };
    return JSON.stringify(message);
  }

  function onClient(socket: WebSocket): void {
    const client: Client = { socket, ready: false, lastSeq: 0, inFlight: 0 };
    clients.add(client);
    if (clients.size === 1) attachSources();
    socket.on('message', (data: RawData, isBinary: boolean) => onMessage(client, data, isBinary));
    socket.on('error', () => socket.terminate());
    socket.on('close', () => {
      if (!clients.delete(client)) return;
      if (client.ready) readyClients -= 1;
      if (clients.size === 0) detachSources();
    });
  }

  function onMessage(client: Client, data: RawData, isBinary: boolean): void {
    if (isBinary) {
      reply(client, { id: 0, ok: false, error: 'message: binary messages are not accepted' });
      return;
    }
    let raw: unknown;
    try {
      const text = Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.from(data).toString('utf8');
      raw = JSON.parse(text) as unknown;
    } catch {
      reply(client, { id: 0, ok: false, error: 'message: not valid JSON' });
      return;
    }
    const parsed = parseClientMessage(raw);
    if (!parsed.ok) {
      reply(client, { id: parsed.id, ok: false, error: parsed.error });
      return;
    }
    const { message } = parsed;
    if (client.inFlight >= MAX_IN_FLIGHT) {
      reply(client, { id: message.id, ok: false, error: 'too many calls in flight' });
      return;
    }
    client.inFlight += 1;
    invoke(client, message)
      .catch((error: unknown) => reply(client, { id: message.id, ok: false, error: publicMessage(error, message.channel) }))
      .finally(() => (client.inFlight -= 1))
      .catch(() => undefined);
  }

  /** What the UI reads of a failure: the message of errors meant for it, never a stack. */
  function publicMessage(error: unknown, channel: string): string {
    if (errorStatus(error) !== undefined && error instanceof Error && error.message !== '') return error.message;
    logger.error({ channel, error: error instanceof Error ? error.name : typeof error }, 'web UI: call failed');
    return 'internal error';
  }

  async function invoke(client: Client, message: BridgeInvoke): Promise<void> {
    if (message.channel === 'companion:ready') {
      const snapshot = await bridge.invoke('companion:ready', []);
      // Answered and marked ready in one step: no push can come between.
      reply(client, { id: message.id, ok: true, result: snapshot });
      if (!client.ready) readyClients += 1;
      client.ready = true;
      client.lastSeq = Math.max(client.lastSeq, snapshot.frames.at(-1)?.seq ?? 0);
      return;
    }
    const call = bridge.invoke as (channel: InvokeChannel, args: readonly unknown[]) => Promise<unknown>;
    const result = await call(message.channel, message.args);
    reply(client, { id: message.id, ok: true, result });
  }

  // ---- pushes (built by the bridge backend; here only who gets what)

  function onPush(message: PushMessage): void {
    if (closing) return;
    if (message.channel === 'companion:snapshot') {
      const text = pushText('companion:snapshot', message.payload);
      for (const client of clients) if (client.ready) send(client, text);
      return;
    }
    const batch = message.payload;
    const first = batch[0];
    const last = batch.at(-1);
    if (first === undefined || last === undefined) return;
    let whole: string | undefined;
    for (const client of clients) {
      if (!client.ready || client.lastSeq >= last.seq) continue;
      if (client.lastSeq < first.seq) {
        whole ??= pushText('companion:frames', batch);
        send(client, whole);
      } else {
        send(client, pushText('companion:frames', batch.filter((frame) => frame.seq > client.lastSeq)));
      }
      client.lastSeq = last.seq;
    }
  }

  let unsubscribe: (() => void) | undefined;
  function attachSources(): void {
    unsubscribe = bridge.subscribe(onPush, { wants: () => readyClients > 0 && !closing });
  }

  function detachSources(): void {
    unsubscribe?.();
    unsubscribe = undefined;
  }

  // ---- listening

  const listening = await listenOutsideReserved(async () => {
    const server = createServer(onRequest);
    server.headersTimeout = 10_000;
    server.requestTimeout = 30_000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    return { server, port: (server.address() as AddressInfo).port, close: () => closeServer(server) };
  });
  const { server } = listening;
  port = listening.port;
  cookieName = `companion_ui_${port}`;
  allowedHosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  securityHeaders = {
    'Content-Security-Policy':
      `default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: https:; ` +
      `connect-src 'self' ws://127.0.0.1:${port} ws://localhost:${port}; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'`,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'X-Frame-Options': 'DENY',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
  };
  server.on('upgrade', onUpgrade);
  server.on('clientError', (_error, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    else socket.destroy();
  });
  logger.info({ port }, 'web UI listening');

  const baseUrl = `http://127.0.0.1:${port}/`;
  let closed: Promise<void> | undefined;
  return {
    url: `${baseUrl}?token=${token}`,
    baseUrl,
    port,
    token,
    cookieName,
    close() {
      closed ??= (async () => {
        closing = true;
        detachSources();
        bridge.close();
        await Promise.all(
          [...clients].map(
            ({ socket }) =>
              new Promise<void>((resolve) => {
                if (socket.readyState === WebSocket.CLOSED) return resolve();
                socket.once('close', () => resolve());
                socket.close(1001, 'Companion is shutting down');
                setTimeout(() => socket.terminate(), CLOSE_GRACE_MS).unref();
              }),
          ),
        );
        wss.close();
        await closeServer(server);
      })();
      return closed;
    },
  };
}
