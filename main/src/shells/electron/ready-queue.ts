/**
 * Pushes to a window wait until its page said `companion:ready`:
 * a consent request that arrives while the UI loads is delivered, not lost. Per window, in
 * order; a reload makes the window not ready again (`reset`), and a destroyed window's
 * queue is dropped (`forget`).
 */
export interface ReadyQueueOptions<M> {
  /** Sends one message to a window that is ready. */
  readonly send: (windowId: number, message: M) => void;
  /** Most messages kept per waiting window; the oldest go first (default 1,000). */
  readonly limit?: number;
  /**
   * Messages for which only the latest queued one matters (a full snapshot supersedes the
   * previous): queuing one drops the earlier queued message with the same key.
   */
  readonly coalesceKey?: (message: M) => string | null;
}

interface WindowState<M> {
  ready: boolean;
  queue: M[];
  dropped: number;
}

export class ReadyQueue<M> {
  private readonly windows = new Map<number, WindowState<M>>();
  private readonly limit: number;

  constructor(private readonly options: ReadyQueueOptions<M>) {
    this.limit = options.limit ?? 1000;
  }

  /** A new window (or a reloaded one): not ready, nothing queued. */
  reset(windowId: number): void {
    this.windows.set(windowId, { ready: false, queue: [], dropped: 0 });
  }

  /** The page went away (reload, crash): queue again until it is ready, keeping what is queued. */
  unready(windowId: number): void {
    const state = this.windows.get(windowId);
    if (state !== undefined) state.ready = false;
  }

  /** Sends now when the window is ready, else queues. A window never `reset` (or forgotten) gets nothing. */
  push(windowId: number, message: M): void {
    const state = this.windows.get(windowId);
    if (state === undefined) return;
    if (state.ready) {
      this.options.send(windowId, message);
      return;
    }
    const key = this.options.coalesceKey?.(message) ?? null;
    if (key !== null) {
      const index = state.queue.findIndex((queued) => this.options.coalesceKey?.(queued) === key);
      if (index >= 0) state.queue.splice(index, 1);
    }
    state.queue.push(message);
    if (state.queue.length > this.limit) {
      state.queue.shift();
      state.dropped += 1;
    }
  }

  /** Queues or sends to every known window. */
  broadcast(message: M): void {
    for (const id of [...this.windows.keys()]) this.push(id, message);
  }

  /**
   * The page is ready: flush its queue in order, then send directly. Returns how many
   * messages the limit dropped meanwhile. An unknown window is ignored (returns 0).
   */
  markReady(windowId: number): number {
    const state = this.windows.get(windowId);
    if (state === undefined) return 0;
    const queued = state.queue;
    const dropped = state.dropped;
    this.windows.set(windowId, { ready: true, queue: [], dropped: 0 });
    for (const message of queued) {
      // A send may destroy the window (or reset it): stop flushing into a gone window.
      if (this.windows.get(windowId)?.ready !== true) break;
      this.options.send(windowId, message);
    }
    return dropped;
  }

  isReady(windowId: number): boolean {
    return this.windows.get(windowId)?.ready === true;
  }

  queued(windowId: number): number {
    return this.windows.get(windowId)?.queue.length ?? 0;
  }

  /** The window was destroyed: drop its queue. */
  forget(windowId: number): void {
    this.windows.delete(windowId);
  }

  /** Every window this queue knows (pushes are broadcast to each). */
  windowIds(): number[] {
    return [...this.windows.keys()];
  }
}
