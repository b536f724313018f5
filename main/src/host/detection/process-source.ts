import type { DetectableOs } from '../../../../platform/src/wire/index.js';

/**
 * A path a running process may be known by, and which OS's entries of the detectable list it is
 * matched against: a native Linux binary against `linux` entries, the `.exe` of a Wine or Proton
 * game against `win32` ones.
 */
export interface ProcessCandidate {
  /** Lower-case, `/` as the only separator (`z:/steamapps/common/game/game.exe`). */
  readonly path: string;
  readonly os: DetectableOs;
}

/** A running process as the scanner read it once. */
export interface ScannedProcess {
  readonly pid: number;
  /** The paths to match, the most telling first (the `.exe` of a Wine game, the binary, argv[0]). */
  readonly candidates: readonly ProcessCandidate[];
  /** The command line after argv[0], joined with spaces, lower-case: what an entry's `arguments` are looked for in. */
  readonly args: string;
  /** When the process started (epoch ms), where the OS tells: a game running before Companion started shows since then. */
  readonly startedAt?: number;
}

/** What changed since the previous scan. */
export interface ProcessScan {
  /** Processes not seen before (or read again: a PID reused, or a program that exec'd another since). */
  readonly processes: readonly ScannedProcess[];
  /** PIDs reported before that are gone. */
  readonly gone: readonly number[];
  /** `processes` is every running process (the first scan, and the first after `forget()`): any other PID is gone. */
  readonly complete: boolean;
}

/**
 * Where the running processes come from, read incrementally: each `scan()` reports only what
 * changed since the one before (the first, everything running).
 */
export interface ProcessSource {
  scan(): Promise<ProcessScan>;
  /** Forget every process seen: the next scan reports everything running again (a new list to match them against). */
  forget(): void;
  /** Every running process, read in full now (on demand: `companion doctor`, "Add it"); does not change what `scan()` reports. */
  snapshot(): Promise<readonly ScannedProcess[]>;
  /** Gives back what the source holds outside the process (the Windows source's temp folder); the host calls it when it stops. */
  close?(): void;
}
