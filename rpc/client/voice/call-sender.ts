import { encodeAudioPacket, VOICE_FRAME_SAMPLES } from '../../../common/src/voice/voice-wire.js';
import { AudioModeType } from './call-types.js';
import type { VoiceCodec } from './codec.js';
import { levelDb } from './pcm.js';

/** After the level falls below the threshold, speaking lasts this many frames more (VAD hangover, 200 ms) **(ours)**. */
const VAD_HANGOVER_FRAMES = 10;
/** The automatic VAD threshold **(ours)**: a frame louder than -50 dBFS is speech. */
export const AUTOMATIC_VAD_THRESHOLD_DB = -50;

/**
 * The sending half of one call: decides from each captured frame whether the player speaks
 * (voice activity detection with a threshold and a hangover, or push to talk with its release
 * delay), and while they do (and are neither muted nor deafened) encodes and numbers the frame
 * (sequence per packet, timestamp per 20 ms) for the voice connection.
 */
export class CallSender {
  audioMode: AudioModeType = AudioModeType.VAD;
  vadAutomatic = true;
  vadThresholdDb = AUTOMATIC_VAD_THRESHOLD_DB;
  pttActive = false;
  pttReleaseDelayMs = 20;
  private pttReleasedAt: number | undefined;
  private hangover = 0;
  private sequence = 0;
  private timestamp = 0;
  speaking = false;

  constructor(private readonly codec: VoiceCodec) {}

  setPTTActive(active: boolean, nowMs: number): void {
    if (this.pttActive && !active) this.pttReleasedAt = nowMs;
    this.pttActive = active;
  }

  /**
   * One frame captured: answers whether the player speaks now, and the packet to send (none
   * while silent, muted or deafened). The timestamp advances whether or not a packet goes.
   */
  frame(samples: Int16Array, ssrc: number, canSend: boolean, nowMs: number): { readonly speaking: boolean; readonly packet: Uint8Array | undefined } {
    const speaking = canSend && this.detect(samples, nowMs);
    this.speaking = speaking;
    const timestamp = this.timestamp;
    this.timestamp = (this.timestamp + VOICE_FRAME_SAMPLES) >>> 0;
    if (!speaking) return { speaking, packet: undefined };
    const packet = encodeAudioPacket({ ssrc, sequence: this.sequence, timestamp, payload: this.codec.encode(samples) });
    this.sequence = (this.sequence + 1) & 0xffff;
    return { speaking, packet };
  }

  private detect(samples: Int16Array, nowMs: number): boolean {
    if (this.audioMode === AudioModeType.PTT) {
      return this.pttActive || (this.pttReleasedAt !== undefined && nowMs - this.pttReleasedAt < this.pttReleaseDelayMs);
    }
    const threshold = this.vadAutomatic ? AUTOMATIC_VAD_THRESHOLD_DB : this.vadThresholdDb;
    if (levelDb(samples) > threshold) this.hangover = VAD_HANGOVER_FRAMES;
    else if (this.hangover > 0) this.hangover -= 1;
    return this.hangover > 0;
  }
}
