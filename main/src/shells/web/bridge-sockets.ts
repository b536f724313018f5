import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, WebSocket, type RawData } from '../../../../common/src/node/ws-module.js';
import type { BridgeServerMessage, BridgeWirePush, InvokeChannel, PushMessage } from '../../../../preload/src/contract.js';
import { parseClientMessage, type BridgeInvoke } from '../../../../preload/src/contract/schemas.js';
import type { ControlLogger } from '../../host/control/control-server.js';
import type { HostBridge } from '../../host/ui-bridge/bridge-backend.js';
import { splitUrl, type WebAccess } from './web-access.js';
import { deflateRawSync } from 'node:zlib';
import { BRIDGE_DEFLATE_PROTOCOL, BRIDGE_DEFLATE_THRESHOLD } from '../../../../preload/src/contract.js';

/** Bridge messages are small calls; anything bigger is refused by the WebSocket layer. */
const MAX_MESSAGE_BYTES = 64 * 1024;
const MAX_CLIENTS = 16;
const MAX_IN_FLIGHT = 32;
/** A UI that reads slower than this much backlog is dropped (it reconnects and gets a snapshot). */
const MAX_CLIENT_BACKLOG_BYTES = 8 * 1024 * 1024;
const CLOSE_GRACE_MS = 1000;
/**
 * Level 1, and a deflate state of 96 KiB (an 8 KiB window, memLevel 7) instead of zlib's 256 KiB:
 * glibc serves an allocation over 128 KiB with a fresh mmap, so every message paid for page
 * faults on a new state (seen in perf of the ui-bridge bench phase, 2026-11-25). The window
 * still spans several frames of one game, which is where the repetition is.
 */
const DEFLATE_OPTIONS = { level: 1, windowBits: 13, memLevel: 7 } as const;

/** The status an error asks for, as the control API reads it (ControlError, SocialError...). */
function errorStatus(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null || !('status' in error)) return undefined;
  const status = (error as { status: unknown }).status;
  return typeof status === 'number' && Number.isInteger(status) && status >= 400 && status <= 599 ? status : undefined;
}

function decode(data: RawData): string {
  return Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.from(data).toString('utf8');
}

/**
 * One page's WebSocket: its calls (validated by the contract's schemas, at most MAX_IN_FLIGHT
 * at a time) and, once it said `companion:ready`, the bridge's pushes.
 */
class BridgeClient {
  /** Sent `companion:ready`: pushes flow to it. */
  ready = false;
  private inFlight = 0;

  constructor(
    readonly socket: WebSocket,
    private readonly bridge: HostBridge,
    private readonly logger: ControlLogger,
    /** Sends the pushes that wait, so that a reply never overtakes a push made before it. */
    private readonly beforeReply: () => void,
  ) {}

  send(text: string): void {
    const { socket } = this;
    if (socket.readyState !== WebSocket.OPEN) return;
    if (socket.bufferedAmount > MAX_CLIENT_BACKLOG_BYTES) {
      this.logger.warn({ backlog: socket.bufferedAmount }, 'web UI: client too slow, dropped');
      socket.terminate();
      return;
    }
    if (socket.protocol === BRIDGE_DEFLATE_PROTOCOL && text.length >= BRIDGE_DEFLATE_THRESHOLD) socket.send(deflateRawSync(text, DEFLATE_OPTIONS));
    else socket.send(text);
  }

  onMessage(data: RawData, isBinary: boolean): void {
    if (isBinary) return this.reply({ id: 0, ok: false, error: 'message: binary messages are not accepted' });
    let raw: unknown;
    try {
      raw = JSON.parse(decode(data)) as unknown;
    } catch {
      return this.reply({ id: 0, ok: false, error: 'message: not valid JSON' });
    }
    const parsed = parseClientMessage(raw);
    if (!parsed.ok) return this.reply({ id: parsed.id, ok: false, error: parsed.error });
    const { message } = parsed;
    if (this.inFlight >= MAX_IN_FLIGHT) return this.reply({ id: message.id, ok: false, error: 'too many calls in flight' });
    this.inFlight += 1;
    this.invoke(message)
      .catch((error: unknown) => this.reply({ id: message.id, ok: false, error: this.publicMessage(error, message.channel) }))
      .finally(() => (this.inFlight -= 1))
      .catch(() => undefined);
  }

  private reply(message: BridgeServerMessage): void {
    this.beforeReply();
    this.send(JSON.stringify(message));
  }

  private async invoke(message: BridgeInvoke): Promise<void> {
    const call = this.bridge.invoke as (channel: InvokeChannel, args: readonly unknown[]) => Promise<unknown>;
    const result = await call.call(this.bridge, message.channel, message.args);
    // Answered and marked ready in one step: every push after it is newer than the snapshot.
    this.reply({ id: message.id, ok: true, result });
    if (message.channel === 'companion:ready') this.ready = true;
  }

  /** What the UI reads of a failure: the message of errors meant for it, never a stack. */
  private publicMessage(error: unknown, channel: string): string {
    if (errorStatus(error) !== undefined && error instanceof Error && error.message !== '') return error.message;
    this.logger.error({ channel, error: error instanceof Error ? error.name : typeof error }, 'web UI: call failed');
    return 'internal error';
  }
}

/**
 * The contract's bridge over one WebSocket per page (`/bridge`): upgrades checked like HTTP
 * requests (Host, Origin, session cookie), pushes serialised once and sent to every ready page.
 */
export class BridgeSockets {
  // Pushes are repetitive JSON (frames of one game look alike): compressed for a page that
  // offers BRIDGE_DEFLATE_PROTOCOL, each message on its own with zlib's synchronous raw DEFLATE
  // at level 1. Measured 2026-11-25 in the ui-bridge bench phase (50 SET_ACTIVITY/s, 5 friends):
  // ws's permessage-deflate cost the host about 4 ms of CPU a second for the same bytes (its
  // stream machinery per message), the synchronous call well under 1 ms.
  private readonly wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_MESSAGE_BYTES,
    clientTracking: false,
    perMessageDeflate: false,
    handleProtocols: (offered: Set<string>) => (offered.has(BRIDGE_DEFLATE_PROTOCOL) ? BRIDGE_DEFLATE_PROTOCOL : false),
  });
  private readonly clients = new Set<BridgeClient>();
  private unsubscribe: (() => void) | undefined;
  private closing = false;
  private waiting: BridgeWirePush[] = [];
  private flushTimer: NodeJS.Immediate | undefined;

  constructor(
    private readonly bridge: HostBridge,
    private readonly access: WebAccess,
    private readonly logger: ControlLogger,
  ) {}

  readonly onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    socket.on('error', () => socket.destroy());
    const refused = this.access.foreign(req);
    if (refused !== undefined) return refuseUpgrade(socket, refused.status, refused.title);
    if (splitUrl(req.url ?? '/').path !== '/bridge') return refuseUpgrade(socket, 404, 'Not Found');
    if (!this.access.hasSession(req)) return refuseUpgrade(socket, 401, 'Unauthorized');
    if (this.closing || this.clients.size >= MAX_CLIENTS) return refuseUpgrade(socket, 503, 'Service Unavailable');
    this.wss.handleUpgrade(req, socket, head, (ws) => this.onClient(ws));
  };

  /** Closes every page's socket (a grace period, then terminated) and stops the pushes. */
  async close(): Promise<void> {
    this.closing = true;
    this.detach();
    await Promise.all(
      [...this.clients].map(
        ({ socket }) =>
          new Promise<void>((resolve) => {
            if (socket.readyState === WebSocket.CLOSED) return resolve();
            socket.once('close', () => resolve());
            socket.close(1001, 'Companion is shutting down');
            setTimeout(() => socket.terminate(), CLOSE_GRACE_MS).unref();
          }),
      ),
    );
    this.wss.close();
  }

  private onClient(socket: WebSocket): void {
    const client = new BridgeClient(socket, this.bridge, this.logger, this.flushPushes);
    this.clients.add(client);
    if (this.clients.size === 1) this.attach();
    socket.on('message', (data: RawData, isBinary: boolean) => client.onMessage(data, isBinary));
    socket.on('error', () => socket.terminate());
    socket.on('close', () => {
      if (!this.clients.delete(client)) return;
      if (this.clients.size === 0) this.detach();
    });
  }

  private attach(): void {
    this.unsubscribe = this.bridge.subscribe((message) => this.onPush(message), { wants: () => !this.closing && this.anyReady() });
  }

  private detach(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }

  private anyReady(): boolean {
    for (const client of this.clients) if (client.ready) return true;
    return false;
  }

  /** Pushes wait for the end of this turn of the event loop, then go as one message. */
  private onPush(message: PushMessage): void {
    if (this.closing) return;
    this.waiting.push({ push: message.channel, payload: message.payload });
    this.flushTimer ??= setImmediate(this.flushPushes);
  }

  /**
   * The waiting pushes, serialised once, to every ready page. Measured 2026-11-25 in the
   * ui-bridge bench phase: a topic round made three pushes, sent one by one at about 150 us
   * each (serialising, compressing, a socket write).
   */
  private readonly flushPushes = (): void => {
    if (this.flushTimer !== undefined) clearImmediate(this.flushTimer);
    this.flushTimer = undefined;
    if (this.waiting.length === 0) return;
    const pushes = this.waiting;
    this.waiting = [];
    if (this.closing) return;
    const wire: BridgeServerMessage = pushes.length === 1 ? (pushes[0] as BridgeWirePush) : { pushes };
    const text = JSON.stringify(wire);
    for (const client of this.clients) if (client.ready) client.send(text);
  };
}

function refuseUpgrade(socket: Duplex, status: number, title: string): void {
  if (socket.writable) socket.end(`HTTP/1.1 ${status} ${title}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  else socket.destroy();
}
