/**
 * The signals that ask a long-running command to end. Everywhere: Ctrl+C (SIGINT), SIGTERM
 * and SIGHUP (on Windows, Node's name for the console window being closed). On Windows also
 * Ctrl+Break (SIGBREAK). Windows has no SIGTERM that a process can catch (`kill` there ends the
 * process at once), which is why a host killed that way leaves its runtime file and the next
 * start recovers (runtime-file.ts).
 */
export function stopSignals(platform: NodeJS.Platform = process.platform): readonly NodeJS.Signals[] {
  return platform === 'win32' ? ['SIGINT', 'SIGBREAK', 'SIGHUP', 'SIGTERM'] : ['SIGINT', 'SIGTERM', 'SIGHUP'];
}

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
