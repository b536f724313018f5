import { readFile } from 'node:fs/promises';
import { ToneSource } from '../../../common/src/voice/tone.js';
import { VOICE_FRAME_SAMPLES, VOICE_SAMPLE_RATE } from '../../../common/src/voice/voice-wire.js';

/** An audio device as the Social SDK lists them (AudioDevice: id, name, isDefault). */
export interface AudioDevice {
  readonly id: string;
  readonly name: string;
  readonly isDefault: boolean;
}

export const VIRTUAL_INPUT_ID = 'companion-virtual-input';
export const VIRTUAL_OUTPUT_ID = 'companion-virtual-output';

/** Most input queued at once: 10 s (a game that writes faster than real time waits on `write`'s answer). */
const MAX_QUEUED_SAMPLES = VOICE_SAMPLE_RATE * 10;

/**
 * The SDK's microphone for a game without a sound card **(ours)**: the game writes 16-bit mono
 * PCM at 48 kHz (samples, a tone, a WAV file) and each call's capture takes 20 ms of it per
 * frame, in real time; with nothing queued the microphone is silent.
 */
export class VirtualInputDevice {
  private readonly queue: Int16Array[] = [];
  private queued = 0;
  private offset = 0;
  /** performance.now() when a queued sample first went from none to some (the bench's tone onset). */
  lastStartMs: number | undefined;

  /** The built-in one is the system's default input; the game may add more (virtual-device-set.ts). */
  constructor(readonly device: AudioDevice = { id: VIRTUAL_INPUT_ID, name: 'Companion virtual input', isDefault: true }) {}

  /** Queues samples to be "spoken"; answers how many samples were taken (fewer when 10 s are already queued). */
  write(samples: Int16Array): number {
    const room = Math.max(0, MAX_QUEUED_SAMPLES - this.queued);
    const taken = samples.length <= room ? samples : samples.subarray(0, room);
    if (taken.length === 0) return 0;
    if (this.queued === 0) this.lastStartMs = performance.now();
    this.queue.push(taken);
    this.queued += taken.length;
    return taken.length;
  }

  /** Queues a sine tone (default 440 Hz, 0.3 of full scale) for `durationMs`. */
  playTone(frequencyHz = 440, durationMs = 1000, amplitude = 0.3): number {
    return this.write(new ToneSource(frequencyHz, amplitude).next(Math.round((VOICE_SAMPLE_RATE * durationMs) / 1000)));
  }

  /** Queues a WAV file of 16-bit PCM at 48 kHz (mono, or its first channel). */
  async playWavFile(file: string): Promise<number> {
    return this.write(wavSamples(await readFile(file)));
  }

  /** Drops whatever is queued. */
  clear(): void {
    this.queue.length = 0;
    this.queued = 0;
    this.offset = 0;
  }

  get queuedSamples(): number {
    return this.queued;
  }

  /** The next frame of input (silence where nothing is queued). */
  read(samples = VOICE_FRAME_SAMPLES): Int16Array {
    const out = new Int16Array(samples);
    let filled = 0;
    while (filled < samples && this.queue.length > 0) {
      const head = this.queue[0] as Int16Array;
      const take = Math.min(samples - filled, head.length - this.offset);
      out.set(head.subarray(this.offset, this.offset + take), filled);
      filled += take;
      this.offset += take;
      this.queued -= take;
      if (this.offset === head.length) {
        this.queue.shift();
        this.offset = 0;
      }
    }
    return out;
  }
}

/** What the output plays, as a game reads it: the mixed frame of every call, each 20 ms. */
export type OutputListener = (samples: Int16Array, sampleRate: number, channels: number) => void;

/**
 * The SDK's speakers for a game without a sound card **(ours)**: every 20 ms the calls' mixed
 * audio (participants after the received-audio callback, their volume and the output volume)
 * goes to the listeners and into a ring the game can read (`read`, the last 10 s).
 */
export class VirtualOutputDevice {
  private readonly listeners = new Set<OutputListener>();
  private ring: Int16Array[] = [];
  private ringSamples = 0;

  /** The built-in one is the system's default output; the game may add more (virtual-device-set.ts). */
  constructor(readonly device: AudioDevice = { id: VIRTUAL_OUTPUT_ID, name: 'Companion virtual output', isDefault: true }) {}

  /** Calls `listener` with each played frame; answers a function that removes it. */
  onAudio(listener: OutputListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Everything played since the last read (at most 10 s), as one array. */
  read(): Int16Array {
    const out = new Int16Array(this.ringSamples);
    let at = 0;
    for (const frame of this.ring) {
      out.set(frame, at);
      at += frame.length;
    }
    this.ring = [];
    this.ringSamples = 0;
    return out;
  }

  /** A frame played (the calls' mix). */
  play(samples: Int16Array): void {
    this.ring.push(samples);
    this.ringSamples += samples.length;
    while (this.ringSamples > MAX_QUEUED_SAMPLES) this.ringSamples -= (this.ring.shift() as Int16Array).length;
    for (const listener of this.listeners) listener(samples, VOICE_SAMPLE_RATE, 1);
  }
}

/** The first channel of a 16-bit PCM WAV file at 48 kHz; a clear error for anything else. */
export function wavSamples(file: Buffer): Int16Array {
  if (file.length < 44 || file.toString('ascii', 0, 4) !== 'RIFF' || file.toString('ascii', 8, 12) !== 'WAVE') throw new Error('not a WAV file');
  let at = 12;
  let channels = 1;
  while (at + 8 <= file.length) {
    const id = file.toString('ascii', at, at + 4);
    const size = file.readUInt32LE(at + 4);
    const body = at + 8;
    if (id === 'fmt ') {
      channels = file.readUInt16LE(body + 2);
      const rate = file.readUInt32LE(body + 4);
      const bits = file.readUInt16LE(body + 14);
      if (file.readUInt16LE(body) !== 1 || bits !== 16 || rate !== VOICE_SAMPLE_RATE) throw new Error(`the WAV file must be 16-bit PCM at ${VOICE_SAMPLE_RATE} Hz (it is ${bits}-bit at ${rate} Hz)`);
    } else if (id === 'data') {
      const frames = Math.floor(Math.min(size, file.length - body) / (2 * channels));
      const out = new Int16Array(frames);
      for (let i = 0; i < frames; i += 1) out[i] = file.readInt16LE(body + i * 2 * channels);
      return out;
    }
    at = body + size + (size % 2);
  }
  throw new Error('the WAV file has no data chunk');
}
