import { EventEmitter } from 'node:events';
import { WebSocket, type RawData } from '../../common/src/node/ws-module.js';
import { backoffDelay, type BackoffOptions } from './connection/backoff.js';
import { check } from './wire/check.js';
import { checkDispatch, FrameSchema, GatewayUrlSchema, HelloSchema, isHandledDispatch, type GatewayFrame, type PlatformDispatch } from './wire/gateway.js';

/**
 * The game's own gateway connection to the platform (the Social SDK's), identified with the
 * game's OAuth2 access token. An explicit state machine:
 *
 *   disconnected --start--> connecting --HELLO, IDENTIFY--> connected --READY--> ready
 *   connected/ready --drop--> reconnecting --backoff--> connecting (RESUME when it has a session)
 *   any --stop--> disconnecting --> disconnected
 *   any --close 4004 (the token is no longer accepted)--> disconnected, event `token-refused`
 *
 * Rules: heartbeats every `heartbeat_interval` from HELLO (clamped to 1-60 s), each carrying
 * the last seq; a heartbeat not acknowledged before the next is due drops the connection (then
 * resume). One Identify (or Resume) per connection: a later Hello on it is ignored. Op 7 drops
 * it and resumes; op 9 `false` identifies again from scratch. A connection that stayed up 30 s
 * resets the backoff.
 *
 * Everything the platform sends is checked against the schemas of wire/gateway.ts first. A
 * frame or dispatch that does not match is logged (its event and what was wrong, never its
 * values) and dropped; the connection stays up. A malformed Hello or READY, or a gateway
 * address that is not a ws:/wss: URL, fails the connection: it backs off and tries again, and
 * the status `reconnecting` says why. Checked dispatches the SDK handles are emitted as
 * `dispatch`, READY included; others are ignored.
 */

export type PlatformStatus = 'disconnected' | 'connecting' | 'connected' | 'ready' | 'reconnecting' | 'disconnecting';

export interface PlatformGatewayEvents {
  status: [PlatformStatus, string | null];
  dispatch: [PlatformDispatch];
  /** Close 4004: the token is expired, revoked or lacks the gateway scopes; no reconnect. */
  'token-refused': [];
}

/** Where the gateway client reports what it dropped or ignored (the Client's logger fits). */
export interface GatewayLog {
  warning(message: string, fields?: Readonly<Record<string, unknown>>): void;
  verbose(message: string, fields?: Readonly<Record<string, unknown>>): void;
}

export interface PlatformGatewayOptions {
  /** The gateway's URL (`GET /api/v10/gateway`), without a query. */
  readonly url: () => Promise<string>;
  readonly token: () => string | null;
  readonly backoff?: BackoffOptions;
  /** A connection up this long resets the backoff. */
  readonly stableAfterMs?: number;
  readonly log?: GatewayLog;
}

const Op = { Dispatch: 0, Heartbeat: 1, Identify: 2, PresenceUpdate: 3, Resume: 6, Reconnect: 7, InvalidSession: 9, Hello: 10, HeartbeatAck: 11 } as const;
const AUTHENTICATION_FAILED = 4004;
const STABLE_AFTER_MS = 30_000;
/** The heartbeat interval Hello may set, clamped **(ours: the real gateway sends 41 250 ms)**. */
export const HEARTBEAT_INTERVAL_RANGE_MS = { min: 1_000, max: 60_000 } as const;
/** The close code of a connection the client gives up on because of what the platform sent **(ours)**. */
const MALFORMED_CLOSE = 4902;

const SILENT: GatewayLog = { warning: () => undefined, verbose: () => undefined };

export function clampHeartbeatInterval(ms: number): number {
  return Math.min(HEARTBEAT_INTERVAL_RANGE_MS.max, Math.max(HEARTBEAT_INTERVAL_RANGE_MS.min, ms));
}

/** `<url>?v=10&encoding=json`, or why the address cannot be connected to. */
function connectUrl(url: unknown): { ok: true; url: string } | { ok: false; problem: string } {
  const checked = check(GatewayUrlSchema, url);
  if (!checked.ok) return { ok: false, problem: `the gateway's address is invalid (${checked.problem})` };
  const target = new URL(checked.value);
  target.hash = '';
  target.searchParams.set('v', '10');
  target.searchParams.set('encoding', 'json');
  return { ok: true, url: target.toString() };
}

export class PlatformGateway extends EventEmitter<PlatformGatewayEvents> {
  private state: PlatformStatus = 'disconnected';
  private ws: WebSocket | undefined;
  /** This connection sent Identify or Resume (on its first Hello). */
  private greeted = false;
  private heartbeat: NodeJS.Timeout | undefined;
  private retry: NodeJS.Timeout | undefined;
  private stable: NodeJS.Timeout | undefined;
  private acked = true;
  private seq: number | null = null;
  private sessionId: string | null = null;
  private resumeUrl: string | null = null;
  private attempt = 0;
  /** The session's presence (op 3) once the game set one: sent again in each new Identify. */
  private presence: Readonly<Record<string, unknown>> | null = null;
  private readonly log: GatewayLog;

  constructor(private readonly options: PlatformGatewayOptions) {
    super();
    this.log = options.log ?? SILENT;
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

  /**
   * The session's presence (op 3 `{since, activities, status, afk}`): sent now when the
   * session is ready, and in the Identify of every later connection. Whether it was sent now.
   */
  updatePresence(presence: Readonly<Record<string, unknown>>): boolean {
    this.presence = presence;
    if ((this.state !== 'ready' && this.state !== 'connected') || this.ws === undefined) return false;
    this.send(this.ws, Op.PresenceUpdate, presence);
    return true;
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
    let url: unknown;
    try {
      url = this.resumeUrl ?? (await this.options.url());
    } catch (error) {
      return this.dropped(`the gateway's address could not be had: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (this.state !== 'connecting') return;
    const target = connectUrl(url);
    if (!target.ok) {
      this.resumeUrl = null;
      return this.dropped(target.problem);
    }
    let ws: WebSocket;
    try {
      ws = new WebSocket(target.url);
    } catch (error) {
      this.resumeUrl = null;
      return this.dropped(`the gateway could not be opened: ${error instanceof Error ? error.message : String(error)}`);
    }
    this.ws = ws;
    this.greeted = false;
    ws.on('message', (data: RawData) => this.onMessage(ws, data));
    ws.on('close', (code: number, reason: Buffer) => this.onClose(ws, code, reason.toString()));
    ws.on('error', () => undefined); // a close follows
  }

  private onMessage(ws: WebSocket, data: RawData): void {
    if (ws !== this.ws) return;
    const message = this.frameOf(data);
    if (message === undefined) return;
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
        this.forgetSession();
        return ws.close(4900, 'invalid session');
      case Op.Dispatch:
        return this.onDispatch(ws, message.t ?? null, message.d);
      default:
        this.log.verbose('platform gateway: unknown opcode ignored', { op: message.op });
    }
  }

  /** The frame, checked; undefined (logged) for one that is not JSON or not a gateway message. */
  private frameOf(data: RawData): GatewayFrame | undefined {
    let json: unknown;
    try {
      json = JSON.parse(String(data));
    } catch {
      this.log.warning('platform gateway: malformed frame dropped', { problem: 'not JSON' });
      return undefined;
    }
    const frame = check(FrameSchema, json);
    if (frame.ok) return frame.value;
    this.log.warning('platform gateway: malformed frame dropped', { problem: frame.problem });
    return undefined;
  }

  private onHello(ws: WebSocket, d: unknown): void {
    if (this.greeted) {
      this.log.warning('platform gateway: a repeated Hello on the connection ignored (it identified already)');
      return;
    }
    const hello = check(HelloSchema, d);
    if (!hello.ok) return this.fail(ws, `malformed Hello (${hello.problem})`);
    this.greeted = true;
    const interval = clampHeartbeatInterval(hello.value.heartbeat_interval);
    this.acked = true;
    clearInterval(this.heartbeat);
    this.heartbeat = setInterval(() => {
      if (!this.acked) return ws.close(4901, 'heartbeat not acknowledged');
      this.beat(ws);
    }, interval);
    this.heartbeat.unref();
    const token = this.options.token();
    if (token === null) return this.stop();
    this.setStatus('connected');
    if (this.sessionId !== null) this.send(ws, Op.Resume, { token: `Bearer ${token}`, session_id: this.sessionId, seq: this.seq });
    else this.send(ws, Op.Identify, { token: `Bearer ${token}`, properties: { os: process.platform, browser: 'companion-client', device: 'companion-client' }, ...(this.presence === null ? {} : { presence: this.presence }) });
  }

  private onDispatch(ws: WebSocket, t: string | null, d: unknown): void {
    if (t === null) {
      this.log.warning('platform gateway: malformed frame dropped', { problem: 't: a dispatch without an event name' });
      return;
    }
    if (!isHandledDispatch(t)) {
      this.log.verbose('platform gateway: dispatch not handled', { event: t });
      return;
    }
    const checked = checkDispatch(t, d);
    if (!checked.ok) {
      if (t === 'READY') return this.fail(ws, `malformed READY (${checked.problem})`);
      this.log.warning('platform gateway: malformed dispatch dropped', { event: t, problem: checked.problem });
      return;
    }
    const dispatch = checked.value;
    if (dispatch.t === 'READY') {
      this.sessionId = dispatch.d.session_id;
      this.resumeUrl = dispatch.d.resume_gateway_url;
    }
    if (dispatch.t === 'READY' || dispatch.t === 'RESUMED') this.becameReady();
    this.emit('dispatch', dispatch);
  }

  /** The platform sent what the connection cannot go on with: it is closed, and tried again after the backoff (identifying afresh). */
  private fail(ws: WebSocket, why: string): void {
    this.log.warning('platform gateway: connection failed', { problem: why });
    this.ws = undefined;
    this.teardown();
    this.forgetSession();
    ws.close(MALFORMED_CLOSE, 'malformed payload');
    this.dropped(why);
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
    // An address that never said Hello is not tried again: the next attempt asks for the gateway's.
    if (!this.greeted) this.resumeUrl = null;
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

  private forgetSession(): void {
    this.sessionId = null;
    this.seq = null;
    this.resumeUrl = null;
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
