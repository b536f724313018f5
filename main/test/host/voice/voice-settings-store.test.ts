import { readdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../../../rpc/test/support/test-server.js';
import { DEFAULT_VOICE_SETTINGS, RpcError, type VoiceSettings } from '../../../../rpc/src/index.js';
import { VOICE_SETTINGS_FILE, VoiceSettingsStore, type VoiceSettingsChanger } from '../../../src/host/voice/voice-settings-store.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});
async function tempDir(): Promise<string> {
  const dir = await makeTempDir('companion-voice-');
  dirs.push(dir);
  return dir;
}

describe('issue 29 §3: the host keeps the voice settings', () => {
  it('starts from the defaults, merges partial updates, announces only real changes, and reads them back (mode 0600)', async () => {
    const dir = await tempDir();
    const { store, warning } = await VoiceSettingsStore.load(dir);
    expect(warning).toBeNull();
    expect(store.settings).toEqual(DEFAULT_VOICE_SETTINGS);
    const changes: [VoiceSettings, VoiceSettingsChanger][] = [];
    store.on('change', (settings, by) => changes.push([settings, by]));

    store.update({ deaf: true, output: { volume: 150 } }, { kind: 'player' });
    store.update({ mode: { type: 'PUSH_TO_TALK', delay: 300 } }, { kind: 'rpc', connectionId: 'c7' });
    store.update({ deaf: true }, { kind: 'player' });
    expect(changes.map(([, by]) => by)).toEqual([{ kind: 'player' }, { kind: 'rpc', connectionId: 'c7' }]);
    const expected = {
      ...DEFAULT_VOICE_SETTINGS,
      deaf: true,
      output: { ...DEFAULT_VOICE_SETTINGS.output, volume: 150 },
      mode: { ...DEFAULT_VOICE_SETTINGS.mode, type: 'PUSH_TO_TALK', delay: 300 },
    };
    expect(store.settings).toEqual(expected);
    expect(() => store.update({ output: { device_id: 'hdmi-2' } }, { kind: 'player' })).toThrow(RpcError);

    await store.flush();
    expect((await stat(path.join(dir, VOICE_SETTINGS_FILE))).mode & 0o777).toBe(0o600);
    const again = await VoiceSettingsStore.load(dir);
    expect(again.store.settings).toEqual(expected);
  });

  it('sets a corrupt or foreign file aside with a warning and uses the defaults', async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, VOICE_SETTINGS_FILE), '{"version":1,"mute":"very"}');
    const { store, warning } = await VoiceSettingsStore.load(dir);
    expect(warning).toMatch(/voice-settings\.json did not hold voice settings .*; kept as voice-settings\.json\.corrupt-/);
    expect(store.settings).toEqual(DEFAULT_VOICE_SETTINGS);
    expect((await readdir(dir)).filter((name) => name.startsWith(`${VOICE_SETTINGS_FILE}.corrupt-`))).toHaveLength(1);
  });
});
