import * as v from 'valibot';
import { RpcError, RpcErrorCode } from '../protocol/codes.js';
import { obj } from './activity-schema.js';
import { parseArgs } from './joi-message.js';

/*
 * The voice settings object of GET_VOICE_SETTINGS, SET_VOICE_SETTINGS and VOICE_SETTINGS_UPDATE,
 * in the desktop client's shape, and the SET_VOICE_SETTINGS argument schema (a partial update:
 * every key optional, nested objects merged key by key). Limits are the documented ones; the
 * messages are Joi's rule texts so errors read as the other commands' do.
 */

/** An audio device as the settings list it (read-only for clients). */
export interface VoiceDevice {
  readonly id: string;
  readonly name: string;
}

/** A key of the push-to-talk shortcut: type 0 keyboard key, 1 mouse button, 2 modifier, 3 gamepad button. */
export interface VoiceShortcutKey {
  readonly type: 0 | 1 | 2 | 3;
  readonly code: number;
  readonly name: string;
}

export const VOICE_MODES = ['VOICE_ACTIVITY', 'PUSH_TO_TALK'] as const;
export type VoiceModeType = (typeof VOICE_MODES)[number];

export interface VoiceSettings {
  readonly input: { readonly device_id: string; readonly volume: number; readonly available_devices: readonly VoiceDevice[] };
  readonly output: { readonly device_id: string; readonly volume: number; readonly available_devices: readonly VoiceDevice[] };
  readonly mode: {
    readonly type: VoiceModeType;
    readonly auto_threshold: boolean;
    /** dB, -100 to 0. */
    readonly threshold: number;
    readonly shortcut: readonly VoiceShortcutKey[];
    /** Push-to-talk release delay, ms, 0 to 2000. */
    readonly delay: number;
  };
  readonly automatic_gain_control: boolean;
  readonly echo_cancellation: boolean;
  readonly noise_suppression: boolean;
  readonly qos: boolean;
  readonly silence_warning: boolean;
  readonly deaf: boolean;
  readonly mute: boolean;
}

/**
 * The one device a headless host has (it has no sound card): ours. A player's host with real
 * devices would list them here.
 */
export const DEFAULT_VOICE_DEVICE: VoiceDevice = { id: 'default', name: 'Default' };

/** A fresh install's settings: the desktop client's defaults. */
export const DEFAULT_VOICE_SETTINGS: VoiceSettings = {
  input: { device_id: DEFAULT_VOICE_DEVICE.id, volume: 100, available_devices: [DEFAULT_VOICE_DEVICE] },
  output: { device_id: DEFAULT_VOICE_DEVICE.id, volume: 100, available_devices: [DEFAULT_VOICE_DEVICE] },
  mode: { type: 'VOICE_ACTIVITY', auto_threshold: true, threshold: -60, shortcut: [], delay: 20 },
  automatic_gain_control: true,
  echo_cancellation: true,
  noise_suppression: true,
  qos: true,
  silence_warning: true,
  deaf: false,
  mute: false,
};

/** Keys a push-to-talk shortcut may hold at most (ours: a combination, never a list of every key). */
export const MAX_SHORTCUT_KEYS = 8;

const bool = v.optional(v.boolean('must be a boolean'));

function range(min: number, max: number) {
  return v.pipe(
    v.number('must be a number'),
    v.minValue(min, `must be larger than or equal to ${min}`),
    v.maxValue(max, `must be less than or equal to ${max}`),
  );
}

const deviceId = v.optional(v.pipe(v.string('must be a string'), v.maxLength(200, 'length must be less than or equal to 200 characters long')));

const ShortcutKey = obj({
  type: v.pipe(
    v.number('must be a number'),
    v.check((value) => value === 0 || value === 1 || value === 2 || value === 3, 'must be one of [0, 1, 2, 3]'),
  ),
  code: v.pipe(v.number('must be a number'), v.integer('must be an integer')),
  name: v.pipe(v.string('must be a string'), v.maxLength(100, 'length must be less than or equal to 100 characters long')),
});

/** SET_VOICE_SETTINGS args: any subset; unknown keys and `available_devices` (read-only) are ignored. */
export const SetVoiceSettingsArgs = obj({
  input: v.optional(obj({ device_id: deviceId, volume: v.optional(range(0, 100)) })),
  output: v.optional(obj({ device_id: deviceId, volume: v.optional(range(0, 200)) })),
  mode: v.optional(
    obj({
      type: v.optional(v.picklist(VOICE_MODES, `must be one of [${VOICE_MODES.join(', ')}]`)),
      auto_threshold: bool,
      threshold: v.optional(range(-100, 0)),
      shortcut: v.optional(
        v.pipe(
          v.array(ShortcutKey, 'must be an array'),
          v.maxLength(MAX_SHORTCUT_KEYS, `must contain less than or equal to ${MAX_SHORTCUT_KEYS} items`),
        ),
      ),
      delay: v.optional(range(0, 2000)),
    }),
  ),
  automatic_gain_control: bool,
  echo_cancellation: bool,
  noise_suppression: bool,
  qos: bool,
  silence_warning: bool,
  deaf: bool,
  mute: bool,
});

export type VoiceSettingsPatch = v.InferOutput<typeof SetVoiceSettingsArgs>;

/** Parses SET_VOICE_SETTINGS args; a bad one is ERROR 4000 with the Joi text. */
export const parseSetVoiceSettingsArgs = (args: unknown): VoiceSettingsPatch => parseArgs(SetVoiceSettingsArgs, args);

/**
 * `current` with `patch` applied: top-level keys replace, `input`, `output` and `mode` merge key
 * by key. A device id that is not among the available devices is refused (4000).
 */
export function mergeVoiceSettings(current: VoiceSettings, patch: VoiceSettingsPatch): VoiceSettings {
  const { input, output, mode, ...flags } = patch;
  checkDevice('input', current.input.available_devices, input?.device_id);
  checkDevice('output', current.output.available_devices, output?.device_id);
  return {
    ...current,
    ...definedOnly(flags),
    input: { ...current.input, ...definedOnly(input ?? {}) },
    output: { ...current.output, ...definedOnly(output ?? {}) },
    mode: { ...current.mode, ...definedOnly(mode ?? {}), shortcut: mode?.shortcut?.map(shortcutKey) ?? current.mode.shortcut },
  };
}

function shortcutKey(key: { type: number; code: number; name: string }): VoiceShortcutKey {
  return { type: key.type as VoiceShortcutKey['type'], code: key.code, name: key.name };
}

function checkDevice(side: 'input' | 'output', devices: readonly VoiceDevice[], id: string | undefined): void {
  if (id === undefined || devices.some((device) => device.id === id)) return;
  const ids = devices.map((device) => device.id).join(', ');
  throw new RpcError(RpcErrorCode.InvalidPayload, `child "${side}" fails because [child "device_id" fails because ["device_id" must be one of [${ids}]]]`);
}

type Defined<T> = { [K in keyof T]?: Exclude<T[K], undefined> };

function definedOnly<T extends object>(value: T): Defined<T> {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as Defined<T>;
}

/** Whether two settings objects say the same (VOICE_SETTINGS_UPDATE is sent only on a change). */
export function sameVoiceSettings(a: VoiceSettings, b: VoiceSettings): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
