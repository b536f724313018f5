import type { DetectedGame } from './game-detector.js';

/** How many detections the Settings screen can list (the running ones are always among them). */
export const DETECTION_HISTORY_SIZE = 50;

/** One detection: a game seen running, from which executable, and until when. */
export interface DetectionEntry {
  readonly applicationId: string;
  readonly name: string;
  readonly executable: string;
  readonly pid: number;
  readonly startedAt: number;
  readonly detectedAt: number;
  endedAt: number | null;
  readonly custom: boolean;
}

/**
 * What was detected since the host started, newest last, bounded: a game that starts again is a
 * new entry. Kept in memory only (the list of a session, like the inspector's).
 */
export class DetectionHistory {
  private readonly entries: DetectionEntry[] = [];

  constructor(private readonly now: () => number) {}

  started(game: DetectedGame, custom: boolean): DetectionEntry {
    const entry: DetectionEntry = {
      applicationId: game.applicationId,
      name: game.name,
      executable: game.path === '' ? game.executable : game.path,
      pid: game.pid,
      startedAt: game.startedAt,
      detectedAt: this.now(),
      endedAt: null,
      custom,
    };
    this.entries.push(entry);
    this.trim();
    return entry;
  }

  ended(game: DetectedGame): void {
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const entry = this.entries[i] as DetectionEntry;
      if (entry.applicationId === game.applicationId && entry.endedAt === null) {
        entry.endedAt = this.now();
        return;
      }
    }
  }

  /** The running ones first (newest first), then the ended ones (most recently ended first). */
  list(): readonly DetectionEntry[] {
    const running = this.entries.filter((entry) => entry.endedAt === null).reverse();
    const ended = this.entries.filter((entry) => entry.endedAt !== null).sort((a, b) => (b.endedAt ?? 0) - (a.endedAt ?? 0));
    return [...running, ...ended];
  }

  /** Drops the oldest ended entries past the bound (a running one is never dropped). */
  private trim(): void {
    while (this.entries.length > DETECTION_HISTORY_SIZE) {
      const index = this.entries.findIndex((entry) => entry.endedAt !== null);
      if (index < 0) return;
      this.entries.splice(index, 1);
    }
  }
}
