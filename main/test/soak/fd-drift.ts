/**
 * Whether a host's idle fd count stayed flat over a soak: the samples are taken after each
 * traffic cycle, once every client has gone and the count has settled.
 */
export interface FdDrift {
  /** The count after warm-up, before the measured cycles. */
  readonly baseline: number;
  readonly last: number;
  readonly min: number;
  readonly max: number;
  readonly firstThirdMax: number;
  readonly lastThirdMax: number;
  /** Why the count is not flat; empty when it is. */
  readonly problems: readonly string[];
}

/**
 * Two checks, each allowing `tolerance` fds of noise: the last sample is at most the
 * baseline plus the tolerance (nothing was left behind in total), and the highest sample of
 * the last third is at most the highest of the first third plus the tolerance (no steady
 * climb, even one that a quiet last sample would hide).
 */
export function judgeFdDrift(baseline: number, samples: readonly number[], tolerance: number): FdDrift {
  if (samples.length < 3) {
    return { baseline, last: samples.at(-1) ?? baseline, min: baseline, max: baseline, firstThirdMax: baseline, lastThirdMax: baseline, problems: [`only ${samples.length} samples: at least 3 are needed`] };
  }
  const third = Math.floor(samples.length / 3);
  const last = samples.at(-1) as number;
  const firstThirdMax = Math.max(...samples.slice(0, third));
  const lastThirdMax = Math.max(...samples.slice(samples.length - third));
  const problems: string[] = [];
  if (last > baseline + tolerance) {
    problems.push(`${last} fds at the end against ${baseline} after warm-up (more than ${tolerance} above)`);
  }
  if (lastThirdMax > firstThirdMax + tolerance) {
    problems.push(`up to ${lastThirdMax} fds in the last third of the run against up to ${firstThirdMax} in the first (more than ${tolerance} above)`);
  }
  return { baseline, last, min: Math.min(...samples), max: Math.max(...samples), firstThirdMax, lastThirdMax, problems };
}
