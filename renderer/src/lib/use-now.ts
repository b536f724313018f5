import { useSyncExternalStore } from 'react';

/**
 * One clock per interval, shared by every component that shows a live time: it ticks on the
 * interval's boundaries of the wall clock (every card's "12:34 elapsed" turns over together,
 * on the second), and only while a component listens.
 */
class Ticker {
  private readonly listeners = new Set<() => void>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private now = Date.now();

  constructor(private readonly intervalMs: number) {}

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    if (this.listeners.size === 1) {
      this.now = Date.now();
      this.schedule();
    }
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) clearTimeout(this.timer);
    };
  };

  readonly read = (): number => this.now;

  private schedule(): void {
    // A few ms past the boundary, so the time read there has turned over.
    const wait = this.intervalMs - (Date.now() % this.intervalMs) + 5;
    this.timer = setTimeout(() => {
      this.now = Date.now();
      for (const listener of [...this.listeners]) listener();
      if (this.listeners.size > 0) this.schedule();
    }, wait);
  }
}

const tickers = new Map<number, Ticker>();

function tickerFor(intervalMs: number): Ticker {
  let ticker = tickers.get(intervalMs);
  if (ticker === undefined) {
    ticker = new Ticker(intervalMs);
    tickers.set(intervalMs, ticker);
  }
  return ticker;
}

/** The current time, refreshed every `intervalMs` (on its boundaries) while the component is mounted (live timers). */
export function useNow(intervalMs = 1000): number {
  const ticker = tickerFor(intervalMs);
  return useSyncExternalStore(ticker.subscribe, ticker.read, ticker.read);
}
