import { pcmBytes } from '../../../common/src/voice/tone.js';

/**
 * How a 20 ms frame travels: the voice server relays payloads as they are, so only the two
 * SDK ends agree on it. Raw 16-bit PCM today (docs/architecture.md, "Voice": Opus measured
 * against it on loopback); an Opus codec is one more implementation of this interface.
 */
export interface VoiceCodec {
  /** The name the voice server's `ready` announces (`pcm16`). */
  readonly name: string;
  encode(samples: Int16Array): Uint8Array;
  /** The frame's samples; undefined for a payload that is not one (the jitter buffer conceals it). */
  decode(payload: Uint8Array): Int16Array | undefined;
}

/** 16-bit little-endian PCM, as captured. */
export class RawPcmCodec implements VoiceCodec {
  readonly name = 'pcm16';

  constructor(private readonly frameSamples: number) {}

  encode(samples: Int16Array): Uint8Array {
    return pcmBytes(samples);
  }

  decode(payload: Uint8Array): Int16Array | undefined {
    if (payload.byteLength !== this.frameSamples * 2) return undefined;
    // Copy: the packet's buffer may not be 2-byte aligned, and it is reused by the socket.
    const out = new Int16Array(this.frameSamples);
    new Uint8Array(out.buffer).set(payload);
    return out;
  }
}
