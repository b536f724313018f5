/**
 * The SDK's device-flow wait (`deviceFlowSleep`) without the platform's 5 s intervals: waits at
 * most `capMs` (the emulator answers slow_down, which the SDK obeys), false when aborted. The
 * abort listener goes with the timer, so a long flow leaves no listeners behind.
 */
export function quickDeviceFlowSleep(capMs = 20): (ms: number, signal: AbortSignal | undefined) => Promise<boolean> {
  return (ms, signal) =>
    new Promise((resolve) => {
      const aborted = (): void => {
        clearTimeout(timer);
        resolve(false);
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', aborted);
        resolve(true);
      }, Math.min(ms, capMs));
      signal?.addEventListener('abort', aborted, { once: true });
    });
}
