import type { ReplyExpectation } from './shared.js';

/** Indexes into the Int32Array the worker shares with the orchestrator. */
export const COUNTER = { Replies: 0, Sent: 1 } as const;
export const COUNTER_SLOTS = 4;

export interface LatencySummary {
  readonly samples: number;
  readonly p50Us: number;
  readonly p90Us: number;
  readonly p99Us: number;
  readonly meanUs: number;
  readonly minUs: number;
  readonly maxUs: number;
}

export interface HoldResult {
  readonly requested: number;
  readonly ready: number;
  readonly failed: number;
  readonly firstFailure: string | null;
  readonly ms: number;
}

export interface PingResult {
  readonly held: number;
  /** Connections still open when asked. */
  readonly open: number;
  /** Connections that answered PING with PONG. */
  readonly ponged: number;
  readonly ms: number;
}

export interface HandshakeLatencyResult {
  /** HANDSHAKE written -> READY received. */
  readonly handshakeToReady: LatencySummary;
  /** connect() called -> READY received. */
  readonly connectToReady: LatencySummary;
  readonly failures: number;
  readonly firstFailure: string | null;
}

export interface MatchCounts {
  readonly sent: number;
  readonly replies: number;
  /** Requests without a reply once the phase drained. */
  readonly lost: number;
  /** Replies whose nonce was never sent or was already answered (duplicates included). */
  readonly mismatched: number;
  readonly errorReplies: number;
  /** Replies that failed full validation (every latency sample; 1 in 1000 under load). */
  readonly invalid: number;
  readonly validated: number;
  /** Replies that were not in the fast-path shape and needed a full JSON parse. */
  readonly slowParsed: number;
  readonly outOfOrder: number;
  readonly droppedConnections: number;
  readonly firstProblem: string | null;
}

export interface RttResult extends MatchCounts {
  readonly rtt: LatencySummary;
}

export interface LoadPrepareResult {
  readonly connected: number;
  readonly failed: number;
  readonly firstFailure: string | null;
}

export interface LoadStopResult extends MatchCounts {
  readonly clients: number;
  readonly inFlight: number;
  /** Round trips measured after the warm-up (closed loop, 1 in flight, only). */
  readonly rttUnderLoad: LatencySummary | null;
  readonly drainMs: number;
}

export type WorkerRequest =
  | { readonly op: 'hold'; readonly key: string; readonly path: string; readonly count: number; readonly concurrency: number }
  | { readonly op: 'pingHeld'; readonly key: string; readonly timeoutMs: number }
  | { readonly op: 'releaseHeld'; readonly key: string }
  | { readonly op: 'handshakeLatency'; readonly paths: readonly string[]; readonly warmup: number; readonly samples: number }
  | {
      readonly op: 'activityLatency';
      readonly targets: readonly { readonly path: string; readonly expect: ReplyExpectation }[];
      readonly warmup: number;
      readonly samples: number;
    }
  | {
      readonly op: 'loadPrepare';
      readonly path: string;
      readonly clients: number;
      readonly inFlight: number;
      readonly expect: ReplyExpectation;
    }
  | { readonly op: 'loadStart'; readonly warmupMs: number }
  | { readonly op: 'loadStop'; readonly drainTimeoutMs: number };

export interface WorkerResults {
  hold: HoldResult;
  pingHeld: PingResult;
  releaseHeld: { readonly closed: number };
  handshakeLatency: HandshakeLatencyResult[];
  activityLatency: RttResult[];
  loadPrepare: LoadPrepareResult;
  loadStart: { readonly started: number };
  loadStop: LoadStopResult;
}

export type WorkerReply =
  | { readonly id: number; readonly ok: true; readonly result: unknown }
  | { readonly id: number; readonly ok: false; readonly error: string };

export interface WorkerEnvelope {
  readonly id: number;
  readonly request: WorkerRequest;
}

/** Nearest-rank percentiles of a sample (microseconds in, microseconds out). */
export function summarize(values: Float64Array): LatencySummary {
  const n = values.length;
  if (n === 0) return { samples: 0, p50Us: 0, p90Us: 0, p99Us: 0, meanUs: 0, minUs: 0, maxUs: 0 };
  const sorted = Float64Array.from(values).sort();
  const at = (p: number): number => round1(sorted[Math.min(n - 1, Math.max(0, Math.ceil(p * n) - 1))] as number);
  let sum = 0;
  for (const v of sorted) sum += v;
  return {
    samples: n,
    p50Us: at(0.5),
    p90Us: at(0.9),
    p99Us: at(0.99),
    meanUs: round1(sum / n),
    minUs: round1(sorted[0] as number),
    maxUs: round1(sorted[n - 1] as number),
  };
}

function round1(value: number): number {
  return Math.round(value * 10) / 10;
}
