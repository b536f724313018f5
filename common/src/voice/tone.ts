import { VOICE_FRAME_SAMPLES, VOICE_SAMPLE_RATE } from './voice-wire.js';

/**
 * A sine tone cut into 20 ms frames of 16-bit mono samples at 48 kHz, continuous across frames
 * (the phase carries over): what the SDK's virtual input plays and the simulated friend "says".
 */
export class ToneSource {
  private phase = 0;

  constructor(
    readonly frequencyHz: number,
    /** 0..1 of full scale. */
    readonly amplitude = 0.3,
  ) {
    if (!(frequencyHz > 0 && frequencyHz < VOICE_SAMPLE_RATE / 2)) throw new RangeError('frequencyHz must be between 0 and the Nyquist frequency (24 000 Hz)');
    if (!(amplitude >= 0 && amplitude <= 1)) throw new RangeError('amplitude must be between 0 and 1');
  }

  /** The next `samples` samples (one frame by default). */
  next(samples = VOICE_FRAME_SAMPLES): Int16Array {
    const out = new Int16Array(samples);
    const step = (2 * Math.PI * this.frequencyHz) / VOICE_SAMPLE_RATE;
    for (let i = 0; i < samples; i += 1) {
      out[i] = Math.round(Math.sin(this.phase) * this.amplitude * 32767);
      this.phase += step;
    }
    this.phase %= 2 * Math.PI;
    return out;
  }
}

/** Little-endian bytes of samples (the wire's PCM payload), without copying when aligned. */
export function pcmBytes(samples: Int16Array): Uint8Array {
  return new Uint8Array(samples.buffer, samples.byteOffset, samples.byteLength);
}
