import { peak } from '../audio/tone-analysis.js';

/** One 20 ms frame a game's received-audio callback got: when, and its samples. */
interface HeardFrame {
  readonly at: number;
  readonly samples: Int16Array;
}

/** A frame louder than this (peak, of 32,767) is sound, not silence or the jitter buffer's fade. */
const LOUD_PEAK = 500;
/** Frames kept per participant: a minute of audio. */
const MAX_FRAMES = 3000;

/**
 * What a scenario's SDK game heard in its lobby calls, per participant: the received-audio
 * callback's frames with their arrival time, a cursor per participant (an expect_audio uses what
 * came after the previous one), and the sample rate they came at.
 */
export class CallAudio {
  private readonly frames = new Map<string, HeardFrame[]>();
  private readonly cursors = new Map<string, number>();
  sampleRate = 48_000;

  /** The received-audio callback's work: keeps a copy (mono: the first channel). */
  record(userId: string, data: Int16Array, sampleRate: number, channels: number): void {
    this.sampleRate = sampleRate;
    const mono = channels === 1 ? data.slice() : data.filter((_sample, index) => index % channels === 0);
    const list = this.frames.get(userId) ?? [];
    list.push({ at: Date.now(), samples: mono });
    if (list.length > MAX_FRAMES) {
      list.shift();
      this.cursors.set(userId, Math.max(0, (this.cursors.get(userId) ?? 0) - 1));
    }
    this.frames.set(userId, list);
  }

  /** The last `count` loud frames from `userId` since the cursor, joined, or undefined when fewer came. */
  recentLoud(userId: string, count: number): Int16Array | undefined {
    const loud = this.unread(userId).filter((frame) => peak(frame.samples) > LOUD_PEAK);
    if (loud.length < count) return undefined;
    const picked = loud.slice(-count);
    const out = new Int16Array(picked.reduce((n, frame) => n + frame.samples.length, 0));
    let at = 0;
    for (const frame of picked) {
      out.set(frame.samples, at);
      at += frame.samples.length;
    }
    return out;
  }

  /** When the last loud frame from `userId` arrived (epoch ms), or 0. */
  lastLoudAt(userId: string): number {
    const list = this.frames.get(userId) ?? [];
    for (let i = list.length - 1; i >= 0; i -= 1) if (peak((list[i] as HeardFrame).samples) > LOUD_PEAK) return (list[i] as HeardFrame).at;
    return 0;
  }

  /** Frames from `userId` since the cursor (any loudness). */
  unreadCount(userId: string): number {
    return this.unread(userId).length;
  }

  /** Moves the cursor past what has come so far. */
  consume(userId: string): void {
    this.cursors.set(userId, this.frames.get(userId)?.length ?? 0);
  }

  private unread(userId: string): readonly HeardFrame[] {
    return (this.frames.get(userId) ?? []).slice(this.cursors.get(userId) ?? 0);
  }
}
