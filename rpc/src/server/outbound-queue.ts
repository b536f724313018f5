import type { FrameSink } from '../transport/connection-transport.js';

export type { FrameSink };

/**
 * Default quiet time around an unsolicited event. npm discord-rpc keeps one frame per read
 * and drops the rest, so an event must not reach a client in the same read as the frame
 * before or after it. 16 ms (one frame at 60 fps) lets a busy game loop read in between,
 * and limits events to about 60 a second per connection, far above real use.
 */
export const DEFAULT_EVENT_GAP_MS = 16;

export interface OutboundQueueOptions {
  readonly eventGapMs: number;
  /**
   * Above this many bytes waiting (held here, plus unsent in the socket, plus droppable
   * replies not counted) the peer is not reading: it is disconnected.
   */
  readonly maxBufferedBytes: number;
  readonly onOverflow: () => void;
  /**
   * While the socket holds this many unsent bytes, frames wait here instead of going to the
   * socket, where a superseded reply could no longer be taken back. Default: no holding.
   */
  readonly holdAbove?: number;
  /** At most this many droppable replies wait; the oldest goes when one more comes. Default 8. */
  readonly maxHeldDroppable?: number;
  /** A droppable reply was dropped unsent (`total` so far on this connection). */
  readonly onDropped?: (total: number) => void;
  readonly now?: () => number;
}

/**
 * What a reply is to the queue. `needed`: carries something the client asked for, always
 * delivered, in order. `droppable`: carries nothing the client does not already have (the
 * echo of its own SET_ACTIVITY), so it may be dropped unsent when the client does not read:
 * a game that never reads its replies keeps being read and its latest activity applied.
 */
export type ReplyKind = 'needed' | 'droppable';

interface Pending {
  readonly frame: Buffer;
  readonly isEvent: boolean;
  readonly droppable: boolean;
}

/**
 * Writes frames to one connection, each frame in a single write. Replies go out at once,
 * including replies to pipelined requests. An unsolicited event waits until `eventGapMs`
 * has passed since the previous write, and the frame after an event waits as long, so an
 * event never shares a read with a neighbour. Order is kept: a reply queued behind an
 * event waits its turn.
 *
 * A peer that stops reading: once the socket holds `holdAbove` unsent bytes, frames wait
 * here and go out when the socket drains. Of the waiting replies, only the newest
 * `maxHeldDroppable` droppable ones are kept (the others are dropped and counted); needed
 * frames all wait, and `neededBytes` tells the connection when to stop reading.
 */
export class OutboundQueue {
  private readonly pending: Pending[] = [];
  private lastWriteAt = Number.NEGATIVE_INFINITY;
  private lastWasEvent = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly now: () => number;
  private readonly holdAbove: number;
  private readonly maxHeldDroppable: number;
  private heldDroppable = 0;
  private heldNeededBytes = 0;
  /** Droppable replies dropped unsent on this connection. */
  dropped = 0;

  constructor(
    private readonly sink: FrameSink,
    private readonly options: OutboundQueueOptions,
  ) {
    this.now = options.now ?? (() => performance.now());
    this.holdAbove = options.holdAbove ?? Number.POSITIVE_INFINITY;
    this.maxHeldDroppable = options.maxHeldDroppable ?? 8;
  }

  /** Bytes of needed frames waiting here (not yet handed to the socket). */
  get heldBytes(): number {
    return this.heldNeededBytes;
  }

  /** Bytes of needed frames waiting here, plus what the socket has not sent. */
  private get neededBytes(): number {
    return this.heldNeededBytes + this.sink.writableLength;
  }

  reply(frame: Buffer, kind: ReplyKind = 'needed'): void {
    if (this.pending.length === 0 && this.waitFor(false) === 0 && !this.sinkFull()) this.write(frame, false);
    else this.enqueue({ frame, isEvent: false, droppable: kind === 'droppable' });
  }

  event(frame: Buffer): void {
    this.enqueue({ frame, isEvent: true, droppable: false });
  }

  /**
   * The last frame of a connection (CLOSE): written at once, ahead of anything still queued,
   * because the socket is ended right after it.
   */
  final(frame: Buffer): void {
    this.clear();
    this.write(frame, false);
  }

  /** The socket sent what it held: waiting frames may go. */
  drained(): void {
    if (this.timer === undefined && this.pending.length > 0) this.flush();
  }

  /** Drops whatever has not been written (the connection is going away). */
  clear(): void {
    this.pending.length = 0;
    this.heldDroppable = 0;
    this.heldNeededBytes = 0;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private sinkFull(): boolean {
    return this.sink.writableLength >= this.holdAbove;
  }

  private enqueue(item: Pending): void {
    this.pending.push(item);
    if (item.droppable) {
      this.heldDroppable += 1;
      if (this.heldDroppable > this.maxHeldDroppable) this.dropOldestDroppable();
    } else {
      this.heldNeededBytes += item.frame.length;
      if (this.neededBytes > this.options.maxBufferedBytes) this.options.onOverflow();
    }
    this.schedule();
  }

  private dropOldestDroppable(): void {
    const index = this.pending.findIndex((item) => item.droppable);
    if (index === -1) return;
    this.pending.splice(index, 1);
    this.heldDroppable -= 1;
    this.dropped += 1;
    this.options.onDropped?.(this.dropped);
  }

  /** Milliseconds until a frame of this kind may be written. */
  private waitFor(isEvent: boolean): number {
    if (!isEvent && !this.lastWasEvent) return 0;
    return Math.max(0, this.lastWriteAt + this.options.eventGapMs - this.now());
  }

  private schedule(): void {
    if (this.timer !== undefined) return;
    const head = this.pending[0];
    // A full socket is waited out by drained(), not by a timer.
    if (head === undefined || this.sinkFull()) return;
    // Even with no wait left, an event goes out on a later turn than whatever queued it.
    this.timer = setTimeout(() => this.flush(), Math.max(1, this.waitFor(head.isEvent)));
  }

  private flush(): void {
    this.timer = undefined;
    while (this.pending.length > 0 && !this.sinkFull()) {
      const head = this.pending[0] as Pending;
      if (this.waitFor(head.isEvent) > 0) break;
      this.pending.shift();
      if (head.droppable) this.heldDroppable -= 1;
      else this.heldNeededBytes -= head.frame.length;
      this.write(head.frame, head.isEvent);
      if (head.isEvent) break; // the next frame needs the gap after this event
    }
    this.schedule();
  }

  private write(frame: Buffer, isEvent: boolean): void {
    const sink = this.sink;
    if (sink.destroyed || !sink.writable) return;
    sink.write(frame);
    this.lastWriteAt = this.now();
    this.lastWasEvent = isEvent;
    if (this.neededBytes > this.options.maxBufferedBytes) this.options.onOverflow();
  }
}
