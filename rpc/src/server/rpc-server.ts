import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import { DEFAULT_MAX_INBOUND_PAYLOAD, encodeFrame } from '../framing/frame-codec.js';
import { Opcode } from '../protocol/opcodes.js';
import { RPC_COMMANDS, type CommandSpec } from '../protocol/commands.js';
import { CloseCode, namingMessage, RpcError, RpcErrorCode } from '../protocol/codes.js';
import { errorReply, eventDispatch, successReply, type CommandReply } from '../protocol/envelope.js';
import { validateHandshake, type HandshakeOutcome, type HandshakeRefusal } from '../protocol/handshake.js';
import type { GatewayActivity } from '../commands/set-activity.js';
import { builtInCommands } from './built-in-commands.js';
import {
  ProtocolViolation,
  RpcConnection,
  type ConnectionHost,
  type DisconnectInfo,
  type FrameTracer,
  type Subscription,
} from './rpc-connection.js';
import type { ConnectionTransport } from '../transport/connection-transport.js';
import type { RpcLogger } from '../protocol/rpc-logger.js';

export type { RpcLogger };
import { IpcTransport } from '../transport/ipc-transport.js';
import { subscriptionKey } from './subscription-key.js';
import { INVALID_SCOPE_MESSAGE, isPermitted } from './scope-check.js';
import { DEFAULT_EVENT_GAP_MS } from './outbound-queue.js';
import { DetachedReply } from './detached-reply.js';
import { ClientGuesser, type ClientGuess } from './client-guess.js';
import { DEFAULT_MAX_CONNECTIONS_PER_PEER, PeerCap, type PeerKey } from './peer-cap.js';
import { DEFAULT_MAX_CONNECTIONS } from './connection-limit.js';

export { DEFAULT_MAX_CONNECTIONS } from './connection-limit.js';
import { SsPeerProcessFinder, type PeerProcessFinder, type PeerSocket } from '../transport/peer-process.js';

/** The user and config a READY dispatch carries. */
export interface ReadyIdentity {
  readonly user: RpcUser;
  readonly config: { readonly cdn_host: string; readonly api_endpoint: string; readonly environment: string };
}

/** The READY user object; ids and discriminator are strings (the C library reads them as strings). */
export interface RpcUser {
  readonly id: string;
  readonly username: string;
  readonly discriminator: string;
  readonly global_name: string | null;
  readonly avatar: string | null;
  readonly avatar_decoration_data: null | Readonly<Record<string, unknown>>;
  readonly bot: boolean;
  readonly flags: number;
  readonly premium_type: number;
}

/** Structured logger (a subset of pino's API). Only log safe fields: never payloads. */

export interface CommandRequest {
  readonly cmd: string;
  readonly nonce: unknown;
  readonly evt: unknown;
  readonly args: Record<string, unknown>;
}

export interface CommandContext {
  readonly connection: RpcConnection;
  readonly server: RpcServer;
  readonly request: CommandRequest;
  /** Aborted when the client disconnects: a handler that waits (a consent prompt) stops on it. */
  readonly signal: AbortSignal;
}

/** Returns the reply's `data`, or throws RpcError for an ERROR reply. */
export type CommandHandler = (context: CommandContext) => unknown;

export interface ActivityChange {
  readonly connection: RpcConnection;
  readonly pid: number | null;
  readonly activity: GatewayActivity | null;
  /** 'command': SET_ACTIVITY; 'disconnect': cleared because the connection closed. */
  readonly cause: 'command' | 'disconnect';
}

export interface FrameTrace {
  readonly connectionId: string;
  readonly direction: 'in' | 'out';
  readonly opcode: number;
  readonly payload: unknown;
  readonly at: number;
  /**
   * The payload's JSON as it went over the wire (the frame's body), when known. A view of a
   * buffer that is reused: copy it to keep it past the event.
   */
  readonly json?: Uint8Array | undefined;
}

export interface RpcServerEvents {
  connection: [RpcConnection];
  ready: [RpcConnection];
  disconnect: [RpcConnection, DisconnectInfo];
  activity: [ActivityChange];
  /** A host-level effect of a command, e.g. SEND_ACTIVITY_JOIN_INVITE. */
  request: [{ readonly connection: RpcConnection; readonly cmd: string; readonly args: Record<string, unknown> }];
  /** The connection's client does not read its replies: the first SET_ACTIVITY reply was dropped unsent. */
  'replies-dropped': [RpcConnection];
  /** A connection subscribed to an event (after validation, before the reply is sent). */
  subscribe: [RpcConnection, Subscription];
  /** Every frame in and out; only computed while someone listens (the inspector). */
  frame: [FrameTrace];
}

export interface RpcServerOptions {
  /**
   * READY's user and config; a function so a change of account shows on the next READY.
   * null: no account is known, and clients are closed with 1000 "User logged out".
   */
  readonly identity: () => ReadyIdentity | null;
  /** The display name of an application, used as the activity's default name. */
  readonly applicationName?: (clientId: string) => string;
  /**
   * Looks the application up at the handshake (the platform's app registry). null: the app
   * does not exist, and the client is closed with 4000 "Invalid Client ID" as the real client
   * does. A rejected promise (platform unreachable) lets the game in under the name that
   * `applicationName` gives: a platform outage must not stop games from starting.
   */
  readonly resolveApplication?: (clientId: string) => ResolvedApplication | null | Promise<ResolvedApplication | null>;
  readonly logger?: RpcLogger;
  readonly maxPayload?: number;
  readonly maxBufferedBytes?: number;
  /**
   * Open connections at most (default 1,024: each holds a file descriptor, and real use is a
   * handful of games). One more is answered CLOSE 4002 and ended.
   */
  readonly maxConnections?: number;
  /**
   * Open connections one peer (a process where the system tells it, else a WebSocket's remote
   * port range) may hold (default 64, see PeerCap). One more is answered CLOSE 4002 and ended,
   * so one program cannot take every place.
   */
  readonly maxConnectionsPerPeer?: number;
  /** Tells a socket's peer process (default: `ss` on Linux; null: never look peers up). */
  readonly peerProcesses?: PeerProcessFinder | null;
  /** Quiet time around unsolicited events (see OutboundQueue). */
  readonly eventGapMs?: number;
  /** A connection that has not completed the handshake by then is closed (default 30 s). */
  readonly handshakeTimeoutMs?: number;
  /** How long a pending command may run after its client left (default 5 s). */
  readonly closeGraceMs?: number;
  readonly now?: () => number;
}

export interface ResolvedApplication {
  readonly name: string;
}

export interface DispatchOptions {
  /** Only connections that pass this filter. */
  readonly to?: (connection: RpcConnection) => boolean;
  /** Only subscriptions made with these args (e.g. `{guild_id}`); omit for argument-less events. */
  readonly args?: Readonly<Record<string, unknown>>;
}

const SHUTDOWN_MESSAGE = 'Companion is shutting down';
/** How long a shutdown waits for handshakes being decided before it closes them unanswered. */
const HANDSHAKE_SETTLE_MS = 2000;
/** Refusals past the connection cap are logged at most this often. */
const REFUSAL_LOG_INTERVAL_MS = 10_000;

const NOOP_LOGGER: RpcLogger = { debug() {}, info() {}, warn() {}, error() {} };

/**
 * The transport-independent RPC server: it owns connections, answers every command with
 * exactly one reply, and is the event bus through which the host reaches games.
 */
export class RpcServer extends EventEmitter<RpcServerEvents> implements ConnectionHost {
  private readonly connectionsById = new Map<string, RpcConnection>();
  private readonly clientGuesser = new ClientGuesser();
  /** Every known command: what it needs (local, scopes), and its handler if built. */
  private readonly commands = new Map<string, { readonly spec: CommandSpec; handler: CommandHandler | undefined }>();
  private nextId = 1;
  private shuttingDown = false;
  private readonly logger: RpcLogger;
  private readonly peerCap: PeerCap;
  /** Connections whose peer is being looked up: they hold a place under the total cap. */
  private admitting = 0;
  readonly now: () => number;

  constructor(private readonly options: RpcServerOptions) {
    super();
    this.logger = options.logger ?? NOOP_LOGGER;
    this.now = options.now ?? Date.now;
    const finder = options.peerProcesses === undefined ? new SsPeerProcessFinder() : options.peerProcesses;
    this.peerCap = new PeerCap(options.maxConnectionsPerPeer ?? DEFAULT_MAX_CONNECTIONS_PER_PEER, finder);
    for (const [name, spec] of Object.entries(RPC_COMMANDS)) {
      this.commands.set(name, { spec, handler: builtInCommands[name] });
    }
  }

  /** Installs (or replaces) the handler of a known command, e.g. AUTHORIZE from the host. */
  setCommandHandler(cmd: string, handler: CommandHandler): void {
    const entry = this.commands.get(cmd);
    if (entry === undefined) throw new Error(`unknown RPC command ${cmd}`);
    entry.handler = handler;
  }

  /** The handler a known command has now (built in or installed), e.g. to wrap it. */
  commandHandler(cmd: string): CommandHandler | undefined {
    return this.commands.get(cmd)?.handler;
  }

  /** The inbound frame (IPC) or message (WebSocket) size cap. */
  get maxPayload(): number {
    return this.options.maxPayload ?? DEFAULT_MAX_INBOUND_PAYLOAD;
  }

  /** Serves one accepted `discord-ipc-N` socket; during shutdown it is told so and closed. */
  attach(socket: Socket): RpcConnection | undefined {
    return this.attachTransport(new IpcTransport(socket, this.maxPayload));
  }

  /**
   * Serves one connection of any transport; during shutdown it is told so and closed. Past the
   * total cap, or its peer's cap, it is refused (CLOSE 4002). While the server is crowded its
   * peer is looked up first (see PeerCap): then it is served (or refused) once that is done,
   * and this returns undefined.
   */
  attachTransport(io: ConnectionTransport): RpcConnection | undefined {
    if (this.shuttingDown) {
      this.refuseShutdown(io);
      return undefined;
    }
    const maxConnections = this.options.maxConnections ?? DEFAULT_MAX_CONNECTIONS;
    const open = this.connectionsById.size + this.admitting;
    if (open >= maxConnections) {
      this.refuseOverCap(io, maxConnections);
      return undefined;
    }
    const socket = this.peerCap.socketOf(io);
    if (!this.peerCap.needsLookup(open)) return this.admitPeer(io, socket, this.peerCap.immediateKey(io));
    this.admitting += 1;
    void this.peerCap.identify(io, socket).then(
      (key) => {
        this.admitting -= 1;
        if (io.sink.destroyed) return; // it left while it waited
        if (this.shuttingDown) this.refuseShutdown(io);
        else this.admitPeer(io, socket, key);
      },
      () => {
        this.admitting -= 1;
        io.destroy();
      },
    );
    return undefined;
  }

  private refuseShutdown(io: ConnectionTransport): void {
    io.sink.write(encodeFrame(Opcode.Close, { code: CloseCode.Normal, message: SHUTDOWN_MESSAGE }));
    io.end();
  }

  /** Serves `io` unless its peer already holds its cap of connections. */
  private admitPeer(io: ConnectionTransport, socket: PeerSocket | null, key: PeerKey | undefined): RpcConnection | undefined {
    if (!this.peerCap.admits(key)) {
      this.refuseOverPeerCap(io, key as string);
      return undefined;
    }
    const connection = this.open(io);
    this.peerCap.add(connection.id, socket, key);
    return connection;
  }

  private open(io: ConnectionTransport): RpcConnection {
    const connection = new RpcConnection(`c${this.nextId++}`, io, this, {
      maxPayload: this.maxPayload,
      // Reading pauses above 256 KiB of unsent replies (128 pipelined replies stay below it)
      // and a client still not reading at 4 MiB is dropped: memory per client stays bounded.
      maxBufferedBytes: this.options.maxBufferedBytes ?? 4 * 1024 * 1024,
      // The gap keeps an event out of the read of its neighbours, which only IPC readers need:
      // a WebSocket message is always read whole.
      eventGapMs: io.kind === 'websocket' ? 0 : (this.options.eventGapMs ?? DEFAULT_EVENT_GAP_MS),
      outputHighWater: 256 * 1024,
      maxBacklog: 64,
      handshakeTimeoutMs: this.options.handshakeTimeoutMs ?? 30_000,
      closeGraceMs: this.options.closeGraceMs ?? 5_000,
    });
    this.connectionsById.set(connection.id, connection);
    this.emit('connection', connection);
    return connection;
  }

  private refusedOverCap = 0;
  private lastRefusalLogAt = Number.NEGATIVE_INFINITY;
  private refusedOverPeerCap = 0;
  private lastPeerRefusalLogAt = Number.NEGATIVE_INFINITY;

  private refuseOverCap(io: ConnectionTransport, max: number): void {
    refuseWith(io, `Too many connections (at most ${max})`);
    this.refusedOverCap += 1;
    const now = Date.now();
    if (now - this.lastRefusalLogAt >= REFUSAL_LOG_INTERVAL_MS) {
      this.lastRefusalLogAt = now;
      this.logger.warn({ max, refused: this.refusedOverCap }, 'connection refused: too many open connections');
    }
  }

  private refuseOverPeerCap(io: ConnectionTransport, peer: string): void {
    const max = this.peerCap.max;
    refuseWith(io, `Too many connections from one program (at most ${max})`);
    this.refusedOverPeerCap += 1;
    const now = Date.now();
    if (now - this.lastPeerRefusalLogAt >= REFUSAL_LOG_INTERVAL_MS) {
      this.lastPeerRefusalLogAt = now;
      this.logger.warn({ max, peer, refused: this.refusedOverPeerCap }, 'connection refused: its program holds too many connections');
    }
  }

  /** The peer of an open connection for the per-peer cap (a process or a port range), if known. */
  peerOf(connection: RpcConnection): PeerKey | undefined {
    return this.peerCap.keyOf(connection.id);
  }

  /** The open connection with that id, if any. */
  connection(id: string): RpcConnection | undefined {
    return this.connectionsById.get(id);
  }

  connections(): IterableIterator<RpcConnection> {
    return this.connectionsById.values();
  }

  /** Sends `evt` to every ready connection subscribed to it; returns how many got it. */
  dispatch(evt: string, data: unknown, options: DispatchOptions = {}): number {
    const key = subscriptionKey(evt, options.args ?? {});
    const payload = eventDispatch(evt, data);
    let frame: Buffer | undefined;
    let sent = 0;
    for (const connection of this.connectionsById.values()) {
      if (connection.state !== 'ready' || !connection.subscriptions.has(key)) continue;
      if (options.to !== undefined && !options.to(connection)) continue;
      frame ??= encodeFrame(Opcode.Frame, payload);
      connection.sendEvent(frame, payload);
      sent += 1;
    }
    return sent;
  }

  /** Closes every connection with this CLOSE, and keeps accepting new ones (e.g. on sign-out). */
  disconnectAll(message: string, code: number = CloseCode.Normal): number {
    let closed = 0;
    for (const connection of this.connectionsById.values()) {
      if (connection.state === 'closed' || connection.state === 'closing') continue;
      connection.close(code, message);
      closed += 1;
    }
    return closed;
  }

  /**
   * Closes every connection with CLOSE 1000 and waits until all have finished. A game whose
   * handshake is being decided (its application looked up on the platform) gets its READY first,
   * within HANDSHAKE_SETTLE_MS: a game that connected while the host started, stopped before it
   * was up, is served and then told, never closed with no answer to its handshake.
   */
  async closeAll(message = SHUTDOWN_MESSAGE): Promise<void> {
    this.shuttingDown = true;
    await this.handshakesSettled(HANDSHAKE_SETTLE_MS);
    const open = new Set([...this.connectionsById.values()].filter((c) => c.state !== 'closed'));
    if (open.size === 0) return;
    await new Promise<void>((resolve) => {
      const onDisconnect = (closed: RpcConnection): void => {
        open.delete(closed);
        if (open.size > 0) return;
        this.off('disconnect', onDisconnect);
        resolve();
      };
      this.on('disconnect', onDisconnect);
      for (const connection of [...open]) connection.close(CloseCode.Normal, message);
    });
  }

  /** Resolves once no connection has a handshake being decided, or after `ms`. */
  private handshakesSettled(ms: number): Promise<void> {
    const pending = (): boolean => [...this.connectionsById.values()].some((connection) => connection.handshakePending);
    if (!pending()) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.off('ready', check);
        this.off('disconnect', check);
        resolve();
      };
      const check = (): void => {
        if (!pending()) done();
      };
      const timer = setTimeout(done, ms);
      this.on('ready', check);
      this.on('disconnect', check);
    });
  }

  // ConnectionHost

  handshake(connection: RpcConnection, payload: unknown): HandshakeOutcome | Promise<HandshakeOutcome> {
    const result = validateHandshake(payload);
    if (!result.ok) return this.refuse(connection, result);
    const resolve = this.options.resolveApplication;
    if (resolve === undefined) return this.admit(connection, result.clientId, undefined);
    let found: ResolvedApplication | null | Promise<ResolvedApplication | null>;
    try {
      found = resolve(result.clientId);
    } catch {
      found = Promise.reject(new Error('application lookup failed'));
    }
    if (!(found instanceof Promise)) return this.admit(connection, result.clientId, found);
    return found.then(
      (app) => this.admit(connection, result.clientId, app),
      () => {
        this.logger.warn({ connection: connection.id, clientId: result.clientId }, 'application lookup failed; admitting under a placeholder name');
        return this.admit(connection, result.clientId, undefined);
      },
    );
  }

  /** `app`: found, null (no such app), or undefined (not looked up). */
  private admit(connection: RpcConnection, clientId: string, app: ResolvedApplication | null | undefined): HandshakeOutcome {
    if (app === null) {
      return this.refuse(connection, { ok: false, code: CloseCode.InvalidClientId, message: 'Invalid Client ID', reason: 'unknown application' });
    }
    const identity = this.options.identity();
    if (identity === null) {
      return this.refuse(connection, { ok: false, code: CloseCode.Normal, message: 'User logged out', reason: 'logged out' });
    }
    const applicationName = app?.name ?? this.options.applicationName?.(clientId) ?? '';
    const ready = eventDispatch('READY', { v: 1, config: identity.config, user: identity.user });
    return { ok: true, clientId, applicationName, ready };
  }

  private refuse(connection: RpcConnection, refusal: HandshakeRefusal): HandshakeRefusal {
    this.logger.info({ connection: connection.id, code: refusal.code, reason: refusal.reason }, 'handshake refused');
    return refusal;
  }

  /** Which client library `connection` probably uses (for the UI; never changes an answer). */
  clientGuess(connection: RpcConnection): ClientGuess {
    return this.clientGuesser.guess(connection);
  }

  ready(connection: RpcConnection): void {
    this.logger.debug({ connection: connection.id, clientId: connection.clientId }, 'client ready');
    this.emit('ready', connection);
  }

  command(connection: RpcConnection, payload: unknown): CommandReply | Promise<CommandReply> | DetachedReply {
    if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
      throw new ProtocolViolation('invalid payload: a command must be a JSON object');
    }
    const { cmd, nonce, args, evt } = payload as Record<string, unknown>;
    this.clientGuesser.observe(connection, payload as { cmd?: unknown; nonce?: unknown; args?: unknown });
    // The real client refuses an empty-string nonce too.
    if (nonce === undefined || nonce === null || nonce === '') {
      return errorReply(cmd, null, RpcErrorCode.InvalidPayload, 'Payload requires a nonce');
    }
    const entry = typeof cmd === 'string' ? this.commands.get(cmd) : undefined;
    if (entry === undefined) {
      return errorReply(cmd, nonce, RpcErrorCode.InvalidCommand, namingMessage('Invalid command', cmd));
    }
    const name = cmd as string;
    if (!isPermitted(connection, entry.spec)) {
      this.logger.debug({ connection: connection.id, cmd: name, authenticated: connection.authenticated }, 'command refused: scope');
      return errorReply(name, nonce, RpcErrorCode.InvalidPermissions, INVALID_SCOPE_MESSAGE);
    }
    if (args !== undefined && args !== null && (typeof args !== 'object' || Array.isArray(args))) {
      return errorReply(cmd, nonce, RpcErrorCode.InvalidPayload, '"args" must be an object');
    }
    const handler = entry.handler;
    if (handler === undefined) {
      return errorReply(name, nonce, RpcErrorCode.UnknownError, `${name} is not available in this version of Companion`);
    }
    const request: CommandRequest = { cmd: name, nonce, evt, args: (args ?? {}) as Record<string, unknown> };
    try {
      const data = handler({ connection, server: this, request, signal: connection.signal });
      if (data instanceof Promise) {
        const reply = data.then(
          (resolved: unknown) => successReply(name, nonce, resolved ?? null),
          (error: unknown) => this.failure(connection, request, error),
        );
        return entry.spec.concurrent === true ? new DetachedReply(reply) : reply;
      }
      return successReply(name, nonce, data ?? null);
    } catch (error) {
      return this.failure(connection, request, error);
    }
  }

  /**
   * Used by SET_ACTIVITY: its 'activity' event goes out once the reply is written, so the host's
   * work on it (the presence relay, the outcome log, the UI) stays off the game's round trip.
   * Measured 2026-11-25 side by side with arRPC (`BENCH_ARRPC=... npm run bench -- arrpc`): see
   * docs/performance.md.
   */
  announceAfterReply(change: ActivityChange): void {
    this.afterReply = change;
  }

  private afterReply: ActivityChange | undefined;

  replied(): void {
    const change = this.afterReply;
    if (change === undefined) return;
    this.afterReply = undefined;
    this.emit('activity', change);
  }

  repliesDropped(connection: RpcConnection): void {
    this.logger.info(
      { connection: connection.id, clientId: connection.clientId },
      'the client does not read its replies: SET_ACTIVITY replies it has not read are dropped (its activity is still applied)',
    );
    this.emit('replies-dropped', connection);
  }

  closed(connection: RpcConnection, info: DisconnectInfo): void {
    this.connectionsById.delete(connection.id);
    this.peerCap.remove(connection.id);
    if (connection.activity !== null) {
      const pid = connection.pid;
      connection.activity = null;
      this.emit('activity', { connection, pid, activity: null, cause: 'disconnect' });
    }
    if (!connection.wasProbe) {
      this.logger.debug(
        { connection: connection.id, reason: info.reason, code: info.code, detail: info.logMessage },
        'client disconnected',
      );
    }
    this.emit('disconnect', connection, info);
  }

  get trace(): FrameTracer | undefined {
    return this.listenerCount('frame') === 0 ? undefined : this.tracer;
  }

  /** One closure for every frame (the getter above is read per frame). */
  private readonly tracer: FrameTracer = (connection, direction, opcode, payload, json) =>
    this.emit('frame', { connectionId: connection.id, direction, opcode, payload, at: this.now(), json });

  /** Used by built-in commands. */
  recordSubscription(connection: RpcConnection, subscription: Subscription, subscribe: boolean): void {
    const key = subscriptionKey(subscription.evt, subscription.args);
    if (subscribe) {
      connection.subscriptions.set(key, subscription);
      if (this.listenerCount('subscribe') > 0) this.emit('subscribe', connection, subscription);
    } else connection.subscriptions.delete(key);
  }

  private failure(connection: RpcConnection, request: CommandRequest, error: unknown): CommandReply {
    if (error instanceof RpcError) {
      this.logger.debug({ connection: connection.id, cmd: request.cmd, code: error.code }, 'command refused');
      return errorReply(request.cmd, request.nonce, error.code, error.message);
    }
    this.logger.error(
      { connection: connection.id, cmd: request.cmd, error: error instanceof Error ? error.name : typeof error },
      'command handler failed',
    );
    return errorReply(request.cmd, request.nonce, RpcErrorCode.UnknownError, 'Unknown Error');
  }
}

/**
 * CLOSE 4002 with `message`, then the end. Input is read and dropped, so the socket closes as
 * soon as the peer closes its end; one whose peer neither reads nor closes is dropped after a
 * second.
 */
function refuseWith(io: ConnectionTransport, message: string): void {
  io.sink.write(encodeFrame(Opcode.Close, { code: CloseCode.RateLimited, message }));
  io.end();
  io.resume();
  setTimeout(() => io.destroy(), 1000).unref();
}
