/**
 * The soak phase's load: `games` slots, each a game that connects, sends SET_ACTIVITY at a
 * steady rate for about `sessionMs` (jittered ±50% so that the slots do not leave together),
 * then leaves: every other session clears its activity first, the others drop the connection
 * as a crashing game does. Then the slot connects again, until `untilMs`.
 */
import { performance } from 'node:perf_hooks';
import { IpcGame } from './ipc-game.js';
import { ACTIVITY } from './shared.js';

export interface ChurnConfig {
  readonly socketPath: string;
  readonly games: number;
  /** SET_ACTIVITY per second, over all games. */
  readonly requestsPerSec: number;
  readonly sessionMs: number;
  /** performance.now() at which the slots stop. */
  readonly untilMs: number;
}

export interface ChurnTally {
  requests: number;
  replies: number;
  errorReplies: number;
  /** Requests without a reply within REPLY_TIMEOUT_MS. */
  unanswered: number;
  connections: number;
  connectFailures: number;
  firstProblem: string | null;
  /** Games connected right now (their sockets are open in the host too). */
  open: number;
}

const REPLY_TIMEOUT_MS = 10_000;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

function replyWithin(replied: Promise<number>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  return Promise.race([replied.then(() => true), timeout]).finally(() => clearTimeout(timer));
}

function activityFor(session: number, n: number): Record<string, unknown> {
  return { ...ACTIVITY, details: `Round ${(n % 24) + 1} of 24`, party: { id: `${ACTIVITY.party.id}-${session}`, size: [1 + (n % 4), 4] } };
}

function note(tally: ChurnTally, problem: string): void {
  tally.firstProblem ??= problem;
}

async function oneSession(config: ChurnConfig, tally: ChurnTally, session: number, intervalMs: number): Promise<void> {
  let game: IpcGame;
  try {
    game = await IpcGame.connect(config.socketPath);
  } catch (error) {
    tally.connectFailures += 1;
    note(tally, error instanceof Error ? error.message : String(error));
    await sleep(500);
    return;
  }
  tally.connections += 1;
  tally.open += 1;
  try {
    const end = Math.min(config.untilMs, performance.now() + config.sessionMs * (0.5 + Math.random()));
    let next = performance.now();
    for (let n = 0; performance.now() < end && !game.closed; n += 1) {
      const errorsBefore = game.errorReplies;
      tally.requests += 1;
      if (await replyWithin(game.setActivity(activityFor(session, n)).replied, REPLY_TIMEOUT_MS)) tally.replies += 1;
      else tally.unanswered += 1;
      if (game.errorReplies > errorsBefore) {
        tally.errorReplies += 1;
        note(tally, 'SET_ACTIVITY answered with an ERROR');
      }
      next += intervalMs;
      await sleep(next - performance.now());
    }
    if (session % 2 === 0 && !game.closed) {
      tally.requests += 1;
      if (await replyWithin(game.setActivity(null).replied, REPLY_TIMEOUT_MS)) tally.replies += 1;
      else tally.unanswered += 1;
    }
  } finally {
    game.close();
    tally.open -= 1;
  }
}

/** Runs the slots until `untilMs`; `tally` is updated as it goes (the sampler reads `open`). */
export async function runChurn(config: ChurnConfig, tally: ChurnTally): Promise<void> {
  const intervalMs = (1000 * config.games) / config.requestsPerSec;
  let sessions = 0;
  await Promise.all(
    Array.from({ length: config.games }, async (_, slot) => {
      // Staggered starts: the slots' requests spread over each interval.
      await sleep((slot * intervalMs) / config.games);
      while (performance.now() < config.untilMs) await oneSession(config, tally, sessions++, intervalMs);
    }),
  );
}

export function emptyTally(): ChurnTally {
  return { requests: 0, replies: 0, errorReplies: 0, unanswered: 0, connections: 0, connectFailures: 0, firstProblem: null, open: 0 };
}
