/** Resolves after `ms`, or at once when `signal` aborts (the timer is cleared either way). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted === true) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** The promise's value, or undefined when it takes longer than `ms`; no timer outlives it. */
export function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => resolve(undefined), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/**
 * The first value `probe` gives, checked now and on every `event` of `emitter`, or undefined
 * after `timeoutMs` (the listener and the timer go either way).
 */
export function probeUntil<T>(emitter: { on(event: string, listener: () => void): unknown; off(event: string, listener: () => void): unknown }, event: string, probe: () => T | undefined, timeoutMs: number): Promise<T | undefined> {
  const now = probe();
  if (now !== undefined) return Promise.resolve(now);
  return new Promise((resolve) => {
    const check = (): void => {
      const value = probe();
      if (value !== undefined) finish(value);
    };
    const timer = setTimeout(() => finish(undefined), timeoutMs);
    const finish = (value: T | undefined): void => {
      clearTimeout(timer);
      emitter.off(event, check);
      resolve(value);
    };
    emitter.on(event, check);
  });
}
