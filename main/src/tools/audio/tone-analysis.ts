/**
 * What a tone in 16-bit PCM is: its frequency by rising zero crossings, the Goertzel power of a
 * frequency (to compare it with another over the same samples), its peak. The scenario runner's
 * `expect_audio` and the voice tests read received audio with these.
 */

/** Goertzel power of `frequencyHz` in the samples (relative: compare frequencies over the same samples). */
export function goertzelPower(samples: Int16Array, frequencyHz: number, sampleRate = 48_000): number {
  const w = (2 * Math.PI * frequencyHz) / sampleRate;
  const coeff = 2 * Math.cos(w);
  let s1 = 0;
  let s2 = 0;
  for (const sample of samples) {
    const s0 = sample + coeff * s1 - s2;
    s2 = s1;
    s1 = s0;
  }
  return s1 * s1 + s2 * s2 - coeff * s1 * s2;
}

/** The frequency rising zero crossings say (crossings per second). */
export function zeroCrossingHz(samples: Int16Array, sampleRate = 48_000): number {
  let rising = 0;
  for (let i = 1; i < samples.length; i += 1) if ((samples[i - 1] as number) < 0 && (samples[i] as number) >= 0) rising += 1;
  return (rising * sampleRate) / samples.length;
}

/** The largest absolute sample (of 32,767). */
export function peak(samples: Int16Array): number {
  let max = 0;
  for (const sample of samples) max = Math.max(max, Math.abs(sample));
  return max;
}
