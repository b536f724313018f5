import type { ActivityChange, FrameTrace, RpcServer } from '../../src/index.js';

/** The application id every compat client handshakes with. */
export const CLIENT_ID = '123456789012345678';
/** The name the test server gives that application (the activity's default name). */
export const APP_NAME = 'Compat Game';

/**
 * Points both libraries at `dir`: npm discord-rpc and xhayper look in XDG_RUNTIME_DIR first.
 * Returns a function that restores the previous value.
 */
export function pointClientsAt(dir: string): () => void {
  const previous = process.env['XDG_RUNTIME_DIR'];
  process.env['XDG_RUNTIME_DIR'] = dir;
  return () => {
    if (previous === undefined) delete process.env['XDG_RUNTIME_DIR'];
    else process.env['XDG_RUNTIME_DIR'] = previous;
  };
}

/**
 * Records everything an event source emits and lets a test await the first recorded item
 * (already seen or still to come) that matches, within a bounded time.
 */
export class Recorder<T> {
  readonly items: T[] = [];
  private readonly waiters = new Set<() => void>();

  readonly push = (item: T): void => {
    this.items.push(item);
    for (const waiter of [...this.waiters]) waiter();
  };

  async until(predicate: (item: T) => boolean, timeoutMs = 3000, what = 'a matching item'): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.items.find(predicate);
      if (found !== undefined) return found;
      await this.nextItem(deadline, () => `timed out after ${timeoutMs} ms waiting for ${what}`);
    }
  }

  /** Waits until `count` items match. */
  async count(predicate: (item: T) => boolean, count: number, timeoutMs = 5000, what = 'items'): Promise<T[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const matching = this.items.filter(predicate);
      if (matching.length >= count) return matching;
      await this.nextItem(deadline, () => `timed out after ${timeoutMs} ms: ${matching.length}/${count} ${what}`);
    }
  }

  /** Resolves when a new item arrives; rejects with `timeoutMessage()` once `deadline` has passed. */
  private async nextItem(deadline: number, timeoutMessage: () => string): Promise<void> {
    const left = deadline - Date.now();
    if (left <= 0) throw new Error(timeoutMessage());
    await new Promise<void>((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        this.waiters.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, left);
      this.waiters.add(wake);
    });
  }
}

/** Records the server's 'activity' events. */
export function recordActivities(server: RpcServer): Recorder<ActivityChange> {
  const recorder = new Recorder<ActivityChange>();
  server.on('activity', recorder.push);
  return recorder;
}

/** Records every traced frame (turns the server's frame tracing on). */
export function recordFrames(server: RpcServer): Recorder<FrameTrace> {
  const recorder = new Recorder<FrameTrace>();
  server.on('frame', recorder.push);
  return recorder;
}

/** Rejects if `promise` has not settled within `ms`; the message says what was awaited. */
export async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${what}`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The error a promise rejects with (fails if it resolves or takes longer than `ms`). */
export async function rejectionOf(promise: Promise<unknown>, ms = 3000): Promise<Error & { code?: unknown }> {
  const outcome = await within(
    promise.then(
      (value) => ({ ok: true as const, value }),
      (error: unknown) => ({ ok: false as const, error }),
    ),
    ms,
    'the request to settle',
  );
  if (outcome.ok) throw new Error(`expected a rejection, got ${JSON.stringify(outcome.value)}`);
  if (!(outcome.error instanceof Error)) throw new Error(`expected an Error, got ${String(outcome.error)}`);
  return outcome.error as Error & { code?: unknown };
}

/** The Joi text the real client sends for `state` of one character. */
export const SHORT_STATE_MESSAGE =
  'child "activity" fails because [child "state" fails because ["state" length must be at least 2 characters long]]';

export const BUTTONS = [
  { label: 'Watch match', url: 'https://example.test/watch/42' },
  { label: 'Join clan', url: 'https://example.test/clan' },
] as const;

/** A fixed start (seconds) and end (a Date) so the normalised timestamps are known. */
export const START_SECONDS = 1_700_000_000;
export const END_MS = 1_700_003_600_000;

/** The activity the server should produce from the full activity both suites send. */
export function expectedFullActivity(): Record<string, unknown> {
  return {
    name: APP_NAME,
    type: 0,
    application_id: CLIENT_ID,
    platform: 'desktop',
    state: 'In a ranked match',
    details: 'Map: Harbour',
    timestamps: { start: START_SECONDS * 1000, end: END_MS },
    assets: {
      large_image: 'map_harbour',
      large_text: 'Harbour at dusk',
      small_image: 'rank_gold',
      small_text: 'Gold III',
    },
    party: { id: 'party-7f3a', size: [2, 4] },
    buttons: BUTTONS.map((button) => button.label),
    metadata: { button_urls: BUTTONS.map((button) => button.url) },
  };
}

/** A lobby with join, spectate and match secrets and no buttons, as both libraries take it. */
export const LOBBY_PRESENCE = {
  state: 'Waiting in lobby',
  details: 'Co-op',
  partyId: 'lobby-91',
  partySize: 1,
  partyMax: 4,
  matchSecret: 'match-91',
  joinSecret: 'join-91',
  spectateSecret: 'spectate-91',
} as const;

/** What the server replies (and announces) for LOBBY_PRESENCE. */
export const EXPECTED_LOBBY_ACTIVITY = {
  name: APP_NAME,
  type: 0,
  application_id: CLIENT_ID,
  platform: 'desktop',
  state: 'Waiting in lobby',
  details: 'Co-op',
  party: { id: 'lobby-91', size: [1, 4] },
  secrets: { match: 'match-91', join: 'join-91', spectate: 'spectate-91' },
  flags: 2 | 4, // JOIN | SPECTATE
  metadata: {},
};

/**
 * A full presence in the camelCase input both libraries take: timestamps as seconds and as a
 * Date, both images with text, a party and two buttons. A fresh object each call.
 */
export function fullPresence() {
  return {
    state: 'In a ranked match',
    details: 'Map: Harbour',
    startTimestamp: START_SECONDS,
    endTimestamp: new Date(END_MS),
    largeImageKey: 'map_harbour',
    largeImageText: 'Harbour at dusk',
    smallImageKey: 'rank_gold',
    smallImageText: 'Gold III',
    partyId: 'party-7f3a',
    partySize: 2,
    partyMax: 4,
    buttons: BUTTONS.map((button) => ({ ...button })),
  };
}
