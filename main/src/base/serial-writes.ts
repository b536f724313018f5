/**
 * Writes of one file, one at a time: a write asked for while another runs waits for it, and the
 * writes asked for meanwhile are one write together (the next one writes the state as it is
 * then). `write` writes the whole current state; `flush` resolves once every change asked for
 * so far is on disk or its write failed.
 */
export class SerialWrites {
  private writing: Promise<void> = Promise.resolve();
  /** A write is queued and has not started: later changes ride along with it. */
  private queued: Promise<void> | undefined;

  constructor(private readonly write: () => Promise<void>) {}

  /** Asks for a write; resolves (or rejects) with the write that carries this change. */
  request(): Promise<void> {
    this.queued ??= this.writing
      .catch(() => undefined)
      .then(async () => {
        this.queued = undefined;
        await this.write();
      });
    this.writing = this.queued;
    return this.queued;
  }

  async flush(): Promise<void> {
    await this.writing.catch(() => undefined);
  }
}
