import type { VoiceServerMessage } from '../../../common/src/voice/voice-wire.js';
import type { WebSocket } from '../../../common/src/node/ws-module.js';

/** One participant's voice connection as the voice server relays to it: a WebSocket, or an in-process one (the simulated friend). */
export interface VoiceLink {
  readonly lobbyId: string;
  readonly userId: string;
  readonly ssrc: number;
  sendAudio(packet: Uint8Array): void;
  send(message: VoiceServerMessage): void;
  close(code: number, reason: string): void;
  /** Ends the connection as a network loss would (no close frame): the admin's fault injection. */
  drop(): void;
}

/**
 * A link's sent bytes not yet written to the socket beyond which audio is dropped, as a
 * congested UDP path would lose it: 50 raw PCM frames (one second) **(ours)**.
 */
const MAX_BUFFERED_AUDIO_BYTES = 100_000;

export class WebSocketLink implements VoiceLink {
  /** Audio packets dropped because the socket did not keep up. */
  dropped = 0;

  constructor(
    private readonly ws: WebSocket,
    readonly lobbyId: string,
    readonly userId: string,
    readonly ssrc: number,
  ) {}

  sendAudio(packet: Uint8Array): void {
    if (this.ws.readyState !== this.ws.OPEN) return;
    if (this.ws.bufferedAmount > MAX_BUFFERED_AUDIO_BYTES) {
      this.dropped += 1;
      return;
    }
    this.ws.send(packet, { binary: true });
  }

  send(message: VoiceServerMessage): void {
    if (this.ws.readyState === this.ws.OPEN) this.ws.send(JSON.stringify(message));
  }

  close(code: number, reason: string): void {
    this.ws.close(code, reason);
  }

  drop(): void {
    this.ws.terminate();
  }
}

/** An in-process participant: what it is sent goes to its callbacks. */
export class LocalLink implements VoiceLink {
  closed = false;

  constructor(
    readonly lobbyId: string,
    readonly userId: string,
    readonly ssrc: number,
    private readonly onAudio: (packet: Uint8Array) => void = () => undefined,
    private readonly onMessage: (message: VoiceServerMessage) => void = () => undefined,
  ) {}

  sendAudio(packet: Uint8Array): void {
    if (!this.closed) this.onAudio(packet);
  }

  send(message: VoiceServerMessage): void {
    if (!this.closed) this.onMessage(message);
  }

  close(): void {
    this.closed = true;
  }

  drop(): void {
    this.closed = true;
  }
}
