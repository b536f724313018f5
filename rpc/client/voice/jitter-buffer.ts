/**
 * The receiving side's jitter buffer for one participant, as a voice client keeps one: packets
 * go in by sequence number whenever they arrive; the playout clock takes one 20 ms frame per
 * tick. It starts playing once `target` frames wait, and adapts `target` to the measured
 * interarrival jitter (RFC 3550's estimate): 1 frame on a quiet loopback, up to 6 when packets
 * come in bursts. A missing frame with later ones waiting is lost: it is concealed (the last
 * frame again, attenuated) and skipped. When nothing waits it conceals without skipping (a
 * stretch: the frame still plays if it comes a little late, and the next talk spurt starts one
 * frame deeper), then goes silent and buffers again if nothing comes (the sender stopped
 * talking, or the network stalled). A frame that comes after its turn is dropped (late).
 */

export interface BufferStats {
  received: number;
  played: number;
  /** Frames that never came while later ones did. */
  lost: number;
  /** Frames that came after their turn. */
  late: number;
  /** Frames made up for lost or missing ones. */
  concealed: number;
  /** Frames dropped because the buffer held more than it should (catching up after a burst). */
  overflow: number;
  /** Times the next frame was not there on its turn while the talker was talking (stretched). */
  underruns: number;
}

export type PlayoutFrame = { readonly kind: 'audio' | 'concealed'; readonly samples: Int16Array } | { readonly kind: 'silence' };

const SEQUENCE_SPACE = 0x10000;
const MIN_TARGET = 1;
const MAX_TARGET = 6;
/** Concealed frames played when the buffer runs dry before going silent. */
const MAX_UNDERRUN_CONCEALMENT = 2;
/** Each concealed frame in a row is this much quieter (a fade rather than a loop). */
const CONCEALMENT_DECAY = 0.5;
/** Least time between a talk spurt's first frame arriving and its playout starting. */
const START_MARGIN_MS = 3;
/** Most extra frames of target after underruns. */
const MAX_PENALTY = 2;
/** Frames played without an underrun (2 s) after which one extra frame of target goes. */
const UNDERRUN_FORGIVEN_FRAMES = 100;

/** `a - b` in 16-bit sequence space, in -32768..32767. */
function sequenceDelta(a: number, b: number): number {
  const d = (a - b) & 0xffff;
  return d >= SEQUENCE_SPACE / 2 ? d - SEQUENCE_SPACE : d;
}

export class JitterBuffer {
  private readonly frames = new Map<number, Int16Array>();
  private next: number | undefined;
  private playing = false;
  private lastFrame: Int16Array | undefined;
  private concealedInRow = 0;
  private jitterMs = 0;
  /** When the first frame of the waiting ones came (a talk spurt's start). */
  private firstArrivalMs = 0;
  /** Extra frames of target after underruns; one goes after each UNDERRUN_FORGIVEN_FRAMES played without one. */
  private penalty = 0;
  private playedSinceUnderrun = 0;
  private lastTransitMs: number | undefined;
  readonly stats: BufferStats = { received: 0, played: 0, lost: 0, late: 0, concealed: 0, overflow: 0, underruns: 0 };

  constructor(
    private readonly frameMs: number,
    private readonly sampleRate: number,
  ) {}

  /** Frames the playout waits for before starting: adapts to the jitter, and one more per recent underrun. */
  get target(): number {
    return Math.min(MAX_TARGET, Math.max(MIN_TARGET, Math.ceil((2 * this.jitterMs) / this.frameMs)) + this.penalty);
  }

  get buffered(): number {
    return this.frames.size;
  }

  /** The interarrival jitter estimate (ms). */
  get jitter(): number {
    return this.jitterMs;
  }

  /** A packet arrived at `arrivalMs` (a monotonic clock) with its sequence number and timestamp (in samples). */
  push(sequence: number, timestamp: number, samples: Int16Array, arrivalMs: number): void {
    this.stats.received += 1;
    this.measure(timestamp, arrivalMs);
    const seq = sequence & 0xffff;
    if (this.playing && this.next !== undefined && sequenceDelta(seq, this.next) < 0) {
      this.stats.late += 1;
      return;
    }
    // The frame the playout stretched for came after all: an underrun (not the talker stopping).
    if (this.playing && this.concealedInRow > 0 && this.frames.size === 0 && seq === this.next) this.underrun();
    this.frames.set(seq, samples);
    if (this.frames.size === 1 && !this.playing) this.firstArrivalMs = arrivalMs;
    while (this.frames.size > this.target + 4) this.dropOldest();
  }

  /**
   * The frame to play at the tick of `nowMs` (the clock of `push`'s arrivals). Playout starts
   * only at a tick some margin after the first frame came (twice the jitter, at least 3 ms), so
   * that a talker whose packets arrive just around the listener's tick does not underrun.
   */
  pop(nowMs = Number.POSITIVE_INFINITY): PlayoutFrame {
    if (!this.playing) {
      if (this.frames.size < this.target) return { kind: 'silence' };
      if (nowMs - this.firstArrivalMs < Math.max(START_MARGIN_MS, 2 * this.jitterMs) && this.frames.size === this.target) return { kind: 'silence' };
      this.playing = true;
      this.next = this.oldest();
    }
    const next = this.next as number;
    const frame = this.frames.get(next);
    if (frame !== undefined) {
      this.frames.delete(next);
      this.advance();
      this.lastFrame = frame;
      this.concealedInRow = 0;
      this.stats.played += 1;
      if (++this.playedSinceUnderrun >= UNDERRUN_FORGIVEN_FRAMES && this.penalty > 0) {
        this.penalty -= 1;
        this.playedSinceUnderrun = 0;
      }
      return { kind: 'audio', samples: frame };
    }
    if (this.frames.size > 0) {
      this.stats.lost += 1;
      this.advance();
      return this.conceal();
    }
    if (this.concealedInRow < MAX_UNDERRUN_CONCEALMENT && this.lastFrame !== undefined) {
      // The next frame is not here yet: stretch (conceal without skipping it), so that when it
      // comes a little late it still plays, one frame later; the next talk spurt waits for more.
      return this.conceal();
    }
    this.playing = false;
    this.lastFrame = undefined;
    this.concealedInRow = 0;
    return { kind: 'silence' };
  }

  /** Forgets everything queued (the sender's connection started over). */
  reset(): void {
    this.frames.clear();
    this.playing = false;
    this.next = undefined;
    this.lastFrame = undefined;
    this.lastTransitMs = undefined;
  }

  private underrun(): void {
    this.stats.underruns += 1;
    this.penalty = Math.min(MAX_PENALTY, this.penalty + 1);
    this.playedSinceUnderrun = 0;
  }

  private conceal(): PlayoutFrame {
    this.concealedInRow += 1;
    this.stats.concealed += 1;
    const source = this.lastFrame;
    if (source === undefined) return { kind: 'silence' };
    const gain = CONCEALMENT_DECAY ** this.concealedInRow;
    const out = new Int16Array(source.length);
    for (let i = 0; i < source.length; i += 1) out[i] = Math.round((source[i] as number) * gain);
    return { kind: 'concealed', samples: out };
  }

  private advance(): void {
    this.next = ((this.next as number) + 1) & 0xffff;
  }

  /** RFC 3550 §6.4.1: J += (|D| - J) / 16, D the change in transit time between packets. */
  private measure(timestamp: number, arrivalMs: number): void {
    const transit = arrivalMs - (timestamp / this.sampleRate) * 1000;
    if (this.lastTransitMs !== undefined) {
      const d = Math.abs(transit - this.lastTransitMs);
      // A jump of seconds is a new talk spurt or a restarted sender, not jitter.
      if (d < 1000) this.jitterMs += (d - this.jitterMs) / 16;
    }
    this.lastTransitMs = transit;
  }

  private oldest(): number {
    let oldest: number | undefined;
    for (const seq of this.frames.keys()) if (oldest === undefined || sequenceDelta(seq, oldest) < 0) oldest = seq;
    return oldest as number;
  }

  private dropOldest(): void {
    const oldest = this.oldest();
    this.frames.delete(oldest);
    this.stats.overflow += 1;
    if (this.playing && this.next !== undefined && sequenceDelta(oldest, this.next) >= 0) this.next = (oldest + 1) & 0xffff;
  }
}
