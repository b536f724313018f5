// Issue 29 §2: the Social SDK's last audio device calls on the SDK's virtual devices (ours: a Node
// game has no sound card): GetDefaultAudioDeviceId, SetDeviceChangeCallback (fired as the game
// plugs virtual devices in and out) and SetNoiseCancellation. No platform is needed: devices are local.
import { afterEach, describe, expect, it } from 'vitest';
import { Client, DEFAULT_AUDIO_DEVICE_ID, type AudioDevice } from '../../client/index.js';

const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.disconnect();
});

function game(): Client {
  const client = new Client({ logger: { sink: () => undefined }, connection: { socketPaths: [] } });
  clients.push(client);
  return client;
}

const ids = (devices: readonly AudioDevice[]): string[] => devices.map((device) => device.id);

describe('issue 29 §2 audio devices: the default device id, virtual devices plugged in and out, the device change callback', () => {
  it("answers 'default' for the system's default; adding and removing a virtual input or output tells the callback the new lists and moves what is in use", async () => {
    const client = game();
    expect(Client.getDefaultAudioDeviceId()).toBe('default');
    expect(DEFAULT_AUDIO_DEVICE_ID).toBe('default');
    const builtInInput = await client.getCurrentInputDevice();
    const builtInOutput = await client.getCurrentOutputDevice();
    expect(builtInInput.isDefault).toBe(true);

    const changes: [string[], string[]][] = [];
    client.setDeviceChangeCallback((inputs, outputs) => changes.push([ids(inputs), ids(outputs)]));

    // A headset's microphone is plugged in: listed, not the default, not in use until chosen.
    const headset = client.addVirtualInputDevice('USB headset');
    expect(headset.device).toEqual({ id: expect.stringMatching(/^companion-virtual-input-\d+$/), name: 'USB headset', isDefault: false });
    expect(changes).toEqual([[[builtInInput.id, headset.device.id], [builtInOutput.id]]]);
    expect(ids(await client.getInputDevices())).toEqual([builtInInput.id, headset.device.id]);
    expect((await client.getCurrentInputDevice()).id).toBe(builtInInput.id);
    expect((await client.setInputDevice(headset.device.id)).successful).toBe(true);
    expect(await client.getCurrentInputDevice()).toEqual(headset.device);
    expect(client.getVirtualInputDevice()).toBe(headset);

    // Speakers plugged in and chosen; then unplugged while in use: the built-in ones take over.
    const speakers = client.addVirtualOutputDevice();
    expect(speakers.device.name).toMatch(/^Companion virtual output \d+$/);
    expect(changes.at(-1)).toEqual([[builtInInput.id, headset.device.id], [builtInOutput.id, speakers.device.id]]);
    expect((await client.setOutputDevice(speakers.device.id)).successful).toBe(true);
    expect(client.getVirtualOutputDevice()).toBe(speakers);
    expect(client.removeVirtualOutputDevice(speakers.device.id)).toBe(true);
    expect(changes.at(-1)).toEqual([[builtInInput.id, headset.device.id], [builtInOutput.id]]);
    expect((await client.getCurrentOutputDevice()).id).toBe(builtInOutput.id);
    expect((await client.setOutputDevice(speakers.device.id)).type).toBe('ValidationError');

    // 'default' chooses the built-in input again; the headset unplugged leaves the list.
    expect((await client.setInputDevice(Client.getDefaultAudioDeviceId())).successful).toBe(true);
    expect((await client.getCurrentInputDevice()).id).toBe(builtInInput.id);
    expect(client.removeVirtualInputDevice(headset.device.id)).toBe(true);
    expect(changes.at(-1)).toEqual([[builtInInput.id], [builtInOutput.id]]);
    expect(changes).toHaveLength(4);

    // The built-in devices cannot be unplugged, unknown ids change nothing, bad names are refused.
    expect(client.removeVirtualInputDevice(builtInInput.id)).toBe(false);
    expect(client.removeVirtualOutputDevice('companion-virtual-output-99')).toBe(false);
    expect(changes).toHaveLength(4);
    expect(() => client.addVirtualInputDevice('')).toThrow(TypeError);
    expect((await client.setInputDevice('usb-headset')).error).toContain('no input device');

    // A callback that throws does not stop the device from coming; without a callback nothing is told.
    client.setDeviceChangeCallback(() => {
      throw new Error('the game failed');
    });
    const another = client.addVirtualInputDevice('Webcam microphone');
    expect(ids(await client.getInputDevices())).toContain(another.device.id);
    client.setDeviceChangeCallback(undefined);
    expect(client.removeVirtualInputDevice(another.device.id)).toBe(true);
    expect(changes).toHaveLength(4);
  });
});

describe('issue 29 §2 audio devices: noise cancellation', () => {
  it('is off by default; turning it on turns noise suppression off, as the Social SDK does', () => {
    const client = game();
    expect(client.getAudioProcessing()).toEqual({ echoCancellation: true, noiseSuppression: true, noiseCancellation: false, automaticGainControl: true });
    client.setNoiseCancellation(true);
    expect(client.getAudioProcessing()).toMatchObject({ noiseCancellation: true, noiseSuppression: false });
    client.setNoiseCancellation(false);
    client.setNoiseSuppression(true);
    expect(client.getAudioProcessing()).toMatchObject({ noiseCancellation: false, noiseSuppression: true });
  });
});
