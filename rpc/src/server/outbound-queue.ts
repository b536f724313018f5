import type { Socket } from 'node:net';

/**
 * Writes frames to one connection. Replies go out at once, each frame in a single write.
 * Unsolicited events wait until every earlier write has been handed to the kernel and one
 * more turn of the event loop has passed, so an event never shares a write, or a tick, with
 * the frame before it: npm discord-rpc keeps one frame per read and drops the rest.
 */
export class OutboundQueue {
  private readonly events: Buffer[] = [];
  private writesInFlight = 0;
  private drainScheduled = false;
  private readonly onWritten = (): void => {
    this.writesInFlight -= 1;
    if (this.writesInFlight === 0 && this.events.length > 0) this.scheduleDrain();
  };

  constructor(
    private readonly socket: Socket,
    /** Above this many unsent bytes the peer is not reading: it is disconnected. */
    private readonly maxBufferedBytes: number,
    private readonly onOverflow: () => void,
  ) {}

  get pendingEvents(): number {
    return this.events.length;
  }

  reply(frame: Buffer): void {
    this.write(frame);
  }

  event(frame: Buffer): void {
    this.events.push(frame);
    if (this.writesInFlight === 0) this.scheduleDrain();
  }

  private scheduleDrain(): void {
    if (this.drainScheduled) return;
    this.drainScheduled = true;
    setImmediate(() => {
      this.drainScheduled = false;
      if (this.writesInFlight > 0) return; // onWritten schedules the next attempt
      const next = this.events.shift();
      if (next !== undefined) this.write(next);
    });
  }

  private write(frame: Buffer): void {
    const socket = this.socket;
    if (socket.destroyed || !socket.writable) return;
    this.writesInFlight += 1;
    socket.write(frame, this.onWritten);
    if (socket.writableLength > this.maxBufferedBytes) this.onOverflow();
  }
}
