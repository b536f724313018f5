import type { Difference } from './compare-payloads.js';

export interface ReplayTarget {
  /** The host's IPC socket. */
  readonly ipcPath: string;
  /** Its platform (for the token endpoint), or null when unknown. */
  readonly platformUrl: string | null;
}

export interface ReplayOptions {
  /** Send each frame once the previous one's reply arrived, instead of at its recorded time. */
  readonly fast: boolean;
  /** How long to wait for a reply or the frames a connection still expects (default 5 s). */
  readonly timeoutMs?: number;
  /** For confidential applications' token exchange. */
  readonly clientSecret?: string | undefined;
}

/** The differences of one recorded frame (or a frame the host sent that the recording does not have). */
export interface FrameDifferences {
  /** What the frame is: `reply to SET_ACTIVITY (nonce 3)`, `event READY`, `CLOSE`, `token exchange`. */
  readonly what: string;
  readonly differences: readonly Difference[];
}

export interface ConnectionReport {
  readonly id: string;
  readonly clientId: string | null;
  /** Why it was not replayed, else null. */
  readonly skipped: string | null;
  readonly sent: number;
  readonly received: number;
  readonly frames: readonly FrameDifferences[];
}

export interface ReplayReport {
  readonly connections: readonly ConnectionReport[];
  /** What was substituted, for the reader (never a value). */
  readonly notes: readonly string[];
  /** Every difference, over all connections. */
  readonly differenceCount: number;
}
