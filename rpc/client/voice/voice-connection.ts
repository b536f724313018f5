import * as v from 'valibot';
import { WebSocket, type RawData } from '../../../common/src/node/ws-module.js';
import { decodeAudioPacket, VoiceClose, type AudioPacket, type VoiceClientMessage, type WireParticipant } from '../../../common/src/voice/voice-wire.js';
import { backoffDelay } from '../connection/backoff.js';

const Participant = v.object({ user_id: v.string(), ssrc: v.number(), self_mute: v.boolean(), self_deaf: v.boolean(), mute: v.boolean(), deaf: v.boolean(), speaking: v.boolean() });
const ServerMessage = v.variant('op', [
  v.object({ op: v.literal('ready'), lobby_id: v.string(), user_id: v.string(), ssrc: v.number(), codec: v.object({ name: v.string(), sample_rate: v.number(), channels: v.number(), frame_ms: v.number() }), participants: v.array(Participant) }),
  v.object({ op: v.literal('participant'), participant: Participant }),
  v.object({ op: v.literal('left'), user_id: v.string() }),
  v.object({ op: v.literal('speaking'), user_id: v.string(), speaking: v.boolean() }),
]);
export type VoiceServerEvent = v.InferOutput<typeof ServerMessage>;

/** What the connection tells its call. */
export interface VoiceConnectionHandlers {
  /** The socket is open and `identify` went out (SignalingConnected on a first connect). */
  opened(): void;
  message(message: VoiceServerEvent): void;
  audio(packet: AudioPacket, arrivalMs: number): void;
  /** The connection dropped and a new one is being made (Reconnecting). */
  reconnecting(code: number): void;
  /** The connection is over for good: `fatal` with why when the server refused it or reconnecting gave up. */
  closed(fatal: { readonly code: number; readonly reason: string } | null): void;
  log(message: string, severity: 'verbose' | 'info' | 'warning' | 'error'): void;
}

/** How long the SDK tries to reconnect a dropped voice connection before giving up (below the server's 20 s grace). */
const RECONNECT_FOR_MS = 15_000;
/** About a second of raw PCM packets. */
const MAX_BUFFERED_AUDIO_BYTES = 100_000;
const BACKOFF = { initialMs: 100, maxMs: 2_000, jitter: 0.25 } as const;
/** Codes after which reconnecting is pointless: the token names no participant any more, or the server refused what this side sent. */
const FATAL_CODES: ReadonlySet<number> = new Set([VoiceClose.AuthenticationFailed, VoiceClose.SessionNoLongerValid, VoiceClose.Replaced, VoiceClose.DecodeError, VoiceClose.AlreadyAuthenticated, VoiceClose.BadRequest]);

/**
 * One participant's connection to the emulator's voice server **(ours: common/src/voice/voice-wire.ts)**:
 * identifies with the call's token, sends and receives audio packets and control messages, and
 * reconnects by itself with backoff after a drop (a network loss), as SDK 1.6 does.
 */
export class VoiceConnection {
  private ws: WebSocket | undefined;
  private ending = false;
  private attempt = 0;
  private droppedAt: number | undefined;
  private retry: NodeJS.Timeout | undefined;

  constructor(
    private readonly endpoint: string,
    private readonly token: string,
    private readonly handlers: VoiceConnectionHandlers,
  ) {}

  open(): void {
    const ws = new WebSocket(this.endpoint, { perMessageDeflate: false });
    this.ws = ws;
    ws.binaryType = 'nodebuffer';
    ws.on('open', () => {
      ws.send(JSON.stringify({ op: 'identify', token: this.token } satisfies VoiceClientMessage));
      this.handlers.opened();
    });
    ws.on('message', (data: RawData, isBinary: boolean) => this.received(data, isBinary));
    ws.on('close', (code: number, reason: Buffer) => this.dropped(ws, code, reason.toString('utf8')));
    ws.on('error', (error: Error) => this.handlers.log(`voice connection error: ${error.message}`, 'verbose'));
  }

  /** The server's `ready` arrived: the connection is good, the reconnect backoff starts over. */
  established(): void {
    this.attempt = 0;
    this.droppedAt = undefined;
  }

  /** Sends a packet; drops it while the socket is more than a second of audio behind (as a congested UDP path would). */
  sendAudio(packet: Uint8Array): void {
    const ws = this.ws;
    if (ws !== undefined && ws.readyState === ws.OPEN && ws.bufferedAmount <= MAX_BUFFERED_AUDIO_BYTES) ws.send(packet, { binary: true });
  }

  sendSpeaking(speaking: boolean): void {
    const ws = this.ws;
    if (ws !== undefined && ws.readyState === ws.OPEN) ws.send(JSON.stringify({ op: 'speaking', speaking } satisfies VoiceClientMessage));
  }

  /** Ends the connection for good (endCall). */
  close(): void {
    this.ending = true;
    if (this.retry !== undefined) clearTimeout(this.retry);
    this.ws?.close(1000, 'call ended');
  }

  private received(data: RawData, isBinary: boolean): void {
    const buffer = Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data);
    if (isBinary) {
      const packet = decodeAudioPacket(buffer);
      if (packet !== undefined) this.handlers.audio(packet, performance.now());
      return;
    }
    let parsed: v.SafeParseResult<typeof ServerMessage>;
    try {
      parsed = v.safeParse(ServerMessage, JSON.parse(buffer.toString('utf8')));
    } catch {
      this.handlers.log('the voice server sent a message that is not JSON', 'warning');
      return;
    }
    if (parsed.success) this.handlers.message(parsed.output);
    else this.handlers.log(`the voice server sent an unknown message: ${parsed.issues[0]?.message ?? ''}`, 'warning');
  }

  private dropped(ws: WebSocket, code: number, reason: string): void {
    if (ws !== this.ws) return;
    if (this.ending) return this.handlers.closed(null);
    if (FATAL_CODES.has(code)) return this.handlers.closed({ code, reason });
    const now = performance.now();
    this.droppedAt ??= now;
    if (now - this.droppedAt > RECONNECT_FOR_MS) return this.handlers.closed({ code, reason: 'the voice connection could not be made again' });
    if (this.attempt === 0) this.handlers.reconnecting(code);
    const delay = backoffDelay(this.attempt, BACKOFF);
    this.attempt += 1;
    this.handlers.log(`voice connection closed (${code}); reconnecting in ${delay} ms`, 'info');
    this.retry = setTimeout(() => {
      this.retry = undefined;
      if (!this.ending) this.open();
    }, delay);
  }
}

export type { WireParticipant };
