import { randomInt } from 'node:crypto';
import { EventEmitter } from 'node:events';
import path from 'node:path';
import * as v from 'valibot';
import { removeStrayTemps, writerGone } from '../../../../common/src/node/atomic-file.js';
import type { DetectableApplication, DetectableOs } from '../../../../platform/src/wire/index.js';
import { fileTimestamp, moveAside, readJsonStateFile, writeJsonStateFile } from '../../base/json-state-file.js';
import { SerialWrites } from '../../base/serial-writes.js';

export const DETECTION_FILE = 'detection.json';
const FORMAT_VERSION = 1;
/** Custom games a player may add (a program a player names is one entry). */
export const MAX_CUSTOM_GAMES = 100;
/** The platform's epoch for snowflakes (2015-01-01). */
const SNOWFLAKE_EPOCH = 1_420_070_400_000;

/** A program the player named as a game: a detectable entry kept on this machine only. */
export interface CustomGame {
  /** A snowflake made here, so the activity carries an application id like any other. */
  readonly id: string;
  readonly name: string;
  readonly os: DetectableOs;
  /** The executable as the list writes names: lower case, `/` separators (a path suffix or a basename). */
  readonly executable: string;
  /** Epoch ms. */
  readonly added_at: number;
}

export interface DetectionSettings {
  /** The global switch: off, no game is detected (the scanner does not run). */
  readonly enabled: boolean;
  /** Application ids the player switched off: detected, never shown. */
  readonly excluded: readonly string[];
  readonly custom: readonly CustomGame[];
}

export const DEFAULT_DETECTION_SETTINGS: DetectionSettings = { enabled: true, excluded: [], custom: [] };

const AppIdSchema = v.pipe(v.string(), v.regex(/^[0-9]{1,20}$/));
const CustomSchema = v.object({
  id: AppIdSchema,
  name: v.pipe(v.string(), v.minLength(1), v.maxLength(100)),
  os: v.picklist(['win32', 'linux', 'darwin']),
  executable: v.pipe(v.string(), v.minLength(1), v.maxLength(260)),
  added_at: v.number(),
});
const FileSchema = v.object({
  version: v.literal(FORMAT_VERSION),
  enabled: v.boolean(),
  excluded: v.array(AppIdSchema),
  custom: v.pipe(v.array(CustomSchema), v.maxLength(MAX_CUSTOM_GAMES)),
});

/** The executable as list names are written: lower case, `/` between folders, no leading `>`. */
export function normaliseExecutable(executable: string): string {
  return executable.trim().replaceAll('\\', '/').replace(/^>+/, '').toLowerCase();
}

/** A custom game as the detector takes applications: one executable, never a launcher. */
export function customDetectable(game: CustomGame): DetectableApplication {
  return { id: game.id, name: game.name, executables: [{ os: game.os, name: game.executable, is_launcher: false }] };
}

/** A refusal the player reads (a bad name, a program already there, too many). */
export class DetectionSettingsError extends Error {
  override readonly name = 'DetectionSettingsError';
  readonly status = 400;
}

export interface DetectionSettingsEvents {
  change: [DetectionSettings];
}

/**
 * The player's game detection settings in `<data dir>/detection.json` (mode 0600, written
 * atomically): the global switch, the games switched off, and the programs the player named as
 * games. A file that is not valid JSON or not in this shape is renamed aside with a warning and
 * the defaults are used.
 */
export class DetectionSettingsStore extends EventEmitter<DetectionSettingsEvents> {
  private current: DetectionSettings = DEFAULT_DETECTION_SETTINGS;
  private readonly writes = new SerialWrites(() => writeJsonStateFile(this.file, { version: FORMAT_VERSION, ...this.current }));

  private constructor(
    private readonly dataDir: string,
    private readonly now: () => number,
  ) {
    super();
  }

  static async load(dataDir: string, options: { readonly logger?: { warn(fields: object, message: string): void }; readonly now?: () => number } = {}): Promise<{ store: DetectionSettingsStore; warning: string | null }> {
    const store = new DetectionSettingsStore(dataDir, options.now ?? Date.now);
    const warning = await store.read();
    if (warning !== null) options.logger?.warn({ file: store.file }, warning);
    return { store, warning };
  }

  get file(): string {
    return path.join(this.dataDir, DETECTION_FILE);
  }

  get settings(): DetectionSettings {
    return this.current;
  }

  isExcluded(applicationId: string): boolean {
    return this.current.excluded.includes(applicationId);
  }

  setEnabled(enabled: boolean): Promise<void> {
    if (this.current.enabled === enabled) return Promise.resolve();
    return this.change({ ...this.current, enabled });
  }

  /** Switches one game off (`excluded`) or on again. */
  setExcluded(applicationId: string, excluded: boolean): Promise<void> {
    if (!/^[0-9]{1,20}$/.test(applicationId)) throw new DetectionSettingsError('an application id is a snowflake');
    const others = this.current.excluded.filter((id) => id !== applicationId);
    if (others.length === this.current.excluded.length && !excluded) return Promise.resolve();
    return this.change({ ...this.current, excluded: excluded ? [...others, applicationId] : others });
  }

  /** The player names a running program as a game; answers the entry made. */
  async addCustom(input: { readonly name: string; readonly executable: string; readonly os: DetectableOs }): Promise<CustomGame> {
    const name = input.name.trim();
    if (name.length === 0 || name.length > 100) throw new DetectionSettingsError('a game name is 1-100 characters');
    const executable = normaliseExecutable(input.executable);
    if (executable.length === 0 || executable.length > 260) throw new DetectionSettingsError('an executable is 1-260 characters');
    if (this.current.custom.some((game) => game.os === input.os && game.executable === executable)) throw new DetectionSettingsError(`'${executable}' is already one of your games`);
    if (this.current.custom.length >= MAX_CUSTOM_GAMES) throw new DetectionSettingsError(`at most ${MAX_CUSTOM_GAMES} games of your own`);
    const game: CustomGame = { id: this.newId(), name, os: input.os, executable, added_at: this.now() };
    await this.change({ ...this.current, custom: [...this.current.custom, game] });
    return game;
  }

  removeCustom(id: string): Promise<void> {
    const custom = this.current.custom.filter((game) => game.id !== id);
    if (custom.length === this.current.custom.length) throw new DetectionSettingsError('no game of your own has that id');
    return this.change({ ...this.current, custom, excluded: this.current.excluded.filter((other) => other !== id) });
  }

  flush(): Promise<void> {
    return this.writes.flush();
  }

  private change(next: DetectionSettings): Promise<void> {
    this.current = next;
    this.emit('change', next);
    return this.writes.request();
  }

  /** A snowflake of now with a random tail, unlike any other custom game's. */
  private newId(): string {
    for (;;) {
      const id = ((BigInt(this.now() - SNOWFLAKE_EPOCH) << 22n) | BigInt(randomInt(1 << 22))).toString();
      if (!this.current.custom.some((game) => game.id === id)) return id;
    }
  }

  private async read(): Promise<string | null> {
    await removeStrayTemps(this.file, writerGone);
    const read = await readJsonStateFile(this.file, FileSchema, 'game detection settings');
    if (read.kind === 'missing') return null;
    if (read.kind === 'valid') {
      const { enabled, excluded, custom } = read.value;
      this.current = { enabled, excluded: [...new Set(excluded)], custom };
      return null;
    }
    const aside = await moveAside(this.file, fileTimestamp(this.now()));
    return `${DETECTION_FILE} ${read.problem}; kept as ${path.basename(aside)}; game detection uses its defaults`;
  }
}
