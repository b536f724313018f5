import path from 'node:path';
import * as v from 'valibot';
import { removeStrayTemps, writerGone } from '../../../../common/src/node/atomic-file.js';
import { fileTimestamp, moveAside, readJsonStateFile, writeJsonStateFile } from '../../base/json-state-file.js';
import { SerialWrites } from '../../base/serial-writes.js';
import {
  ARBITRATION_POLICIES,
  DEFAULT_PRESENCE_SETTINGS,
  REDACTABLE_FIELDS,
  type AppRule,
  type PresenceSettings,
} from './presence-privacy.js';

export const PRESENCE_FILE = 'presence.json';
const FORMAT_VERSION = 1;
/**
 * Announced apps remembered at most; the least recently active are forgotten first (and would
 * be announced again). The games a player actually plays stay, however many ids are seen.
 */
export const MAX_ANNOUNCED = 500;

/** An application whose first activity was announced to the player. */
export interface AnnouncedApplication {
  readonly application_id: string;
  readonly application_name: string;
  /** Epoch ms. */
  readonly at: number;
}

interface AnnouncedSlot {
  readonly entry: AnnouncedApplication;
  /** PresenceSettingsStore's tick when the app was last active (higher: more recent). */
  lastActive: number;
}

export interface PresenceSettingsStoreLogger {
  warn(fields: object, message: string): void;
}

const AppIdSchema = v.pipe(v.string(), v.regex(/^[0-9]{1,20}$/));
const RuleSchema = v.variant('mode', [
  v.object({ mode: v.literal('share') }),
  v.object({ mode: v.literal('hide') }),
  v.object({ mode: v.literal('redact'), fields: v.array(v.picklist(REDACTABLE_FIELDS)) }),
]);
const FileSchema = v.object({
  version: v.literal(FORMAT_VERSION),
  policy: v.picklist(ARBITRATION_POLICIES),
  pinned_application_id: v.nullable(AppIdSchema),
  hide_all: v.boolean(),
  rules: v.record(AppIdSchema, RuleSchema),
  announced: v.array(v.object({ application_id: AppIdSchema, application_name: v.string(), at: v.number() })),
});

/**
 * The player's presence settings and the applications already announced, in
 * `<data dir>/presence.json` (mode 0600, written atomically: a crash leaves the old file or the
 * new one). A file that is not valid JSON or not in this shape is renamed aside to
 * `presence.json.corrupt-<timestamp>` with a warning, and the defaults are used; other read
 * errors (e.g. EACCES) reject, leaving the file alone.
 */
export class PresenceSettingsStore {
  private current: PresenceSettings = DEFAULT_PRESENCE_SETTINGS;
  /**
   * Announced apps by id, each with the tick of its latest activity: being active again sets a
   * number, no Map delete-then-set (that rebuilt the Map's hash table every few updates, in the
   * old generation; measured 2026-11-25, 12 of the 46 MB that outlived a scavenge in 10 s of 100
   * games, docs/performance.md "Third pass"). Recency order is made when asked for.
   */
  private readonly announcedApps = new Map<string, AnnouncedSlot>();
  private activityTick = 0;
  private readonly writes = new SerialWrites(() => this.writeNow());

  private constructor(
    private readonly dataDir: string,
    private readonly now: () => number,
  ) {}

  /** Reads the file (a missing one is the defaults); `warning` when it had to be set aside. */
  static async load(
    dataDir: string,
    options: { readonly logger?: PresenceSettingsStoreLogger; readonly now?: () => number } = {},
  ): Promise<{ store: PresenceSettingsStore; warning: string | null }> {
    const store = new PresenceSettingsStore(dataDir, options.now ?? Date.now);
    const warning = await store.read();
    if (warning !== null) options.logger?.warn({ file: store.file }, warning);
    return { store, warning };
  }

  get file(): string {
    return path.join(this.dataDir, PRESENCE_FILE);
  }

  get settings(): PresenceSettings {
    return this.current;
  }

  isAnnounced(applicationId: string): boolean {
    return this.announcedApps.has(applicationId);
  }

  /** Announced applications, least recently active first. */
  announced(): AnnouncedApplication[] {
    return [...this.announcedApps.values()].sort((a, b) => a.lastActive - b.lastActive).map((slot) => slot.entry);
  }

  /** Replaces the settings; resolves once they are on disk. */
  replace(settings: PresenceSettings): Promise<void> {
    this.current = settings;
    return this.save();
  }

  /**
   * Remembers that the app was announced; false when it was already (it then counts as the most
   * recently active, in memory: the order reaches the file with the next write, no write of its
   * own). Resolves the write separately.
   */
  markAnnounced(app: Omit<AnnouncedApplication, 'at'>): { added: boolean; entry: AnnouncedApplication; saved: Promise<void> } {
    const existing = this.announcedApps.get(app.application_id);
    if (existing !== undefined) {
      existing.lastActive = ++this.activityTick;
      return { added: false, entry: existing.entry, saved: Promise.resolve() };
    }
    const entry: AnnouncedApplication = { application_id: app.application_id, application_name: app.application_name, at: this.now() };
    this.remember(entry);
    return { added: true, entry, saved: this.save() };
  }

  /** Adds an app as the most recently active; past MAX_ANNOUNCED, the least recently active goes. */
  private remember(entry: AnnouncedApplication): void {
    this.announcedApps.set(entry.application_id, { entry, lastActive: ++this.activityTick });
    if (this.announcedApps.size <= MAX_ANNOUNCED) return;
    let stalest: string | undefined;
    let stalestTick = Infinity;
    for (const [id, slot] of this.announcedApps) {
      if (slot.lastActive < stalestTick) [stalest, stalestTick] = [id, slot.lastActive];
    }
    if (stalest !== undefined) this.announcedApps.delete(stalest);
  }

  /** Resolves when every change so far is on disk (or its write failed). */
  flush(): Promise<void> {
    return this.writes.flush();
  }

  /** One write at a time; changes made while one runs are written by the next, together. */
  private save(): Promise<void> {
    return this.writes.request();
  }

  private async writeNow(): Promise<void> {
    await writeJsonStateFile(this.file, { version: FORMAT_VERSION, ...this.current, announced: this.announced() });
  }

  private async read(): Promise<string | null> {
    // Temp files of a writer that died between writing and renaming.
    await removeStrayTemps(this.file, writerGone);
    const read = await readJsonStateFile(this.file, FileSchema, 'presence settings');
    if (read.kind === 'missing') return null;
    if (read.kind === 'valid') {
      const { policy, pinned_application_id, hide_all, rules, announced } = read.value;
      this.current = { policy, pinned_application_id, hide_all, rules: rules as Record<string, AppRule> };
      // A file from before the smaller bound keeps its most recent entries (the file lists them last).
      for (const entry of announced.slice(-MAX_ANNOUNCED)) this.remember(entry);
      return null;
    }
    const aside = await moveAside(this.file, fileTimestamp(this.now()));
    return `${PRESENCE_FILE} ${read.problem}; kept as ${path.basename(aside)}; using the default presence settings`;
  }
}
