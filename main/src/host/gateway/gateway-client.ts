import { EventEmitter } from 'node:events';
import { WebSocket, type RawData } from '../../../../common/src/node/ws-module.js';
import {
  GatewayEvent,
  GatewayOp,
  type GatewayPayload,
  type IdentifyCommand,
  type PresenceUpdateCommand,
  type ReadyEvent,
  type ResumeCommand,
} from '../../../../platform/src/wire/index.js';
import { Backoff, clampUnit, DEFAULT_BACKOFF, type BackoffOptions } from './backoff.js';
import { closeAction, fatalCloseDetail } from './close-codes.js';
import { Heartbeat } from './heartbeat.js';
import { DEFAULT_SEND_BUDGET, SendBudget, type SendBudgetOptions } from './send-budget.js';

export type GatewayStatus = 'idle' | 'connecting' | 'ready' | 'reconnecting' | 'stopped';

/** pino-compatible: fields first, message second. */
export interface GatewayLogger {
  debug(fields: object, message: string): void;
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

export interface ConnectionProperties {
  readonly os: string;
  readonly browser: string;
  readonly device: string;
}

export interface GatewayClientOptions {
  /** Gateway base URL, e.g. `ws://127.0.0.1:PORT/gateway` (query parameters are added). */
  readonly url: string;
  readonly token: string;
  readonly properties?: ConnectionProperties;
  /** The presence sent with every Identify (so a new session starts with the current one). */
  readonly initialPresence?: () => PresenceUpdateCommand;
  readonly logger?: GatewayLogger;
  /** Jitter source in [0, 1) for heartbeats, backoff and the invalid-session wait. */
  readonly random?: () => number;
  readonly backoff?: BackoffOptions;
  /** Wait before re-identifying after op 9 `false` (the platform suggests 1-5 s). */
  readonly invalidSessionDelay?: { readonly minMs: number; readonly maxMs: number };
  readonly handshakeTimeoutMs?: number;
  readonly helloTimeoutMs?: number;
  readonly readyTimeoutMs?: number;
  readonly sendBudget?: SendBudgetOptions;
  readonly now?: () => number;
  /** Fault injection on the connection (QA mode installs one; a product host has none). */
  readonly faults?: GatewayFaultPort;
}

/** One connection as a fault port sees it: what a network fault can do to it. */
export interface GatewayLink {
  readonly id: number;
  /** Whether the socket is open (a fault needs an open socket). */
  isOpen(): boolean;
  /** Destroys the socket without a close frame, as a network loss would. */
  terminate(): void;
  /** Stops reading from the socket. */
  pause(): void;
  /** Reads again; sends refused meanwhile get their 'drain' (current connection only). */
  resume(): void;
}

/**
 * A fault switch on the client's connections. The client tells it about every connection it
 * makes and ends, and asks it before each send whether the link is stalled.
 */
export interface GatewayFaultPort {
  attach(link: GatewayLink): void;
  detach(link: GatewayLink): void;
  /** While true the link carries nothing: sends are refused and heartbeats are lost. */
  isStalled(link: GatewayLink): boolean;
}

export interface RetryInfo {
  /** Retries since the last READY/RESUMED (1 for the first). */
  readonly attempt: number;
  readonly delayMs: number;
  /** Whether the next connection resumes the session (else it identifies). */
  readonly resume: boolean;
  readonly reason: string;
}

export interface GatewayClientEvents {
  status: [status: GatewayStatus, detail: string];
  /** A new session (READY data). */
  ready: [ready: ReadyEvent];
  /** The session was resumed; the missed dispatches were emitted before this. */
  resumed: [];
  /** Every dispatch, READY and RESUMED included, after the client's own handling. */
  dispatch: [t: string, d: unknown, s: number | null];
  /** A reconnect was scheduled. */
  retry: [info: RetryInfo];
  /**
   * A send was refused (not connected, or over the send budget) and sending may work now.
   * Refused sends are not queued: the caller re-sends its latest state on 'drain'.
   */
  drain: [];
}

/** Client payloads above this are closed with 4002 by the platform. */
export const MAX_CLIENT_PAYLOAD_BYTES = 4096;

/** Close code for closes that keep the session resumable (any code but 1000/1001 does). */
const RESUMABLE_CLOSE_CODE = 4200;
/** How long stop() waits for the close handshake before dropping the socket. */
const STOP_CLOSE_TIMEOUT_MS = 2000;

const INTERNAL_OPS: ReadonlySet<number> = new Set([GatewayOp.Heartbeat, GatewayOp.Identify, GatewayOp.Resume]);

const NOOP_LOGGER: GatewayLogger = { debug() {}, info() {}, warn() {}, error() {} };

type Plan = 'identify' | 'resume';
type Timer = ReturnType<typeof setTimeout>;

/** One WebSocket and what belongs to it; a reconnect makes a new one. */
interface Connection {
  readonly id: number;
  readonly ws: WebSocket;
  readonly plan: Plan;
  /** Whether this connection went to the session's resume URL (to fall back if it fails). */
  readonly toResumeUrl: boolean;
  readonly budget: SendBudget;
  readonly startedAt: number;
  opened: boolean;
  /** READY or RESUMED arrived on this connection. */
  established: boolean;
  heartbeat: Heartbeat | undefined;
  helloTimer: Timer | undefined;
  readyTimer: Timer | undefined;
  /** The error code (e.g. ECONNREFUSED) of a failed connect, for the status detail. */
  errorCode: string | undefined;
  /** What the fault port (if any) sees of this connection. */
  readonly link: GatewayLink;
}

interface Session {
  readonly id: string;
  readonly resumeUrl: string;
}

/**
 * The host's client of the platform gateway: identifies, keeps the heartbeat, resumes after
 * drops and re-identifies when the session is gone, never exceeding the send limit.
 *
 * Logs carry only ops, event names, seqs, close codes, error codes and durations: Identify and
 * Resume carry the token and presences carry join secrets, so no payload is ever logged.
 */
export class GatewayClient extends EventEmitter<GatewayClientEvents> {
  private readonly logger: GatewayLogger;
  private readonly random: () => number;
  private readonly now: () => number;
  private readonly backoff: Backoff;
  private readonly properties: ConnectionProperties;
  private conn: Connection | undefined;
  private nextConnectionId = 1;
  private retryTimer: Timer | undefined;
  private drainTimer: Timer | undefined;
  private session: Session | undefined;
  private seq: number | null = null;
  private ready_: ReadyEvent | undefined;
  /** A session was ready since start(): later outages are 'reconnecting', not 'connecting'. */
  private wasReady = false;
  /** The resume URL failed to connect: resume through the base URL until the next READY. */
  private resumeUrlFailed = false;
  /** A send was refused since the last 'drain'. */
  private refused = false;
  private status_: GatewayStatus = 'idle';
  private detail_ = '';

  constructor(private readonly options: GatewayClientOptions) {
    super();
    this.logger = options.logger ?? NOOP_LOGGER;
    this.random = options.random ?? Math.random;
    this.now = options.now ?? Date.now;
    this.backoff = new Backoff(options.backoff ?? DEFAULT_BACKOFF, this.random);
    this.properties = options.properties ?? { os: process.platform, browser: 'Companion', device: '' };
  }

  get status(): GatewayStatus {
    return this.status_;
  }

  /** Why the client is in its status, for the UI (never contains secrets). */
  get statusDetail(): string {
    return this.detail_;
  }

  get sessionId(): string | undefined {
    return this.session?.id;
  }

  /** The READY data of the current session. */
  get lastReady(): ReadyEvent | undefined {
    return this.ready_;
  }

  /** The last seq received (what a Resume or heartbeat sends). */
  get lastSeq(): number | null {
    return this.seq;
  }

  /** Round trip of the last acknowledged heartbeat (ms). */
  get latencyMs(): number | undefined {
    return this.conn?.heartbeat?.latencyMs;
  }

  /** Connects; from 'idle' or 'stopped' only (a stopped client starts a new session). */
  start(): void {
    if (this.status_ !== 'idle' && this.status_ !== 'stopped') return;
    this.backoff.reset();
    this.forgetSession();
    this.wasReady = false;
    this.resumeUrlFailed = false;
    this.setStatus('connecting', 'connecting to the platform');
    this.connect();
  }

  /** Ends the session (close 1000: the user goes offline) and stops reconnecting. */
  async stop(): Promise<void> {
    this.clearTimers();
    const conn = this.conn;
    this.conn = undefined;
    this.forgetSession();
    this.setStatus('stopped', 'stopped');
    if (conn === undefined) return;
    this.teardown(conn);
    this.logger.info({ code: 1000 }, 'gateway closing');
    await closeAndWait(conn.ws, 1000);
  }

  /**
   * Sends a Presence Update (op 3). Returns false when there is no ready session or the send
   * budget is spent; the update is then dropped and 'drain' follows when sending may work.
   */
  updatePresence(presence: PresenceUpdateCommand): boolean {
    return this.send(GatewayOp.PresenceUpdate, presence);
  }

  /**
   * Sends a command (op 3, 4, 8, 31, 43...) on the ready session within the send budget, with
   * the same false/'drain' contract as updatePresence. Heartbeat, Identify and Resume belong
   * to the client and are refused with a TypeError.
   */
  send(op: number, d: unknown): boolean {
    if (INTERNAL_OPS.has(op)) throw new TypeError(`op ${op} is sent by the gateway client itself`);
    const conn = this.conn;
    if (conn === undefined || !conn.established || this.status_ !== 'ready' || conn.ws.readyState !== WebSocket.OPEN || this.stalled(conn)) {
      this.refused = true;
      return false;
    }
    const text = JSON.stringify({ op, d });
    const bytes = Buffer.byteLength(text);
    if (bytes > MAX_CLIENT_PAYLOAD_BYTES) {
      // The platform would close the connection (4002) for it; refusing keeps the session.
      this.logger.warn({ op, bytes }, 'gateway payload too large; not sent');
      return false;
    }
    if (!conn.budget.tryTake(false)) {
      if (!this.refused) this.logger.debug({ op }, 'gateway send budget spent; refusing sends');
      this.refused = true;
      this.scheduleDrain(conn);
      return false;
    }
    conn.ws.send(text);
    return true;
  }

  // --- connection lifecycle -------------------------------------------------------------

  private connect(): void {
    this.retryTimer = undefined;
    this.setStatus(this.wasReady ? 'reconnecting' : 'connecting', 'connecting to the platform');
    const session = this.session;
    const plan: Plan = session === undefined ? 'identify' : 'resume';
    const toResumeUrl = session !== undefined && !this.resumeUrlFailed;
    const base = toResumeUrl ? session.resumeUrl : this.options.url;
    let ws: WebSocket;
    try {
      ws = new WebSocket(withGatewayQuery(base), { handshakeTimeout: this.options.handshakeTimeoutMs ?? 30_000 });
    } catch {
      if (toResumeUrl) {
        this.resumeUrlFailed = true;
        this.scheduleReconnect('the resume URL is invalid');
        return;
      }
      this.fail('the gateway URL is invalid');
      return;
    }
    const id = this.nextConnectionId++;
    const conn: Connection = {
      id,
      ws,
      plan,
      toResumeUrl,
      budget: new SendBudget(this.options.sendBudget ?? DEFAULT_SEND_BUDGET, this.now),
      startedAt: this.now(),
      opened: false,
      established: false,
      heartbeat: undefined,
      helloTimer: undefined,
      readyTimer: undefined,
      errorCode: undefined,
      link: {
        id,
        isOpen: () => ws.readyState === WebSocket.OPEN,
        terminate: () => ws.terminate(),
        pause: () => ws.pause(),
        resume: () => {
          if (conn !== this.conn) return;
          ws.resume();
          if (conn.established) this.emitDrainIfRefused();
        },
      },
    };
    this.conn = conn;
    this.options.faults?.attach(conn.link);
    this.logger.debug({ connection: conn.id, resume: plan === 'resume' }, 'gateway connecting');
    ws.on('open', () => this.guard(conn, () => this.onOpen(conn)));
    ws.on('message', (data, isBinary) => this.guard(conn, () => this.onMessage(conn, data, isBinary)));
    ws.on('error', (error: NodeJS.ErrnoException) => {
      // Only the code: messages can quote URLs and server text.
      conn.errorCode = typeof error.code === 'string' ? error.code : 'ERROR';
    });
    ws.on('close', (code) => this.guard(conn, () => this.onClose(conn, code)));
  }

  /** Runs a socket handler for the current connection only; a throwing listener is logged. */
  private guard(conn: Connection, handler: () => void): void {
    if (conn !== this.conn) return;
    try {
      handler();
    } catch (error) {
      this.logger.error({ connection: conn.id, error: errorName(error) }, 'gateway handler failed');
    }
  }

  private onOpen(conn: Connection): void {
    conn.opened = true;
    conn.budget.reset();
    this.logger.debug({ connection: conn.id, ms: this.now() - conn.startedAt }, 'gateway connected');
    conn.helloTimer = setTimeout(() => {
      this.drop(conn, 'no Hello from the platform', 'keep');
    }, this.options.helloTimeoutMs ?? 60_000);
  }

  private onMessage(conn: Connection, data: RawData, isBinary: boolean): void {
    if (isBinary) {
      this.logger.warn({ connection: conn.id }, 'gateway sent a binary frame; ignored');
      return;
    }
    let payload: GatewayPayload;
    try {
      payload = JSON.parse(rawText(data)) as GatewayPayload;
    } catch {
      this.logger.warn({ connection: conn.id }, 'gateway sent invalid JSON; ignored');
      return;
    }
    if (typeof payload !== 'object' || payload === null || typeof payload.op !== 'number') {
      this.logger.warn({ connection: conn.id }, 'gateway sent a payload without op; ignored');
      return;
    }
    switch (payload.op) {
      case GatewayOp.Dispatch:
        this.onDispatch(conn, payload);
        return;
      case GatewayOp.Hello:
        this.onHello(conn, payload.d);
        return;
      case GatewayOp.HeartbeatAck:
        conn.heartbeat?.ack();
        return;
      case GatewayOp.Heartbeat:
        this.logger.debug({ op: payload.op }, 'gateway asked for a heartbeat');
        if (conn.heartbeat !== undefined) conn.heartbeat.beatNow();
        else this.sendCritical(conn, GatewayOp.Heartbeat, this.seq);
        return;
      case GatewayOp.Reconnect:
        this.logger.info({ op: payload.op }, 'gateway asked to reconnect');
        this.drop(conn, 'the platform asked to reconnect', 'keep');
        return;
      case GatewayOp.InvalidSession:
        this.onInvalidSession(conn, payload.d === true);
        return;
      default:
        this.logger.debug({ op: payload.op }, 'gateway sent an unknown op; ignored');
    }
  }

  private onHello(conn: Connection, d: unknown): void {
    if (conn.heartbeat !== undefined) return;
    const interval = (d as { heartbeat_interval?: unknown } | null)?.heartbeat_interval;
    if (typeof interval !== 'number' || !Number.isFinite(interval) || interval <= 0) {
      this.drop(conn, 'the platform sent an invalid Hello', 'keep');
      return;
    }
    if (conn.helloTimer !== undefined) clearTimeout(conn.helloTimer);
    conn.helloTimer = undefined;
    conn.heartbeat = new Heartbeat({
      intervalMs: interval,
      random: this.random,
      now: this.now,
      beat: () => this.sendCritical(conn, GatewayOp.Heartbeat, this.seq),
      onZombie: () => {
        this.logger.warn({ connection: conn.id, intervalMs: interval }, 'gateway heartbeat not acknowledged; reconnecting');
        this.drop(conn, 'the connection stopped responding', 'keep', 'terminate');
      },
    });
    const firstBeatMs = conn.heartbeat.start();
    this.logger.debug({ op: GatewayOp.Hello, intervalMs: interval, firstBeatMs }, 'gateway hello');

    if (conn.plan === 'resume' && this.session !== undefined) {
      const resume: ResumeCommand = { token: this.options.token, session_id: this.session.id, seq: this.seq };
      this.sendCritical(conn, GatewayOp.Resume, resume);
      this.logger.info({ op: GatewayOp.Resume, seq: this.seq }, 'gateway resuming');
    } else {
      this.sendCritical(conn, GatewayOp.Identify, this.identifyPayload());
      this.logger.info({ op: GatewayOp.Identify }, 'gateway identifying');
    }
    conn.readyTimer = setTimeout(() => {
      this.drop(conn, 'the platform did not answer the login', 'keep');
    }, this.options.readyTimeoutMs ?? 15_000);
  }

  private identifyPayload(): IdentifyCommand {
    // User account: no intents. capabilities 0: no opt-ins.
    const bare: IdentifyCommand = { token: this.options.token, properties: this.properties, capabilities: 0 };
    if (this.options.initialPresence === undefined) return bare;
    const withPresence: IdentifyCommand = { ...bare, presence: this.options.initialPresence() };
    if (Buffer.byteLength(JSON.stringify({ op: GatewayOp.Identify, d: withPresence })) <= MAX_CLIENT_PAYLOAD_BYTES) {
      return withPresence;
    }
    // An oversized Identify would be closed with 4002 on every try; log in without presence.
    this.logger.warn({ op: GatewayOp.Identify }, 'initial presence too large for Identify; sent without it');
    return bare;
  }

  private onDispatch(conn: Connection, payload: GatewayPayload): void {
    if (typeof payload.s === 'number') this.seq = payload.s;
    const t = typeof payload.t === 'string' ? payload.t : '';
    this.logger.debug({ op: payload.op, t, seq: payload.s }, 'gateway dispatch');
    if (t === GatewayEvent.Ready) {
      const ready = payload.d as ReadyEvent | null;
      if (ready === null || typeof ready !== 'object' || typeof ready.session_id !== 'string') {
        this.drop(conn, 'the platform sent an invalid READY', 'forget');
        return;
      }
      this.session = { id: ready.session_id, resumeUrl: validResumeUrl(ready.resume_gateway_url) ?? this.options.url };
      this.ready_ = ready;
      this.onEstablished(conn);
      this.logger.info({ t, seq: payload.s }, 'gateway ready');
      this.emit('ready', ready);
      this.emitDrainIfRefused();
    } else if (t === GatewayEvent.Resumed) {
      this.onEstablished(conn);
      this.logger.info({ t, seq: this.seq }, 'gateway resumed');
      this.emit('resumed');
      this.emitDrainIfRefused();
    }
    this.emit('dispatch', t, payload.d, payload.s);
  }

  private onEstablished(conn: Connection): void {
    conn.established = true;
    if (conn.readyTimer !== undefined) clearTimeout(conn.readyTimer);
    conn.readyTimer = undefined;
    this.backoff.reset();
    this.wasReady = true;
    this.resumeUrlFailed = false;
    this.setStatus('ready', 'connected');
  }

  private onInvalidSession(conn: Connection, resumable: boolean): void {
    this.logger.info({ op: GatewayOp.InvalidSession, resumable }, 'gateway invalid session');
    if (resumable && this.session !== undefined) {
      this.drop(conn, 'the platform asked to resume', 'keep');
      return;
    }
    const { minMs, maxMs } = this.options.invalidSessionDelay ?? { minMs: 1000, maxMs: 5000 };
    const delay = Math.round(minMs + (maxMs - minMs) * clampUnit(this.random()));
    this.drop(conn, 'the session expired', 'forget', 'close', delay);
  }

  private onClose(conn: Connection, code: number): void {
    this.teardown(conn);
    this.conn = undefined;
    if (!conn.opened) {
      // Nothing answered: the platform is down or unreachable. Keep the plan and retry.
      const error = conn.errorCode ?? 'no answer';
      this.logger.warn({ connection: conn.id, error }, 'gateway connect failed');
      if (conn.toResumeUrl) this.resumeUrlFailed = true;
      this.scheduleReconnect(`the platform is unreachable (${error})`);
      return;
    }
    const action = closeAction(code);
    this.logger.warn({ connection: conn.id, code, action, ms: this.now() - conn.startedAt }, 'gateway closed');
    if (action === 'stop') {
      this.fail(fatalCloseDetail(code), code);
      return;
    }
    if (action === 'identify') this.forgetSession();
    this.scheduleReconnect(`the platform closed the connection (${code})`);
  }

  /**
   * Leaves a connection on our own initiative and schedules the next one. `keep` resumes the
   * session, `forget` identifies anew. Terminating (no close frame) is for dead connections
   * whose close handshake would hang; either way the session stays resumable.
   */
  private drop(conn: Connection, reason: string, session: 'keep' | 'forget', how: 'close' | 'terminate' = 'close', delayMs?: number): void {
    if (conn !== this.conn) return;
    this.teardown(conn);
    this.conn = undefined;
    const { ws } = conn;
    ws.removeAllListeners();
    ws.on('error', () => {});
    if (how === 'terminate' || ws.readyState !== WebSocket.OPEN) ws.terminate();
    else ws.close(RESUMABLE_CLOSE_CODE);
    this.logger.debug({ connection: conn.id, code: how === 'close' ? RESUMABLE_CLOSE_CODE : null }, 'gateway dropping connection');
    if (session === 'forget') this.forgetSession();
    this.scheduleReconnect(reason, delayMs);
  }

  private scheduleReconnect(reason: string, delayMs?: number): void {
    const delay = delayMs ?? this.backoff.next();
    const resume = this.session !== undefined;
    const info: RetryInfo = { attempt: Math.max(1, this.backoff.attempts), delayMs: delay, resume, reason };
    this.logger.info({ attempt: info.attempt, ms: delay, resume }, 'gateway reconnect scheduled');
    this.setStatus(this.wasReady ? 'reconnecting' : 'connecting', `${reason}; retrying in ${formatSeconds(delay)}`);
    this.emit('retry', info);
    if (this.status_ === 'stopped') return; // a 'retry' or 'status' listener called stop()
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  /** Stops for good: retrying would fail the same way. */
  private fail(detail: string, code?: number): void {
    this.clearTimers();
    this.forgetSession();
    this.logger.error({ code: code ?? null }, 'gateway stopped; not reconnecting');
    this.setStatus('stopped', detail);
  }

  // --- sending ----------------------------------------------------------------------------

  /** Heartbeat, Identify, Resume: may use the reserved slots of the budget. */
  private sendCritical(conn: Connection, op: number, d: unknown): boolean {
    if (conn.ws.readyState !== WebSocket.OPEN) return false;
    // A stalled network loses what is sent: the heartbeat then waits for an ACK in vain.
    if (this.stalled(conn)) return true;
    if (!conn.budget.tryTake(true)) {
      this.logger.warn({ op }, 'gateway send budget spent; critical payload not sent');
      return false;
    }
    conn.ws.send(JSON.stringify({ op, d }));
    return true;
  }

  private scheduleDrain(conn: Connection): void {
    if (this.drainTimer !== undefined) return;
    this.drainTimer = setTimeout(() => {
      this.drainTimer = undefined;
      if (conn !== this.conn || !conn.established) return;
      // Timers may fire a millisecond before Date.now() has moved that far: check again.
      if (conn.budget.msUntilFree(false) > 0) this.scheduleDrain(conn);
      else this.emitDrainIfRefused();
    }, conn.budget.msUntilFree(false));
  }

  private stalled(conn: Connection): boolean {
    return this.options.faults?.isStalled(conn.link) === true;
  }

  private emitDrainIfRefused(): void {
    if (!this.refused) return;
    this.refused = false;
    this.emit('drain');
  }

  // --- helpers ----------------------------------------------------------------------------

  private teardown(conn: Connection): void {
    conn.heartbeat?.stop();
    this.options.faults?.detach(conn.link);
    if (conn.helloTimer !== undefined) clearTimeout(conn.helloTimer);
    if (conn.readyTimer !== undefined) clearTimeout(conn.readyTimer);
    conn.helloTimer = undefined;
    conn.readyTimer = undefined;
    if (this.drainTimer !== undefined) clearTimeout(this.drainTimer);
    this.drainTimer = undefined;
  }

  private clearTimers(): void {
    if (this.retryTimer !== undefined) clearTimeout(this.retryTimer);
    if (this.drainTimer !== undefined) clearTimeout(this.drainTimer);
    this.retryTimer = undefined;
    this.drainTimer = undefined;
  }

  private forgetSession(): void {
    this.session = undefined;
    this.seq = null;
    this.ready_ = undefined;
  }

  private setStatus(status: GatewayStatus, detail: string): void {
    if (status === this.status_ && detail === this.detail_) return;
    this.status_ = status;
    this.detail_ = detail;
    this.emit('status', status, detail);
  }
}

/** Adds `v=10&encoding=json`, keeping anything else the URL has. */
export function withGatewayQuery(base: string): string {
  const url = new URL(base);
  url.searchParams.set('v', '10');
  url.searchParams.set('encoding', 'json');
  return url.toString();
}

function validResumeUrl(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'ws:' || url.protocol === 'wss:' ? value : undefined;
  } catch {
    return undefined;
  }
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}

function errorName(error: unknown): string {
  return error instanceof Error ? error.name : typeof error;
}

function formatSeconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** Closes with `code` and waits for the socket to close, dropping it if the peer is silent. */
function closeAndWait(ws: WebSocket, code: number): Promise<void> {
  return new Promise((resolve) => {
    ws.removeAllListeners();
    ws.on('error', () => {});
    if (ws.readyState === WebSocket.CLOSED) {
      resolve();
      return;
    }
    const timer = setTimeout(() => {
      ws.terminate();
      resolve();
    }, STOP_CLOSE_TIMEOUT_MS);
    ws.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
    if (ws.readyState === WebSocket.OPEN) ws.close(code);
    else ws.terminate();
  });
}
