import { EventEmitter } from 'node:events';
import { CloseCode } from '../../src/protocol/codes.js';
import type { Env } from '../../src/transport/ipc-paths.js';
import { backoffDelay, type BackoffOptions } from './backoff.js';
import { existingSocketPaths } from './discovery.js';
import { ConnectError, RpcRequestError } from './errors.js';
import { RpcSocket, type CloseInfo, type ReadyData, type RpcSocketOptions } from './rpc-socket.js';

/**
 * - `disconnected`: no connection and none being made (initially, after `disconnect()`,
 *   after a failed `connect()`, after a fatal refusal);
 * - `connecting`: the first attempt of `connect()`;
 * - `ready`: READY received and the presence, token and subscriptions restored;
 * - `reconnecting`: the connection dropped; the next attempt is scheduled or running;
 * - `disconnecting`: `disconnect()` is closing the connection.
 */
export type ConnectionStatus = 'disconnected' | 'connecting' | 'ready' | 'reconnecting' | 'disconnecting';

export interface SdkConnectionOptions extends Omit<RpcSocketOptions, 'clientId'> {
  /** Environment for socket discovery (default: process.env). */
  readonly env?: Env;
  readonly platform?: NodeJS.Platform;
  /** Try exactly these socket paths, in order, instead of discovering them. */
  readonly socketPaths?: readonly string[];
  /** Reconnect delays (default 0.5 s doubling to 60 s, ±25 % jitter). */
  readonly backoff?: BackoffOptions;
  /** Reconnect after a drop (default true). */
  readonly autoReconnect?: boolean;
  /** The `pid` sent with SET_ACTIVITY (default: process.pid). */
  readonly pid?: number;
  /**
   * The backoff starts again from its first delay only once a connection has stayed up this
   * long (default 30 000 ms), or after `disconnect()` / a fresh `connect()`. A server that
   * drops every connection right after READY is retried with growing delays, not hammered.
   */
  readonly stableAfterMs?: number;
}

export const DEFAULT_STABLE_AFTER_MS = 30_000;

/**
 * Why the stored access token was dropped: `revoked` when the server closed the connection
 * with 4003 (Token revoked); `invalid` when the AUTHENTICATE that restores it after a
 * (re)connect was refused with 4009 (Invalid token: expired, revoked or another user's).
 */
export interface TokenInvalidated {
  /** `expiring`: the token ends within a minute (the Client's expiry watch, code 0); get a new one and call updateToken. */
  readonly reason: 'revoked' | 'invalid' | 'expiring';
  /** The CLOSE code (4003), the ERROR code (4009), the platform gateway's 4004, or 0 for `expiring`. */
  readonly code: number;
  readonly message: string;
}

export interface DisconnectDetail {
  readonly close: CloseInfo;
  /** A reconnect is scheduled. */
  readonly willReconnect: boolean;
  /** The server refused this application or protocol version (4000 / 4004): no reconnect. */
  readonly fatal: boolean;
}

export interface SdkConnectionEvents {
  status: [status: ConnectionStatus, previous: ConnectionStatus];
  /** READY, after the restore of presence, token and subscriptions. */
  ready: [ReadyData];
  /** A DISPATCH (other than READY) from the server. */
  event: [evt: string, data: unknown];
  disconnected: [DisconnectDetail];
  /** A reconnect attempt is scheduled `delayMs` from now. */
  'reconnect-scheduled': [delayMs: number, attempt: number];
  /** A reconnect attempt failed (the next is scheduled unless `error.fatal`). */
  'reconnect-failed': [ConnectError];
  /** Re-sending state after a (re)connect failed for one command. */
  'restore-failed': [cmd: string, error: RpcRequestError];
  /** The stored access token was dropped: it is no longer sent after reconnects. Get a new one and call setAccessToken. */
  'token-invalidated': [TokenInvalidated];
}

/** Close codes after which reconnecting cannot help. */
const FATAL_CLOSE_CODES: ReadonlySet<number> = new Set([CloseCode.InvalidClientId, CloseCode.InvalidVersion]);
/** ERROR code of an AUTHENTICATE whose token the server does not accept (rpc/src/protocol/codes.ts RpcErrorCode.InvalidToken). */
const INVALID_TOKEN_ERROR = 4009;

/**
 * The connection a game keeps to Companion across drops:
 * - discovers the socket (discovery.ts), connects, handshakes and waits for READY;
 * - after any drop that is neither `disconnect()` nor a fatal handshake refusal (4000
 *   Invalid Client ID, 4004 Invalid Version) it reconnects with exponential backoff
 *   (backoff.ts) until it succeeds or is told to stop;
 * - after every READY, the first included, it restores the game's state in order: the
 *   access token (AUTHENTICATE), the current rich presence (SET_ACTIVITY) and every event
 *   subscription the game registered (SUBSCRIBE), then reports `ready`;
 * - the backoff restarts from its first delay only after a connection stayed up
 *   `stableAfterMs` (30 s), so a server that drops right after READY is not hammered;
 * - the stored access token is dropped (event `token-invalidated`) when the server closes
 *   with 4003 (Token revoked) or refuses the restoring AUTHENTICATE with 4009, so a revoked
 *   token is not sent again on every reconnect;
 * - discovery: a socket whose server refuses the handshake with CLOSE 4000 (Invalid Client
 *   ID: another application's or another instance's server at a lower index) is skipped and
 *   the next candidate tried; the 4000 is reported only when no candidate accepts.
 */
export class SdkConnection extends EventEmitter<SdkConnectionEvents> {
  private socket: RpcSocket | undefined;
  private currentStatus: ConnectionStatus = 'disconnected';
  private readyData: ReadyData | null = null;
  private clientId: string | undefined;
  /** The game wants to be connected (false after disconnect() or a fatal refusal). */
  private wanted = false;
  private attempt = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  /** Resets `attempt` once the current connection has stayed up `stableAfterMs`. */
  private stableTimer: NodeJS.Timeout | undefined;
  private connecting: Promise<ReadyData> | undefined;
  /** undefined: never set (nothing to restore); null: cleared. */
  private presence: unknown = undefined;
  private accessToken: string | null = null;
  private readonly subscriptions = new Set<string>();
  private gamePid: number;

  constructor(readonly options: SdkConnectionOptions = {}) {
    super();
    this.gamePid = options.pid ?? process.pid;
  }

  /** The game window's process id, sent with SET_ACTIVITY, AUTHORIZE and the invite commands (default: process.pid). */
  get pid(): number {
    return this.gamePid;
  }

  /** Client::SetGameWindowPid: the process of the game's window, when it is not this one (a launcher's). A positive integer. */
  setPid(pid: number): void {
    if (!Number.isInteger(pid) || pid <= 0 || pid > 0x7fffffff) throw new RangeError('pid must be a positive 32-bit integer');
    this.gamePid = pid;
  }

  get status(): ConnectionStatus {
    return this.currentStatus;
  }

  /** The READY data of the current connection; null while not ready. */
  get ready(): ReadyData | null {
    return this.readyData;
  }

  /** The socket path of the current connection. */
  get path(): string | null {
    return this.socket?.isOpen === true ? this.socket.path : null;
  }

  get isReady(): boolean {
    return this.currentStatus === 'ready';
  }

  /** Events that are re-subscribed after each reconnect. */
  get subscribedEvents(): readonly string[] {
    return [...this.subscriptions];
  }

  /**
   * Connects as application `clientId` and resolves with READY once the state is restored.
   * A first attempt that fails rejects with ConnectError ('no-socket' when no Companion
   * socket exists) and leaves the status `disconnected`: call it again later. While already
   * connected with the same id it resolves at once; with another id it reconnects.
   *
   * While `reconnecting` with the same id it does not start over: it runs the next
   * reconnect attempt now (or joins the one running) and, if that fails, rejects while the
   * status stays `reconnecting` and the backoff goes on where it was (the attempt counts as
   * one of the schedule's). Only a fatal refusal (4000 / 4004) ends the reconnecting.
   */
  async connect(clientId: string): Promise<ReadyData> {
    if (this.clientId === clientId && this.currentStatus === 'ready' && this.readyData !== null) return this.readyData;
    if (this.clientId === clientId && this.connecting !== undefined) return this.connecting;
    if (this.clientId === clientId && this.currentStatus === 'reconnecting' && this.wanted) {
      this.clearRetry();
      return this.retryNow();
    }
    if (this.clientId !== clientId && this.socket !== undefined) await this.disconnect();
    this.clientId = clientId;
    this.wanted = true;
    this.attempt = 0;
    this.clearRetry();
    this.setStatus('connecting');
    const attempt = this.establish().catch((error: unknown) => {
      if (this.currentStatus === 'connecting') {
        this.wanted = false;
        this.setStatus('disconnected');
      }
      throw error;
    });
    this.connecting = attempt;
    try {
      return await attempt;
    } finally {
      if (this.connecting === attempt) this.connecting = undefined;
    }
  }

  /** Closes the connection (CLOSE 1000) and stops reconnecting. Presence and subscriptions are kept for a later connect(). */
  async disconnect(): Promise<void> {
    this.wanted = false;
    this.attempt = 0;
    this.clearRetry();
    this.clearStable();
    const socket = this.socket;
    this.readyData = null;
    if (socket !== undefined && socket.isOpen) {
      this.setStatus('disconnecting');
      // The close event reports it (willReconnect false) and forgets the socket.
      await socket.close();
    }
    this.socket = undefined;
    this.setStatus('disconnected');
  }

  /**
   * Sends a command on the current connection. Rejects with RpcRequestError: 'not-connected'
   * when there is none, else as RpcSocket.request (ERROR reply, timeout, disconnect).
   */
  request(cmd: string, args: unknown, options: { evt?: string; timeoutMs?: number } = {}): Promise<unknown> {
    const socket = this.socket;
    if (socket === undefined || !socket.isOpen) {
      return Promise.reject(new RpcRequestError('not-connected', cmd, null, `${cmd}: not connected to Companion`));
    }
    return socket.request(cmd, args, options);
  }

  /**
   * Sets the rich presence (null clears it). It is kept and sent again after every
   * reconnect. Sent at once when connected (resolves with the reply's data); otherwise
   * rejects with 'not-connected' and is sent on the next READY.
   */
  setPresence(activity: unknown): Promise<unknown> {
    this.presence = activity;
    return this.request('SET_ACTIVITY', this.presenceArgs(activity));
  }

  /** The presence that is restored after a reconnect (undefined: never set). */
  get currentPresence(): unknown {
    return this.presence;
  }

  /** The token to AUTHENTICATE with again after a reconnect (null: none). Dropped by itself on CLOSE 4003 or a 4009 refusal (event `token-invalidated`). */
  setAccessToken(token: string | null): void {
    this.accessToken = token;
  }

  /** The token that is sent again after a reconnect (null: none, or dropped as revoked). */
  get currentAccessToken(): string | null {
    return this.accessToken;
  }

  /**
   * Subscribes to an argument-less event and keeps it subscribed across reconnects. When
   * not connected it is only recorded (resolves) and sent on the next READY. A refusal
   * from the server (ERROR reply) removes it again and rejects.
   */
  async subscribe(evt: string): Promise<void> {
    this.subscriptions.add(evt);
    if (this.socket === undefined || !this.socket.isOpen) return;
    try {
      await this.socket.request('SUBSCRIBE', {}, { evt });
    } catch (error) {
      if (error instanceof RpcRequestError && error.kind === 'rpc-error') this.subscriptions.delete(evt);
      throw error;
    }
  }

  /** Stops an event; UNSUBSCRIBE is sent when connected. */
  async unsubscribe(evt: string): Promise<void> {
    const had = this.subscriptions.delete(evt);
    if (!had || this.socket === undefined || !this.socket.isOpen) return;
    await this.socket.request('UNSUBSCRIBE', {}, { evt });
  }

  private presenceArgs(activity: unknown): Record<string, unknown> {
    return activity === null || activity === undefined ? { pid: this.pid } : { pid: this.pid, activity };
  }

  /** One attempt: the first socket that accepts, handshake, READY, restore. */
  private async establish(): Promise<ReadyData> {
    const clientId = this.clientId as string;
    const paths = this.options.socketPaths ?? (await existingSocketPaths(this.options.env ?? process.env, this.options.platform));
    let lastRefusal: ConnectError | undefined;
    let invalidClientId: ConnectError | undefined;
    for (const socketPath of paths) {
      if (!this.wanted) break;
      let opened: Awaited<ReturnType<typeof RpcSocket.open>>;
      try {
        opened = await RpcSocket.open(socketPath, { ...this.options, clientId });
      } catch (error) {
        // Nothing listening there (a stale file): try the next. Anything else came from a server.
        if (error instanceof ConnectError && error.reason === 'refused') {
          lastRefusal = error;
          continue;
        }
        // CLOSE 4000 from this socket's server: it may be another application's or another
        // instance's server; a later index may take us. Reported if none does.
        if (error instanceof ConnectError && error.closeCode === CloseCode.InvalidClientId) {
          invalidClientId ??= error;
          continue;
        }
        throw error;
      }
      const { socket, ready } = opened;
      if (!this.wanted) {
        await socket.close();
        break;
      }
      this.socket = socket;
      socket.on('event', (evt, data) => this.emit('event', evt, data));
      socket.once('close', (info) => this.onSocketClosed(socket, info));
      await this.restore(socket);
      if (this.socket !== socket || !socket.isOpen) throw new ConnectError('closed', 'the connection closed while restoring state');
      this.startStable(socket);
      this.readyData = ready;
      this.setStatus('ready');
      this.emit('ready', ready);
      return ready;
    }
    if (!this.wanted) throw new ConnectError('closed', 'disconnected while connecting');
    if (invalidClientId !== undefined) throw invalidClientId;
    if (lastRefusal !== undefined) throw new ConnectError('no-socket', `no Companion is listening (last: ${lastRefusal.message})`);
    throw new ConnectError('no-socket', 'no Companion socket found (is Companion running?)');
  }

  /** Re-sends the token, presence and subscriptions; a failure of one is reported and the rest still sent. */
  private async restore(socket: RpcSocket): Promise<void> {
    const steps: { cmd: string; args: unknown; evt?: string }[] = [];
    const token = this.accessToken;
    if (token !== null) steps.push({ cmd: 'AUTHENTICATE', args: { access_token: token } });
    if (this.presence !== undefined && this.presence !== null) steps.push({ cmd: 'SET_ACTIVITY', args: this.presenceArgs(this.presence) });
    for (const evt of this.subscriptions) steps.push({ cmd: 'SUBSCRIBE', args: {}, evt });
    await Promise.all(
      steps.map((step) =>
        socket.request(step.cmd, step.args, step.evt === undefined ? {} : { evt: step.evt }).catch((error: unknown) => {
          if (!(error instanceof RpcRequestError)) return;
          this.emit('restore-failed', step.cmd, error);
          // Refused as invalid (expired, revoked): sending it again after every reconnect cannot help.
          if (step.cmd === 'AUTHENTICATE' && error.kind === 'rpc-error' && error.code === INVALID_TOKEN_ERROR && this.accessToken === token) {
            this.accessToken = null;
            this.emit('token-invalidated', { reason: 'invalid', code: INVALID_TOKEN_ERROR, message: error.message });
          }
        }),
      ),
    );
  }

  private onSocketClosed(socket: RpcSocket, info: CloseInfo): void {
    if (this.socket !== socket) return;
    this.socket = undefined;
    this.readyData = null;
    this.clearStable();
    if (info.reason === 'server-close' && info.code === CloseCode.TokenRevoked && this.accessToken !== null) {
      this.accessToken = null;
      this.emit('token-invalidated', { reason: 'revoked', code: CloseCode.TokenRevoked, message: info.message });
    }
    const fatal = info.code !== null && info.reason === 'server-close' && FATAL_CLOSE_CODES.has(info.code);
    if (fatal) this.wanted = false;
    const willReconnect = this.wanted && this.options.autoReconnect !== false;
    if (!willReconnect) this.wanted = false;
    this.emit('disconnected', { close: info, willReconnect, fatal });
    if (willReconnect) {
      this.setStatus('reconnecting');
      this.scheduleRetry();
    } else if (this.currentStatus !== 'disconnecting') {
      this.setStatus('disconnected');
    }
  }

  private scheduleRetry(): void {
    this.clearRetry();
    const delay = backoffDelay(this.attempt, this.options.backoff);
    const attempt = this.attempt;
    this.attempt += 1;
    this.emit('reconnect-scheduled', delay, attempt);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      if (!this.wanted) return;
      this.retryNow().catch(() => undefined);
    }, delay);
    this.retryTimer.unref();
  }

  /** One reconnect attempt now; on failure the next is scheduled (unless fatal) and the promise rejects. */
  private retryNow(): Promise<ReadyData> {
    const running = this.establish();
    this.connecting = running;
    return running.then(
      (ready) => {
        if (this.connecting === running) this.connecting = undefined;
        return ready;
      },
      (error: unknown) => {
        if (this.connecting === running) this.connecting = undefined;
        const failure = error instanceof ConnectError ? error : new ConnectError('closed', String(error));
        // A newer connection took over, or its close already scheduled the next attempt.
        if (this.socket !== undefined || this.retryTimer !== undefined) throw failure;
        if (failure.fatal) this.wanted = false;
        this.emit('reconnect-failed', failure);
        if (this.wanted) this.scheduleRetry();
        else this.setStatus('disconnected');
        throw failure;
      },
    );
  }

  private startStable(socket: RpcSocket): void {
    this.clearStable();
    const after = this.options.stableAfterMs ?? DEFAULT_STABLE_AFTER_MS;
    this.stableTimer = setTimeout(() => {
      this.stableTimer = undefined;
      if (this.socket === socket && socket.isOpen) this.attempt = 0;
    }, after);
    this.stableTimer.unref();
  }

  private clearStable(): void {
    if (this.stableTimer !== undefined) clearTimeout(this.stableTimer);
    this.stableTimer = undefined;
  }

  private clearRetry(): void {
    if (this.retryTimer !== undefined) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
  }

  private setStatus(status: ConnectionStatus): void {
    if (status === this.currentStatus) return;
    const previous = this.currentStatus;
    this.currentStatus = status;
    this.emit('status', status, previous);
  }
}
