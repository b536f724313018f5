/** Small operations on 16-bit PCM frames (the SDK's audio path). */

const FULL_SCALE = 32768;

/** The frame's level in dBFS (-100 for silence). */
export function levelDb(samples: Int16Array): number {
  if (samples.length === 0) return -100;
  let sum = 0;
  for (let i = 0; i < samples.length; i += 1) {
    const s = samples[i] as number;
    sum += s * s;
  }
  const rms = Math.sqrt(sum / samples.length);
  return rms < 1 ? -100 : Math.max(-100, 20 * Math.log10(rms / FULL_SCALE));
}

/** The samples times `gain`, clipped to 16 bits (a new array; the input is left alone). */
export function scaled(samples: Int16Array, gain: number): Int16Array {
  const out = new Int16Array(samples.length);
  if (gain === 0) return out;
  for (let i = 0; i < samples.length; i += 1) out[i] = clip((samples[i] as number) * gain);
  return out;
}

/** Adds the samples times `gain` into a 32-bit mix bus. */
export function mixInto(bus: Int32Array, samples: Int16Array, gain = 1): void {
  const n = Math.min(bus.length, samples.length);
  for (let i = 0; i < n; i += 1) bus[i] = (bus[i] as number) + Math.round((samples[i] as number) * gain);
}

/** The mix bus clipped back to 16 bits. */
export function fromBus(bus: Int32Array, gain = 1): Int16Array {
  const out = new Int16Array(bus.length);
  for (let i = 0; i < bus.length; i += 1) out[i] = clip((bus[i] as number) * gain);
  return out;
}

function clip(value: number): number {
  return value > 32767 ? 32767 : value < -32768 ? -32768 : Math.round(value);
}
