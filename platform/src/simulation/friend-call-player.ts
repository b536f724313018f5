import { pcmBytes } from '../../../common/src/voice/tone.js';
import { encodeAudioPacket, VOICE_FRAME_MS, VOICE_FRAME_SAMPLES } from '../../../common/src/voice/voice-wire.js';

/** Audio the friend plays: 20 ms frames (48 kHz mono 16-bit) until it runs out. */
export interface FrameSource {
  /** The next frame, or undefined when the source has ended. */
  next(): Int16Array | undefined;
  /** Frames still to come (for how long the friend will speak). */
  readonly framesLeft: number;
}

/** Samples already decoded (a WAV file's), cut into frames; the last one padded with silence. */
export class PcmFrames implements FrameSource {
  private at = 0;

  constructor(private readonly samples: Int16Array) {}

  get framesLeft(): number {
    return Math.ceil((this.samples.length - this.at) / VOICE_FRAME_SAMPLES);
  }

  next(): Int16Array | undefined {
    if (this.at >= this.samples.length) return undefined;
    const frame = new Int16Array(VOICE_FRAME_SAMPLES);
    frame.set(this.samples.subarray(this.at, this.at + VOICE_FRAME_SAMPLES));
    this.at += VOICE_FRAME_SAMPLES;
    return frame;
  }
}

/** A generator of frames (a tone) for a number of frames. */
export class CountedFrames implements FrameSource {
  private left: number;

  constructor(
    private readonly make: () => Int16Array,
    frames: number,
  ) {
    this.left = Math.max(1, frames);
  }

  get framesLeft(): number {
    return this.left;
  }

  next(): Int16Array | undefined {
    if (this.left <= 0) return undefined;
    this.left -= 1;
    return this.make();
  }
}

export interface PlayerOutput {
  /** Sends one encoded packet into the call (the voice server relays it); false when the link is gone. */
  send(packet: Uint8Array): boolean;
  /** The friend starts or stops speaking. */
  speaking(on: boolean): void;
}

/**
 * The simulated friend's mouth in one call: plays queued sources one after the other in real
 * time (a 20 ms frame every 20 ms, paced from the start so timers' lateness does not add up),
 * speaking while it plays. A source queued while playing follows on without a gap (a WAV file
 * sent in chunks plays as one).
 */
export class FriendCallPlayer {
  private readonly queue: { readonly source: FrameSource; readonly done: () => void }[] = [];
  private sequence = 0;
  private running = false;
  /** Bumped by stop(): a loop of an earlier generation ends when it wakes. */
  private generation = 0;

  constructor(private readonly output: PlayerOutput) {}

  get playing(): boolean {
    return this.running;
  }

  /** How many ms of queued audio are left. */
  get remainingMs(): number {
    return this.queue.reduce((sum, item) => sum + item.source.framesLeft, 0) * VOICE_FRAME_MS;
  }

  /** Queues a source; resolves when it has played (or was stopped). */
  play(source: FrameSource): Promise<void> {
    const done = new Promise<void>((resolve) => this.queue.push({ source, done: resolve }));
    if (!this.running) void this.run();
    return done;
  }

  /** Drops everything queued: the friend goes quiet at once. */
  stop(): void {
    for (const item of this.queue.splice(0)) item.done();
    this.generation += 1;
    if (!this.running) return;
    this.running = false;
    this.output.speaking(false);
  }

  private async run(): Promise<void> {
    this.running = true;
    this.output.speaking(true);
    const generation = this.generation;
    const start = performance.now();
    let frames = 0;
    for (let item = this.queue[0]; item !== undefined && generation === this.generation; item = this.queue[0]) {
      const frame = item.source.next();
      if (frame === undefined) {
        this.queue.shift();
        item.done();
        continue;
      }
      const timestamp = this.sequence * VOICE_FRAME_SAMPLES;
      if (!this.output.send(encodeAudioPacket({ ssrc: 0, sequence: this.sequence & 0xffff, timestamp: timestamp >>> 0, payload: pcmBytes(frame) }))) {
        this.stop();
        return;
      }
      this.sequence += 1;
      frames += 1;
      const wait = start + frames * VOICE_FRAME_MS - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
    if (generation !== this.generation) return;
    this.running = false;
    this.output.speaking(false);
  }
}
