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
  /** Above this many unsent bytes the peer is not reading: it is disconnected. */
  readonly maxBufferedBytes: number;
  readonly onOverflow: () => void;
  readonly now?: () => number;
}

interface Pending {
  readonly frame: Buffer;
  readonly isEvent: boolean;
}

/**
 * Writes frames to one connection, each frame in a single write. Replies go out at once,
 * including replies to pipelined requests. An unsolicited event waits until `eventGapMs`
 * has passed since the previous write, and the frame after an event waits as long, so an
 * event never shares a read with a neighbour. Order is kept: a reply queued behind an
 * event waits its turn.
 */
export class OutboundQueue {
  private readonly pending: Pending[] = [];
  private lastWriteAt = Number.NEGATIVE_INFINITY;
  private lastWasEvent = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly now: () => number;

  constructor(
    private readonly sink: FrameSink,
    private readonly options: OutboundQueueOptions,
  ) {
    this.now = options.now ?? (() => performance.now());
  }

  reply(frame: Buffer): void {
    if (this.pending.length === 0 && this.waitFor(false) === 0) this.write(frame, false);
    else this.enqueue({ frame, isEvent: false });
  }

  event(frame: Buffer): void {
    this.enqueue({ frame, isEvent: true });
  }

  /**
   * The last frame of a connection (CLOSE): written at once, ahead of anything still queued,
   * because the socket is ended right after it.
   */
  final(frame: Buffer): void {
    this.clear();
    this.write(frame, false);
  }

  /** Drops whatever has not been written (the connection is going away). */
  clear(): void {
    this.pending.length = 0;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private enqueue(item: Pending): void {
    this.pending.push(item);
    this.schedule();
  }

  /** Milliseconds until a frame of this kind may be written. */
  private waitFor(isEvent: boolean): number {
    if (!isEvent && !this.lastWasEvent) return 0;
    return Math.max(0, this.lastWriteAt + this.options.eventGapMs - this.now());
  }

  private schedule(): void {
    if (this.timer !== undefined) return;
    const head = this.pending[0];
    if (head === undefined) return;
    // Even with no wait left, an event goes out on a later turn than whatever queued it.
    this.timer = setTimeout(() => this.flush(), Math.max(1, this.waitFor(head.isEvent)));
  }

  private flush(): void {
    this.timer = undefined;
    while (this.pending.length > 0) {
      const head = this.pending[0] as Pending;
      if (this.waitFor(head.isEvent) > 0) break;
      this.pending.shift();
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
    if (sink.writableLength > this.options.maxBufferedBytes) this.options.onOverflow();
  }
}
