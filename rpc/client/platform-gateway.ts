import { EventEmitter } from 'node:events';
import { WebSocket, type RawData } from '../../common/src/node/ws-module.js';
import { backoffDelay, type BackoffOptions } from './connection/backoff.js';

/**
 * The game's own gateway connection to the platform (the Social SDK's), identified with the
 * game's OAuth2 access token. An explicit state machine:
 *
 *   disconnected --start--> connecting --HELLO, IDENTIFY--> connected --READY--> ready
 *   connected/ready --drop--> reconnecting --backoff--> connecting (RESUME when it has a session)
 *   any --stop--> disconnecting --> disconnected
 *   any --close 4004 (the token is no longer accepted)--> disconnected, event `token-refused`
 *
 * Rules: heartbeats every `heartbeat_interval` from HELLO, each carrying the last seq; a
 * heartbeat not acknowledged before the next is due drops the connection (then resume). Op 7
 * drops it and resumes; op 9 `false` identifies again from scratch. A connection that stayed
 * up 30 s resets the backoff. Dispatches are emitted as `dispatch` (t, d), READY included.
 */

export type PlatformStatus = 'disconnected' | 'connecting' | 'connected' | 'ready' | 'reconnecting' | 'disconnecting';

export interface PlatformGatewayEvents {
  status: [PlatformStatus, string | null];
  dispatch: [string, unknown];
  /** Close 4004: the token is expired, revoked or lacks the gateway scopes; no reconnect. */
  'token-refused': [];
}

export interface PlatformGatewayOptions {
  /** The gateway's URL (`GET /api/v10/gateway`), without a query. */
  readonly url: () => Promise<string>;
  readonly token: () => string | null;
  readonly backoff?: BackoffOptions;
  /** A connection up this long resets the backoff. */
  readonly stableAfterMs?: number;
}

const Op = { Dispatch: 0, Heartbeat: 1, Identify: 2, Resume: 6, Reconnect: 7, InvalidSession: 9, Hello: 10, HeartbeatAck: 11 } as const;
const AUTHENTICATION_FAILED = 4004;
const STABLE_AFTER_MS = 30_000;

interface GatewayMessage {
  readonly op: number;
  readonly d?: unknown;
  readonly s?: number | null;
  readonly t?: string | null;
}

export class PlatformGateway extends EventEmitter<PlatformGatewayEvents> {
  private state: PlatformStatus = 'disconnected';
  private ws: WebSocket | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private retry: NodeJS.Timeout | undefined;
  private stable: NodeJS.Timeout | undefined;
  private acked = true;
  private seq: number | null = null;
  private sessionId: string | null = null;
  private resumeUrl: string | null = null;
  private attempt = 0;

  constructor(private readonly options: PlatformGatewayOptions) {
    super();
  }

  get status(): PlatformStatus {
    return this.state;
  }

  /** Opens the connection (no-op while one is open or opening). */
  start(): void {
    if (this.state !== 'disconnected' && this.state !== 'reconnecting') return;
    clearTimeout(this.retry);
    this.retry = undefined;
    this.setStatus('connecting');
    void this.open();
  }

  /** Closes the connection for good (the session is not kept). */
  stop(): void {
    if (this.state === 'disconnected') return;
    this.setStatus('disconnecting');
    this.teardown();
    this.ws?.close(1000);
    this.ws = undefined;
    this.sessionId = null;
    this.seq = null;
    this.attempt = 0;
    this.setStatus('disconnected');
  }

  private async open(): Promise<void> {
    let url: string;
    try {
      url = this.resumeUrl ?? (await this.options.url());
    } catch (error) {
      return this.dropped(`the gateway's address could not be had: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (this.state !== 'connecting') return;
    const ws = new WebSocket(`${url}?v=10&encoding=json`);
    this.ws = ws;
    ws.on('message', (data: RawData) => this.onMessage(ws, data));
    ws.on('close', (code: number, reason: Buffer) => this.onClose(ws, code, reason.toString()));
    ws.on('error', () => undefined); // a close follows
  }

  private onMessage(ws: WebSocket, data: RawData): void {
    if (ws !== this.ws) return;
    let message: GatewayMessage;
    try {
      message = JSON.parse(String(data)) as GatewayMessage;
    } catch {
      return;
    }
    if (typeof message.s === 'number') this.seq = message.s;
    switch (message.op) {
      case Op.Hello:
        return this.onHello(ws, message.d);
      case Op.HeartbeatAck:
        this.acked = true;
        return;
      case Op.Heartbeat:
        return this.beat(ws);
      case Op.Reconnect:
        return ws.close(4900, 'reconnect requested');
      case Op.InvalidSession:
        this.sessionId = null;
        this.seq = null;
        this.resumeUrl = null;
        return ws.close(4900, 'invalid session');
      case Op.Dispatch:
        return this.onDispatch(message.t ?? '', message.d);
    }
  }

  private onHello(ws: WebSocket, d: unknown): void {
    const interval = typeof (d as { heartbeat_interval?: unknown } | undefined)?.heartbeat_interval === 'number' ? (d as { heartbeat_interval: number }).heartbeat_interval : 41_250;
    this.acked = true;
    this.heartbeat = setInterval(() => {
      if (!this.acked) return ws.close(4901, 'heartbeat not acknowledged');
      this.beat(ws);
    }, interval);
    this.heartbeat.unref();
    const token = this.options.token();
    if (token === null) return this.stop();
    this.setStatus('connected');
    if (this.sessionId !== null) this.send(ws, Op.Resume, { token: `Bearer ${token}`, session_id: this.sessionId, seq: this.seq });
    else this.send(ws, Op.Identify, { token: `Bearer ${token}`, properties: { os: process.platform, browser: 'companion-client', device: 'companion-client' } });
  }

  private onDispatch(t: string, d: unknown): void {
    if (t === 'READY') {
      const ready = d as { session_id?: unknown; resume_gateway_url?: unknown };
      this.sessionId = typeof ready.session_id === 'string' ? ready.session_id : null;
      this.resumeUrl = typeof ready.resume_gateway_url === 'string' ? ready.resume_gateway_url : null;
    }
    if (t === 'READY' || t === 'RESUMED') this.becameReady();
    this.emit('dispatch', t, d);
  }

  private becameReady(): void {
    this.setStatus('ready');
    clearTimeout(this.stable);
    this.stable = setTimeout(() => (this.attempt = 0), this.options.stableAfterMs ?? STABLE_AFTER_MS);
    this.stable.unref();
  }

  private beat(ws: WebSocket): void {
    this.acked = false;
    this.send(ws, Op.Heartbeat, this.seq);
  }

  private send(ws: WebSocket, op: number, d: unknown): void {
    if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ op, d }));
  }

  private onClose(ws: WebSocket, code: number, reason: string): void {
    if (ws !== this.ws) return;
    this.ws = undefined;
    this.teardown();
    if (this.state === 'disconnecting' || this.state === 'disconnected') return;
    if (code === AUTHENTICATION_FAILED) {
      this.sessionId = null;
      this.setStatus('disconnected', `the platform refused the token (${code}${reason === '' ? '' : ` ${reason}`})`);
      this.emit('token-refused');
      return;
    }
    this.dropped(`closed ${code}${reason === '' ? '' : ` ${reason}`}`);
  }

  private dropped(why: string): void {
    this.setStatus('reconnecting', why);
    const delay = backoffDelay(this.attempt, this.options.backoff);
    this.attempt += 1;
    this.retry = setTimeout(() => this.start(), delay);
    this.retry.unref();
  }

  private teardown(): void {
    clearInterval(this.heartbeat);
    clearTimeout(this.stable);
    clearTimeout(this.retry);
    this.heartbeat = undefined;
    this.stable = undefined;
    this.retry = undefined;
  }

  private setStatus(status: PlatformStatus, detail: string | null = null): void {
    if (this.state === status && detail === null) return;
    this.state = status;
    this.emit('status', status, detail);
  }
}
