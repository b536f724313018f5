import { encodeFrame, encodeRawFrame, HEADER_SIZE, type RawFrame } from '../framing/frame-codec.js';
import { CloseCode, RpcErrorCode } from '../protocol/codes.js';
import { exceedsJsonDepth, MAX_JSON_DEPTH } from '../protocol/json-depth.js';
import { nonceOfUnreadPayload } from '../protocol/json-member.js';
import { Opcode } from '../protocol/opcodes.js';
import { errorReply, type CommandReply } from '../protocol/envelope.js';
import type { HandshakeOutcome } from '../protocol/handshake.js';
import type { GatewayActivity } from '../commands/set-activity.js';
import type { JsonText } from '../protocol/json-text.js';
import { OutboundQueue } from './outbound-queue.js';
import { encodeReplyFrame, plainReply } from './reply-frame.js';
import { DetachedReply } from './detached-reply.js';
import { OutputShaper } from './output-shaper.js';
import type { ConnectionTransport, RemotePeer, Transport, TransportReceiver } from '../transport/connection-transport.js';

const TOO_DEEP = `Payload nested deeper than ${MAX_JSON_DEPTH} levels`;

export type ConnectionState = 'handshake' | 'ready' | 'closing' | 'closed';

export interface Subscription {
  readonly evt: string;
  readonly args: Readonly<Record<string, unknown>>;
}

export interface DisconnectInfo {
  /** Who ended it and why. */
  readonly reason:
    | 'peer-closed'
    | 'peer-close-frame'
    | 'protocol-error'
    | 'handshake-refused'
    | 'handshake-timeout'
    | 'server-shutdown'
    /** The app's authorization was revoked (CLOSE 4003). */
    | 'token-revoked'
    | 'slow-consumer';
  readonly code?: number;
  /** The CLOSE message sent to the client. May quote the client's own bytes: never log it. */
  readonly message?: string;
  /** A description safe to log: never contains client data. */
  readonly logMessage?: string;
}

/**
 * `json`: the payload's JSON exactly as it went over the wire (the frame's body), when the
 * payload was parsed from it or encoded into it; a view that is only valid during the call.
 */
export type FrameTracer = (connection: RpcConnection, direction: 'in' | 'out', opcode: number, payload: unknown, json?: Uint8Array) => void;

/** What a connection needs from the server that owns it. */
export interface ConnectionHost {
  /** Decides the handshake; on success it carries the app's name and the READY to send. */
  handshake(connection: RpcConnection, payload: unknown): HandshakeOutcome | Promise<HandshakeOutcome>;
  /** READY has been written. */
  ready(connection: RpcConnection): void;
  command(connection: RpcConnection, payload: unknown): CommandReply | Promise<CommandReply> | DetachedReply;
  closed(connection: RpcConnection, info: DisconnectInfo): void;
  /** The first reply this connection's client did not read was dropped (said once per connection). */
  repliesDropped?(connection: RpcConnection): void;
  /**
   * The reply of a command answered at once has been handed to the socket (or dropped: the peer
   * left): the place for the command's effects that the reply does not wait for.
   */
  replied?(connection: RpcConnection): void;
  /** Frame tracing; undefined while nobody listens, so the hot path pays nothing. */
  readonly trace: FrameTracer | undefined;
}

export interface ConnectionOptions {
  readonly maxPayload: number;
  /** Above this many unsent bytes the peer is disconnected as not reading. */
  readonly maxBufferedBytes: number;
  readonly eventGapMs: number;
  /**
   * Frames wait in the connection's queue while the socket holds this many unsent bytes, and
   * reading pauses while more than this many bytes of needed frames wait there.
   */
  readonly outputHighWater: number;
  /** Reading pauses while this many frames wait behind a command that has not answered. */
  readonly maxBacklog: number;
  /** A connection that has not completed the handshake by then is closed. */
  readonly handshakeTimeoutMs: number;
  /** After the peer leaves, how long a pending command may run before the connection is finalised. */
  readonly closeGraceMs: number;
}

/** A protocol violation: the connection is closed with CLOSE 1003 and this message. */
export class ProtocolViolation extends Error {
  constructor(
    message: string,
    /** Same meaning without any client data (JSON parser text can quote the input). */
    readonly logMessage: string = message,
  ) {
    super(message);
  }
}

/**
 * One client connection over a transport (IPC or WebSocket, see ConnectionTransport): the
 * handshake state machine, in-order command processing, and its own activity and
 * subscriptions.
 *
 * Frames are handled in the order received; a handler that returns a promise holds later
 * frames back until it settles (reading pauses once `maxBacklog` wait). PING is answered
 * at once whatever is pending, as the real client does in its transport. A close is
 * processed after every frame already received; a command still pending then is told
 * through `signal` and gets `closeGraceMs` to finish.
 */
export class RpcConnection {
  state: ConnectionState = 'handshake';
  clientId: string | null = null;
  /** The application's display name, resolved once at the handshake. */
  applicationName = '';
  pid: number | null = null;
  activity: GatewayActivity | null = null;
  /** The last SET_ACTIVITY reply's JSON text, reused while the game repeats its activity. */
  activityJson: JsonText | null = null;
  authenticated = false;
  /** The scopes of the access token given in AUTHENTICATE (empty until then). */
  scopes: ReadonlySet<string> = new Set();
  /** The application the AUTHENTICATE token belongs to, for revocation. */
  authenticatedApplicationId: string | null = null;
  readonly subscriptions = new Map<string, Subscription>();
  readonly connectedAt = Date.now();

  /** 'ipc' or 'websocket'. */
  readonly transport: Transport;
  /** The other end, as far as the transport knows it. */
  readonly remote: RemotePeer;
  private readonly out: OutboundQueue;
  /** QA output shaping (delay, split, coalesce); writes straight through until set. */
  readonly output: OutputShaper;
  private readonly backlog: RawFrame[] = [];
  /**
   * Made when a handler first asks for `signal`: an AbortSignal costs about 2.7 µs to make and
   * aborting it as much again, which a connection that never sends a command (a probe, a
   * handshake-only client) does not need (measured 2026-11-25).
   */
  private aborter: AbortController | undefined;
  private busy = false;
  private stopped = false;
  private socketClosed = false;
  private paused = false;
  private endInfo: DisconnectInfo | undefined;
  private sawBytes = false;
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();

  constructor(
    readonly id: string,
    private readonly io: ConnectionTransport,
    private readonly host: ConnectionHost,
    private readonly options: ConnectionOptions,
  ) {
    this.transport = io.kind;
    this.remote = io.remote;
    this.output = new OutputShaper(io.sink);
    this.out = new OutboundQueue(this.output, {
      eventGapMs: options.eventGapMs,
      maxBufferedBytes: options.maxBufferedBytes,
      onOverflow: () => this.abort({ reason: 'slow-consumer' }),
      holdAbove: options.outputHighWater,
      onDropped: (total) => {
        if (total === 1) this.host.repliesDropped?.(this);
      },
    });
    const receiver: TransportReceiver = {
      received: (frames, refused) => this.onFrames(frames, refused),
      drained: () => {
        this.out.drained();
        this.updateReading();
      },
      closed: () => this.onSocketClose(),
    };
    io.bind(receiver);
    this.after(options.handshakeTimeoutMs, () => {
      if (this.state === 'handshake') {
        this.close(CloseCode.Unsupported, 'did not handshake in time', 'handshake-timeout');
      }
    });
  }

  /** Its handshake is being decided (the application looked up): READY or a refusal comes next. */
  get handshakePending(): boolean {
    return this.state === 'handshake' && this.busy;
  }

  /** True when the peer connected and left without sending a byte (a liveness probe). */
  get wasProbe(): boolean {
    return !this.sawBytes;
  }

  /** Aborted when the peer disconnects: long-running handlers (consent prompts) stop on it. */
  get signal(): AbortSignal {
    if (this.aborter === undefined) {
      this.aborter = new AbortController();
      if (this.socketClosed) this.aborter.abort(new Error('the client disconnected'));
    }
    return this.aborter.signal;
  }

  /** Sends an unsolicited DISPATCH frame (already encoded) through the paced event queue. */
  sendEvent(frame: Buffer, payload: unknown): void {
    if (this.state !== 'ready') return;
    this.host.trace?.(this, 'out', Opcode.Frame, payload, frame.subarray(HEADER_SIZE));
    this.out.event(frame);
  }

  /** Server-initiated close: CLOSE {code, message}, then end. */
  close(
    code: number,
    message: string,
    reason: DisconnectInfo['reason'] = 'server-shutdown',
    logMessage: string = message,
  ): void {
    if (this.stopped) return;
    this.sendClose(code, message);
    this.finishInput({ reason, code, message, logMessage });
  }

  private onFrames(frames: readonly RawFrame[], refused: string | undefined): void {
    if (this.stopped) return;
    this.sawBytes = true;
    for (const frame of frames) {
      if (this.stopped) return;
      if (frame.opcode === Opcode.Ping) this.answerPing(frame);
      else if (this.busy || this.backlog.length > 0) this.backlog.push(frame);
      else this.process(frame);
    }
    if (refused !== undefined) this.violation(new ProtocolViolation(refused));
    this.updateReading();
  }

  /** Pauses reading while output backs up or frames queue behind a pending command. */
  private updateReading(): void {
    if (this.socketClosed) return;
    // The shaper's count includes bytes it holds back (QA delay), so reading pauses for them too.
    // Replies the queue may drop do not count: a game that never reads its SET_ACTIVITY
    // replies keeps being read (the shaper's count, QA-held bytes included, sits in the socket's).
    const hold = this.out.heldBytes > this.options.outputHighWater || this.backlog.length >= this.options.maxBacklog;
    if (hold && !this.paused) {
      this.paused = true;
      this.io.pause();
    } else if (!hold && this.paused && !this.stopped) {
      this.paused = false;
      this.io.resume();
    }
  }

  /** Handles one frame; a violation (thrown or rejected) closes the connection. */
  private process(frame: RawFrame): void {
    let result: void | Promise<void>;
    try {
      result = this.handleFrame(frame);
    } catch (error) {
      this.failed(error);
      return;
    }
    if (result instanceof Promise) {
      this.busy = true;
      result.catch((error: unknown) => this.failed(error)).then(() => this.resume());
    }
  }

  private resume(): void {
    this.busy = false;
    while (!this.busy && !this.stopped && this.backlog.length > 0) {
      this.process(this.backlog.shift() as RawFrame);
    }
    if (this.busy) return;
    if (this.socketClosed) this.finalize();
    else this.updateReading();
  }

  private failed(error: unknown): void {
    this.violation(error instanceof ProtocolViolation ? error : new ProtocolViolation('internal error'));
  }

  private answerPing(frame: RawFrame): void {
    let payload: unknown;
    try {
      payload = parseBody(frame.body, Opcode.Ping);
    } catch (error) {
      this.failed(error);
      return;
    }
    this.host.trace?.(this, 'in', Opcode.Ping, payload, frame.body);
    // The PONG echoes the PING's body: the same payload, traced as what went out.
    this.host.trace?.(this, 'out', Opcode.Pong, payload, frame.body);
    this.out.reply(encodeRawFrame(Opcode.Pong, frame.body));
  }

  private handleFrame(frame: RawFrame): void | Promise<void> {
    const { opcode, body } = frame;
    switch (opcode) {
      case Opcode.Pong:
        this.host.trace?.(this, 'in', opcode, parseBody(body, opcode), body);
        return;
      case Opcode.Close:
        this.host.trace?.(this, 'in', opcode, parseBody(body, opcode, true));
        this.finishInput({ reason: 'peer-close-frame' });
        return;
      case Opcode.Handshake: {
        if (this.state !== 'handshake') throw new ProtocolViolation('already did handshake');
        const payload = parseBody(body, opcode);
        this.host.trace?.(this, 'in', opcode, payload, body);
        const outcome = this.host.handshake(this, payload);
        if (outcome instanceof Promise) return outcome.then((result) => this.completeHandshake(result));
        this.completeHandshake(outcome);
        return;
      }
      case Opcode.Frame: {
        if (this.state === 'handshake') throw new ProtocolViolation('did not handshake');
        if (exceedsJsonDepth(body)) {
          // Refused unread, as an ERROR the client can match by its nonce (looked for among
          // the top-level members without parsing the rest); the socket stays open.
          this.host.trace?.(this, 'in', opcode, null);
          this.sendReply(errorReply(null, nonceOfUnreadPayload(body), RpcErrorCode.InvalidPayload, TOO_DEEP));
          return;
        }
        const payload = parseJson(body, opcode);
        this.host.trace?.(this, 'in', opcode, payload, body);
        const reply = this.host.command(this, payload);
        if (reply instanceof Promise) return reply.then((r) => this.sendReply(r));
        if (reply instanceof DetachedReply) {
          // Later frames go on; the reply follows whenever it is ready (sendReply drops it if
          // the client has left meanwhile: the command was told through its abort signal).
          reply.reply.then((r) => this.sendReply(r), (error: unknown) => this.failed(error));
          return;
        }
        try {
          this.sendReply(reply);
        } finally {
          this.host.replied?.(this);
        }
        return;
      }
      default:
        throw new ProtocolViolation(`protocol error: unknown opcode ${opcode}`);
    }
  }

  private completeHandshake(result: HandshakeOutcome): void {
    if (this.stopped) return;
    if (!result.ok) {
      this.close(result.code, result.message, 'handshake-refused', result.reason);
      return;
    }
    this.clientId = result.clientId;
    this.applicationName = result.applicationName;
    this.state = 'ready';
    this.sendReply(result.ready);
    this.host.ready(this);
  }

  private sendReply(payload: CommandReply): void {
    if (this.socketClosed) return;
    const frame = encodeReplyFrame(payload);
    this.host.trace?.(this, 'out', Opcode.Frame, plainReply(payload), frame.subarray(HEADER_SIZE));
    this.out.reply(frame, payload.evt === null && payload.cmd === 'SET_ACTIVITY' ? 'droppable' : 'needed');
  }

  /** SET_ACTIVITY replies dropped unsent because the client did not read them. */
  get droppedReplies(): number {
    return this.out.dropped;
  }

  private violation(error: ProtocolViolation): void {
    this.close(CloseCode.Unsupported, error.message, 'protocol-error', error.logMessage);
  }

  private sendClose(code: number, message: string): void {
    if (this.socketClosed) return;
    const payload = { code, message };
    const frame = encodeFrame(Opcode.Close, payload);
    this.host.trace?.(this, 'out', Opcode.Close, payload, frame.subarray(HEADER_SIZE));
    this.out.final(frame);
  }

  /** Stops reading: nothing after this frame is processed, and the socket is ended. */
  private finishInput(info: DisconnectInfo): void {
    if (this.stopped) return;
    this.stopped = true;
    this.endInfo = info;
    this.backlog.length = 0;
    if (this.state !== 'closed') this.state = 'closing';
    this.io.end();
    // A peer that never reads must not keep the socket half-open for ever.
    this.after(1000, () => this.io.destroy());
  }

  private abort(info: DisconnectInfo): void {
    if (!this.stopped) {
      this.stopped = true;
      this.endInfo = info;
      this.backlog.length = 0;
    }
    this.io.destroy();
  }

  private onSocketClose(): void {
    this.socketClosed = true;
    this.out.clear();
    this.aborter?.abort(new Error('the client disconnected'));
    if (!this.busy) {
      this.finalize();
      return;
    }
    // A command is still pending: give it a bounded time, then finalise without it.
    this.after(this.options.closeGraceMs, () => {
      this.backlog.length = 0;
      this.finalize();
    });
  }

  private finalize(): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.host.closed(this, this.endInfo ?? { reason: 'peer-closed' });
  }

  private after(ms: number, action: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      action();
    }, ms);
    timer.unref();
    this.timers.add(timer);
  }
}

/**
 * JSON body of a frame. An empty body is `null` (xhayper sends length 0 for an empty
 * message). Bad JSON is a protocol violation; its message is Node's parser text.
 */
function parseBody(body: Buffer, opcode: number, lenient = false): unknown {
  if (body.length > 0 && exceedsJsonDepth(body)) {
    if (lenient) return null;
    throw new ProtocolViolation(`${opcodeName(opcode)} frame: ${TOO_DEEP}`);
  }
  return parseJson(body, opcode, lenient);
}

/** parseBody without the depth check, for a FRAME body already checked (it answers a deep one with an ERROR instead). */
function parseJson(body: Buffer, opcode: number, lenient = false): unknown {
  if (body.length === 0) return null;
  try {
    return JSON.parse(body.toString('utf8'));
  } catch (error) {
    if (lenient) return null;
    const reason = error instanceof Error ? error.message : 'invalid JSON';
    const what = `invalid JSON in ${opcodeName(opcode)} frame`;
    throw new ProtocolViolation(`${what}: ${reason}`, what);
  }
}

function opcodeName(opcode: number): string {
  return ['HANDSHAKE', 'FRAME', 'CLOSE', 'PING', 'PONG'][opcode] ?? String(opcode);
}
