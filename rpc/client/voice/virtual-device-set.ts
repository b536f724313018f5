import { VirtualInputDevice, VirtualOutputDevice, type AudioDevice } from './virtual-devices.js';

/** Client::DeviceChangeCallback: the input and output devices after a change. */
export type DeviceChangeCallback = (inputDevices: AudioDevice[], outputDevices: AudioDevice[]) => void;

/**
 * Client::GetDefaultAudioDeviceId **(ours: the id)**: the id that stands for the system's default
 * device, input or output, whichever it is; setInputDevice/setOutputDevice take it.
 */
export const DEFAULT_AUDIO_DEVICE_ID = 'default';

type Kind = 'input' | 'output';

/** One kind's devices: the built-in (the system's default, never removed), the added ones, the one in use. */
class DeviceList<T extends { readonly device: AudioDevice }> {
  private readonly added = new Map<string, T>();
  current: T;

  constructor(readonly builtIn: T) {
    this.current = builtIn;
  }

  all(): T[] {
    return [this.builtIn, ...this.added.values()];
  }

  find(id: string): T | undefined {
    return id === DEFAULT_AUDIO_DEVICE_ID || id === this.builtIn.device.id ? this.builtIn : this.added.get(id);
  }

  add(device: T): void {
    this.added.set(device.device.id, device);
  }

  /** Removes an added device (the one in use falls back to the built-in); false for the built-in or an unknown id. */
  remove(id: string): boolean {
    const device = this.added.get(id);
    if (device === undefined) return false;
    this.added.delete(id);
    if (this.current === device) this.current = this.builtIn;
    return true;
  }
}

/**
 * The SDK's audio devices **(ours: a Node game has no sound card)**: a built-in virtual input
 * and output (the system's defaults) and whatever virtual devices the game adds, as a player
 * plugs in a headset; the one in use of each kind; the device change callback, told the new
 * lists each time a device comes or goes.
 */
export class VirtualDeviceSet {
  private readonly inputs = new DeviceList(new VirtualInputDevice());
  private readonly outputs = new DeviceList(new VirtualOutputDevice());
  private changeCallback: DeviceChangeCallback | undefined;
  private nextNumber = 2;

  /** `callbackFailed`: the game's callback threw (logged, never thrown back at the change). */
  constructor(private readonly callbackFailed: (error: unknown) => void) {}

  get input(): VirtualInputDevice {
    return this.inputs.current;
  }

  get output(): VirtualOutputDevice {
    return this.outputs.current;
  }

  inputDevices(): AudioDevice[] {
    return this.inputs.all().map((input) => input.device);
  }

  outputDevices(): AudioDevice[] {
    return this.outputs.all().map((output) => output.device);
  }

  /** Uses the input of that id (or `default`); false for an id that is none. */
  selectInput(id: string): boolean {
    return this.select(this.inputs, id);
  }

  selectOutput(id: string): boolean {
    return this.select(this.outputs, id);
  }

  addInput(name?: string): VirtualInputDevice {
    const device = new VirtualInputDevice(this.describe('input', name));
    this.inputs.add(device);
    this.changed();
    return device;
  }

  addOutput(name?: string): VirtualOutputDevice {
    const device = new VirtualOutputDevice(this.describe('output', name));
    this.outputs.add(device);
    this.changed();
    return device;
  }

  /** Removes an added input (in use, the built-in one takes over); false for the built-in or an unknown id. */
  removeInput(id: string): boolean {
    if (!this.inputs.remove(id)) return false;
    this.changed();
    return true;
  }

  removeOutput(id: string): boolean {
    if (!this.outputs.remove(id)) return false;
    this.changed();
    return true;
  }

  setChangeCallback(callback: DeviceChangeCallback | undefined): void {
    this.changeCallback = callback;
  }

  private select<T extends { readonly device: AudioDevice }>(list: DeviceList<T>, id: string): boolean {
    const device = typeof id === 'string' ? list.find(id) : undefined;
    if (device === undefined) return false;
    list.current = device;
    return true;
  }

  private describe(kind: Kind, name: string | undefined): AudioDevice {
    if (name !== undefined && (typeof name !== 'string' || name.trim() === '' || name.length > 100)) throw new TypeError('name must be a non-empty string of at most 100 characters');
    const number = this.nextNumber++;
    return { id: `companion-virtual-${kind}-${number}`, name: name ?? `Companion virtual ${kind} ${number}`, isDefault: false };
  }

  private changed(): void {
    const callback = this.changeCallback;
    if (callback === undefined) return;
    try {
      callback(this.inputDevices(), this.outputDevices());
    } catch (error) {
      this.callbackFailed(error);
    }
  }
}
