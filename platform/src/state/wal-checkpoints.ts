/** A checkpoint: `quick` moves the WAL into the database file with no fsync; `synced` fsyncs both files and empties the WAL. */
export type CheckpointKind = 'quick' | 'synced';

/** No write for this long counts as idle: the next tick makes the file durable. */
export const IDLE_MS = 1000;

/**
 * When the WAL is moved into the database file (a timer calls `tick`, about once a second, while
 * `pending`).
 * While writes go on, a quick checkpoint (no fsync: an fsync stalls the event loop for 10-30 ms
 * on a busy disk, and every request behind it waits); once writes have stopped for `IDLE_MS`,
 * a synced one, so the file is whole on disk after any pause. Until then an OS crash or power
 * loss may lose, or damage, what the quick checkpoints moved; a killed process loses nothing.
 */
export class WalCheckpoints {
  private lastWriteAt = Number.NEGATIVE_INFINITY;
  private written = false;
  private unsynced = false;

  constructor(
    /** Runs a checkpoint; false when it could not run now (it is tried at the next tick). */
    private readonly run: (kind: CheckpointKind) => boolean,
    private readonly now: () => number,
  ) {}

  /** Something was written to the WAL. */
  wrote(): void {
    this.written = true;
    this.lastWriteAt = this.now();
  }

  tick(): void {
    const idle = this.now() - this.lastWriteAt >= IDLE_MS;
    if (idle && (this.written || this.unsynced)) {
      if (this.run('synced')) this.written = this.unsynced = false;
      return;
    }
    if (this.written && this.run('quick')) {
      this.written = false;
      this.unsynced = true;
    }
  }

  /** Whether a checkpoint is still to come (something written, or moved but not synced): the timer is needed. */
  get pending(): boolean {
    return this.written || this.unsynced;
  }

  /** A synced checkpoint ran outside the timer (e.g. `flush`). */
  synced(): void {
    this.written = this.unsynced = false;
  }
}
