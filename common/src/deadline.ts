/**
 * An abort signal that fires after `ms` (a `TimeoutError`, as `AbortSignal.timeout`'s) or when
 * `outer` aborts, whichever comes first; `end()` clears the timer and the link to `outer`.
 *
 * Why not `AbortSignal.any([outer, AbortSignal.timeout(ms)])`: in Node the timeout's timer holds
 * its signal only weakly, and `any` holds its sources weakly too, so under garbage collection
 * the timeout signal can be collected before it fires and a request to a server that never
 * answers hangs for good (seen as a webhook retry that never came, under load). Here the timer
 * holds the controller strongly until `end()`.
 */
export interface Deadline {
  readonly signal: AbortSignal;
  /** Whether the time ran out (rather than `outer` aborting). */
  readonly timedOut: () => boolean;
  /** Clears the timer and the link to `outer`; call it once the request is over. */
  readonly end: () => void;
}

export function deadline(ms: number, outer?: AbortSignal): Deadline {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
  }, ms);
  const follow = (): void => controller.abort(outer?.reason);
  if (outer?.aborted === true) follow();
  else outer?.addEventListener('abort', follow, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    end: () => {
      clearTimeout(timer);
      outer?.removeEventListener('abort', follow);
    },
  };
}
