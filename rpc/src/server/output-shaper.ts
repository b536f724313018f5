import { Opcode } from '../protocol/opcodes.js';
import type { FrameSink } from './outbound-queue.js';

/**
 * How the frames written to one connection are disturbed, for QA (the control API's output
 * injection): games must cope with late replies and with frames that arrive in pieces or
 * several to a read. Stages apply in this order: delay, coalesce, split.
 */
export interface OutputShaping {
  /** Every frame is written this many ms after the connection handed it over; order is kept. */
  readonly delayMs?: number;
  /** Frames wait until `frames` of them are held, or `windowMs` after the first, then go out in one write. */
  readonly coalesce?: { readonly frames: number; readonly windowMs: number };
  /** Each write is cut into `parts` pieces (as equal as the length allows), written `gapMs` apart. */
  readonly split?: { readonly parts: number; readonly gapMs: number };
}

export const OUTPUT_SHAPING_LIMITS = {
  maxDelayMs: 60_000,
  maxFrames: 64,
  maxWindowMs: 10_000,
  maxParts: 64,
  maxGapMs: 10_000,
} as const;

function checkInteger(value: number, min: number, max: number, name: string): void {
  if (!Number.isInteger(value) || value < min || value > max) throw new RangeError(`${name} must be an integer from ${min} to ${max}, got ${value}`);
}

/** Throws RangeError naming the first bad field; null when nothing is shaped any more. */
export function checkOutputShaping(shaping: OutputShaping): OutputShaping | null {
  const limits = OUTPUT_SHAPING_LIMITS;
  const out: { delayMs?: number; coalesce?: NonNullable<OutputShaping['coalesce']>; split?: NonNullable<OutputShaping['split']> } = {};
  if (shaping.delayMs !== undefined) {
    checkInteger(shaping.delayMs, 0, limits.maxDelayMs, 'delayMs');
    if (shaping.delayMs > 0) out.delayMs = shaping.delayMs;
  }
  if (shaping.coalesce !== undefined) {
    checkInteger(shaping.coalesce.frames, 2, limits.maxFrames, 'coalesce.frames');
    checkInteger(shaping.coalesce.windowMs, 1, limits.maxWindowMs, 'coalesce.windowMs');
    out.coalesce = { frames: shaping.coalesce.frames, windowMs: shaping.coalesce.windowMs };
  }
  if (shaping.split !== undefined) {
    checkInteger(shaping.split.parts, 2, limits.maxParts, 'split.parts');
    checkInteger(shaping.split.gapMs, 0, limits.maxGapMs, 'split.gapMs');
    out.split = { parts: shaping.split.parts, gapMs: shaping.split.gapMs };
  }
  return Object.keys(out).length === 0 ? null : out;
}

/** Cuts a buffer into `parts` pieces (fewer when it is shorter), none empty. */
export function splitBuffer(buffer: Buffer, parts: number): Buffer[] {
  const count = Math.max(1, Math.min(parts, buffer.length));
  const pieces: Buffer[] = [];
  let start = 0;
  for (let index = 0; index < count; index += 1) {
    const end = Math.round(((index + 1) * buffer.length) / count);
    pieces.push(buffer.subarray(start, end));
    start = end;
  }
  return pieces;
}

interface Delayed {
  readonly frame: Buffer;
  readonly due: number;
}

type Timer = ReturnType<typeof setTimeout>;

/**
 * Sits between a connection's outbound queue and its socket. Unset (the normal case) it
 * writes each frame straight through. Set, it holds frames and writes them late, together or
 * in pieces (see OutputShaping). A CLOSE frame is never held: the socket ends right after it,
 * so whatever is held goes out at once, then the CLOSE. Changing or clearing the shaping
 * writes what the previous one held at once; the new one applies to later frames.
 */
export class OutputShaper implements FrameSink {
  private shaping: OutputShaping | null = null;
  private readonly delayed: Delayed[] = [];
  private batch: Buffer[] = [];
  private readonly pieces: Buffer[] = [];
  private heldBytes = 0;
  private delayTimer: Timer | undefined;
  private batchTimer: Timer | undefined;
  private pieceTimer: Timer | undefined;

  constructor(
    private readonly sink: FrameSink,
    private readonly now: () => number = () => performance.now(),
  ) {}

  get destroyed(): boolean {
    return this.sink.destroyed;
  }

  get writable(): boolean {
    return this.sink.writable;
  }

  /** The socket's unsent bytes plus the bytes held here, so backpressure still sees them. */
  get writableLength(): number {
    return this.sink.writableLength + this.heldBytes;
  }

  /** The shaping in force, or null. */
  get current(): OutputShaping | null {
    return this.shaping;
  }

  /** Replaces the shaping (null or an empty one: none). Throws RangeError for bad values. */
  set(shaping: OutputShaping | null): OutputShaping | null {
    const checked = shaping === null ? null : checkOutputShaping(shaping);
    this.flushAll();
    this.shaping = checked;
    return checked;
  }

  write(frame: Buffer): boolean {
    const shaping = this.shaping;
    // Unset, nothing is ever held (set() writes it out): the normal path costs one check.
    if (shaping === null) return this.sink.write(frame);
    if (isCloseFrame(frame)) {
      this.flushAll();
      return this.sink.write(frame);
    }
    this.heldBytes += frame.length;
    if (shaping.delayMs !== undefined) {
      this.delayed.push({ frame, due: this.now() + shaping.delayMs });
      this.armDelay();
    } else {
      this.toBatch(frame);
    }
    return true;
  }

  private armDelay(): void {
    if (this.delayTimer !== undefined) return;
    const head = this.delayed[0];
    if (head === undefined) return;
    this.delayTimer = setTimeout(() => {
      this.delayTimer = undefined;
      if (this.dropIfGone()) return;
      const now = this.now();
      while (this.delayed.length > 0 && (this.delayed[0] as Delayed).due <= now) this.toBatch((this.delayed.shift() as Delayed).frame);
      this.armDelay();
    }, Math.max(0, head.due - this.now()));
    this.delayTimer.unref?.();
  }

  private toBatch(frame: Buffer): void {
    const coalesce = this.shaping?.coalesce;
    if (coalesce === undefined) {
      this.toPieces(frame);
      return;
    }
    this.batch.push(frame);
    if (this.batch.length >= coalesce.frames) {
      this.releaseBatch();
      return;
    }
    if (this.batchTimer === undefined) {
      this.batchTimer = setTimeout(() => {
        this.batchTimer = undefined;
        if (!this.dropIfGone()) this.releaseBatch();
      }, coalesce.windowMs);
      this.batchTimer.unref?.();
    }
  }

  private releaseBatch(): void {
    if (this.batchTimer !== undefined) clearTimeout(this.batchTimer);
    this.batchTimer = undefined;
    const frames = this.batch;
    this.batch = [];
    if (frames.length > 0) this.toPieces(frames.length === 1 ? (frames[0] as Buffer) : Buffer.concat(frames));
  }

  private toPieces(unit: Buffer): void {
    const split = this.shaping?.split;
    if (split === undefined) {
      if (this.pieces.length === 0) this.writeHeld(unit);
      else this.pieces.push(unit);
      return;
    }
    this.pieces.push(...splitBuffer(unit, split.parts));
    this.pumpPieces();
  }

  private pumpPieces(): void {
    if (this.pieceTimer !== undefined) return;
    const piece = this.pieces.shift();
    if (piece === undefined) return;
    this.writeHeld(piece);
    if (this.pieces.length === 0) return;
    this.pieceTimer = setTimeout(() => {
      this.pieceTimer = undefined;
      if (!this.dropIfGone()) this.pumpPieces();
    }, this.shaping?.split?.gapMs ?? 0);
    this.pieceTimer.unref?.();
  }

  private writeHeld(bytes: Buffer): void {
    this.heldBytes -= bytes.length;
    if (this.sink.destroyed || !this.sink.writable) return;
    this.sink.write(bytes);
  }

  /** Writes everything held, oldest first, and stops every timer. */
  private flushAll(): void {
    this.clearTimers();
    const held = [...this.pieces.splice(0), ...this.batch.splice(0), ...this.delayed.splice(0).map((entry) => entry.frame)];
    for (const bytes of held) this.writeHeld(bytes);
    this.heldBytes = 0;
  }

  /** A socket that went away takes what was held with it. */
  private dropIfGone(): boolean {
    if (!this.sink.destroyed && this.sink.writable) return false;
    this.clearTimers();
    this.pieces.length = 0;
    this.batch = [];
    this.delayed.length = 0;
    this.heldBytes = 0;
    return true;
  }

  private clearTimers(): void {
    for (const timer of [this.delayTimer, this.batchTimer, this.pieceTimer]) if (timer !== undefined) clearTimeout(timer);
    this.delayTimer = undefined;
    this.batchTimer = undefined;
    this.pieceTimer = undefined;
  }
}

function isCloseFrame(frame: Buffer): boolean {
  return frame.length >= 4 && frame.readUInt32LE(0) === Opcode.Close;
}
