import { RpcError, RpcErrorCode, type RpcConnection, type VoiceSettings, type VoiceSettingsPatch } from '../../../../rpc/src/index.js';
import type { VoiceSettingsChanger, VoiceSettingsStore } from './voice-settings-store.js';

/** The ERROR text of SET_VOICE_SETTINGS while another application holds the settings (ours). */
export const VOICE_SETTINGS_LOCKED_MESSAGE = 'The voice settings are locked by another application until it disconnects';

/**
 * One application at a time may change the voice settings, as in the desktop client: the first
 * connection whose SET_VOICE_SETTINGS carries a change holds them, another connection's
 * change is refused (ERROR 1000, ours) until it disconnects, and then the keys it changed go
 * back to what they were before its first change. A change by the player (UI, control API)
 * ends the hold: the settings are then the player's, and nothing is reverted.
 */
export class VoiceSettingsLease {
  private holder: string | null = null;
  /** The settings before the holder's first change. */
  private before: VoiceSettings | null = null;
  /** The keys the holder changed (top level, or `input`, `output`, `mode` with theirs). */
  private changed: VoiceSettingsPatch = {};

  constructor(private readonly store: VoiceSettingsStore) {
    store.on('change', this.onChange);
  }

  /** SET_VOICE_SETTINGS from `connectionId`: the full settings after it. */
  set(connectionId: string, patch: VoiceSettingsPatch): VoiceSettings {
    if (Object.keys(patch).length === 0) return this.store.settings;
    if (this.holder !== null && this.holder !== connectionId) throw new RpcError(RpcErrorCode.UnknownError, VOICE_SETTINGS_LOCKED_MESSAGE);
    if (this.holder === null) {
      this.holder = connectionId;
      this.before = this.store.settings;
      this.changed = {};
    }
    const settings = this.store.update(patch, { kind: 'rpc', connectionId });
    this.changed = mergePatches(this.changed, patch);
    return settings;
  }

  /** Ends the hold of a connection that left, reverting what it changed. */
  disconnected(connection: Pick<RpcConnection, 'id'>): void {
    if (connection.id !== this.holder || this.before === null) return;
    const revert = revertPatch(this.before, this.changed);
    this.release();
    this.store.update(revert, { kind: 'rpc', connectionId: connection.id });
  }

  dispose(): void {
    this.store.off('change', this.onChange);
  }

  private release(): void {
    this.holder = null;
    this.before = null;
    this.changed = {};
  }

  private readonly onChange = (_settings: VoiceSettings, by: VoiceSettingsChanger): void => {
    if (by.kind === 'player') this.release();
  };
}

type Nested = 'input' | 'output' | 'mode';
const NESTED: readonly Nested[] = ['input', 'output', 'mode'];

function mergePatches(a: VoiceSettingsPatch, b: VoiceSettingsPatch): VoiceSettingsPatch {
  const merged: Record<string, unknown> = { ...a, ...b };
  for (const key of NESTED) if (a[key] !== undefined || b[key] !== undefined) merged[key] = { ...a[key], ...b[key] };
  return merged as VoiceSettingsPatch;
}

/** The patch that sets every key of `changed` back to its value in `before`. */
function revertPatch(before: VoiceSettings, changed: VoiceSettingsPatch): VoiceSettingsPatch {
  const revert: Record<string, unknown> = {};
  for (const key of Object.keys(changed) as (keyof VoiceSettingsPatch)[]) {
    if ((NESTED as readonly string[]).includes(key)) {
      const side = before[key as Nested] as unknown as Record<string, unknown>;
      revert[key] = Object.fromEntries(Object.keys(changed[key] as object).map((inner) => [inner, side[inner]]));
    } else revert[key] = before[key];
  }
  return revert as VoiceSettingsPatch;
}
