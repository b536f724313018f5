import { EventEmitter } from 'node:events';
import path from 'node:path';
import * as v from 'valibot';
import { removeStrayTemps, writerGone } from '../../../../common/src/node/atomic-file.js';
import {
  DEFAULT_VOICE_SETTINGS,
  mergeVoiceSettings,
  sameVoiceSettings,
  VOICE_MODES,
  type VoiceSettings,
  type VoiceSettingsPatch,
} from '../../../../rpc/src/index.js';
import { fileTimestamp, moveAside, readJsonStateFile, writeJsonStateFile } from '../../base/json-state-file.js';
import { SerialWrites } from '../../base/serial-writes.js';

export const VOICE_SETTINGS_FILE = 'voice-settings.json';
const FORMAT_VERSION = 1;

export interface VoiceSettingsStoreLogger {
  warn(fields: object, message: string): void;
}

/** Who changed the settings: a game's RPC connection (its id), or the player (UI, control API, CLI). */
export type VoiceSettingsChanger = { readonly kind: 'rpc'; readonly connectionId: string } | { readonly kind: 'player' };

export interface VoiceSettingsStoreEvents {
  /** The settings changed (not sent when an update changed nothing). */
  change: [VoiceSettings, VoiceSettingsChanger];
}

const Key = v.object({ type: v.picklist([0, 1, 2, 3]), code: v.number(), name: v.string() });
/** What the file keeps: the settings a player chooses; the device lists are the host's, never stored. */
const FileSchema = v.object({
  version: v.literal(FORMAT_VERSION),
  input: v.object({ device_id: v.string(), volume: v.pipe(v.number(), v.minValue(0), v.maxValue(100)) }),
  output: v.object({ device_id: v.string(), volume: v.pipe(v.number(), v.minValue(0), v.maxValue(200)) }),
  mode: v.object({
    type: v.picklist(VOICE_MODES),
    auto_threshold: v.boolean(),
    threshold: v.pipe(v.number(), v.minValue(-100), v.maxValue(0)),
    shortcut: v.array(Key),
    delay: v.pipe(v.number(), v.minValue(0), v.maxValue(2000)),
  }),
  automatic_gain_control: v.boolean(),
  echo_cancellation: v.boolean(),
  noise_suppression: v.boolean(),
  qos: v.boolean(),
  silence_warning: v.boolean(),
  deaf: v.boolean(),
  mute: v.boolean(),
});

/**
 * The player's voice settings (GET/SET_VOICE_SETTINGS, VOICE_SETTINGS_UPDATE) in
 * `<data dir>/voice-settings.json` (mode 0600, written atomically, one write at a time). A file
 * that is not valid JSON or not in this shape is renamed aside to
 * `voice-settings.json.corrupt-<timestamp>` with a warning, and the defaults are used; other
 * read errors (e.g. EACCES) reject, leaving the file alone. A stored device the host no longer
 * has falls back to the default one.
 */
export class VoiceSettingsStore extends EventEmitter<VoiceSettingsStoreEvents> {
  private current: VoiceSettings = DEFAULT_VOICE_SETTINGS;
  private readonly writes = new SerialWrites(() => this.writeNow());

  private constructor(
    private readonly dataDir: string,
    private readonly now: () => number,
  ) {
    super();
  }

  /** Reads the file (a missing one is the defaults); `warning` when it had to be set aside. */
  static async load(
    dataDir: string,
    options: { readonly logger?: VoiceSettingsStoreLogger; readonly now?: () => number } = {},
  ): Promise<{ store: VoiceSettingsStore; warning: string | null }> {
    const store = new VoiceSettingsStore(dataDir, options.now ?? Date.now);
    const warning = await store.read();
    if (warning !== null) options.logger?.warn({ file: store.file }, warning);
    return { store, warning };
  }

  get file(): string {
    return path.join(this.dataDir, VOICE_SETTINGS_FILE);
  }

  get settings(): VoiceSettings {
    return this.current;
  }

  /**
   * Applies a partial update (see mergeVoiceSettings; throws its RpcError for an unknown
   * device) and returns the full settings. A real change is announced and written.
   */
  update(patch: VoiceSettingsPatch, by: VoiceSettingsChanger): VoiceSettings {
    const next = mergeVoiceSettings(this.current, patch);
    if (sameVoiceSettings(next, this.current)) return this.current;
    this.current = next;
    void this.writes.request().catch(() => undefined);
    this.emit('change', next, by);
    return next;
  }

  /** Resolves when every change so far is on disk (or its write failed). */
  flush(): Promise<void> {
    return this.writes.flush();
  }

  private async writeNow(): Promise<void> {
    const { input, output, ...rest } = this.current;
    await writeJsonStateFile(this.file, {
      version: FORMAT_VERSION,
      input: { device_id: input.device_id, volume: input.volume },
      output: { device_id: output.device_id, volume: output.volume },
      ...rest,
    });
  }

  private async read(): Promise<string | null> {
    await removeStrayTemps(this.file, writerGone);
    const read = await readJsonStateFile(this.file, FileSchema, 'voice settings');
    if (read.kind === 'missing') return null;
    if (read.kind === 'valid') {
      this.current = fromFile(read.value);
      return null;
    }
    const aside = await moveAside(this.file, fileTimestamp(this.now()));
    return `${VOICE_SETTINGS_FILE} ${read.problem}; kept as ${path.basename(aside)}; using the default voice settings`;
  }
}

/** The settings a valid file holds, in the reply's key order, over the host's device lists. */
function fromFile(file: v.InferOutput<typeof FileSchema>): VoiceSettings {
  const d = DEFAULT_VOICE_SETTINGS;
  const device = (id: string, side: VoiceSettings['input']): string => (side.available_devices.some((item) => item.id === id) ? id : side.device_id);
  return {
    input: { device_id: device(file.input.device_id, d.input), volume: file.input.volume, available_devices: d.input.available_devices },
    output: { device_id: device(file.output.device_id, d.output), volume: file.output.volume, available_devices: d.output.available_devices },
    mode: { type: file.mode.type, auto_threshold: file.mode.auto_threshold, threshold: file.mode.threshold, shortcut: file.mode.shortcut, delay: file.mode.delay },
    automatic_gain_control: file.automatic_gain_control,
    echo_cancellation: file.echo_cancellation,
    noise_suppression: file.noise_suppression,
    qos: file.qos,
    silence_warning: file.silence_warning,
    deaf: file.deaf,
    mute: file.mute,
  };
}
