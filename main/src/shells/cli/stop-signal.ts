/**
 * Waits for a signal that ends a long-running command (Ctrl+C and the like). It listens from
 * the moment it is created, so a signal that arrives while the command starts up is not lost;
 * `stop` (a hook for tests) counts as a signal. dispose() gives the signals back their usual
 * action.
 */
export class StopSignal {
  private first: NodeJS.Signals | 'stop' | undefined;
  private wake: (() => void) | undefined;
  private readonly onSignal = (signal: NodeJS.Signals | 'stop'): void => {
    this.first ??= signal;
    this.wake?.();
  };

  constructor(
    private readonly signals: readonly NodeJS.Signals[],
    stop?: Promise<unknown>,
  ) {
    for (const signal of signals) process.on(signal, this.onSignal);
    void stop?.then(() => this.onSignal('stop'));
  }

  /** The first signal that came (`stop`: the test hook); undefined while none did. */
  get received(): NodeJS.Signals | 'stop' | undefined {
    return this.first;
  }

  /** Resolves once a signal came (at once if one already did). */
  async wait(): Promise<void> {
    if (this.first === undefined) await new Promise<void>((resolve) => (this.wake = resolve));
  }

  dispose(): void {
    for (const signal of this.signals) process.off(signal, this.onSignal);
  }
}
