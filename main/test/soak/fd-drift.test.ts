import { describe, expect, it } from 'vitest';
import { judgeFdDrift } from './fd-drift.js';

const flat = (n: number, value: number): number[] => Array.from({ length: n }, () => value);

describe('judgeFdDrift', () => {
  it('passes a flat series and noise within the tolerance', () => {
    expect(judgeFdDrift(40, flat(60, 40), 4).problems).toEqual([]);
    const noisy = Array.from({ length: 60 }, (_, i) => 40 + (i % 5));
    expect(judgeFdDrift(40, noisy, 4).problems).toEqual([]);
  });

  it('passes a spike in the middle that went away', () => {
    const spike = flat(60, 40);
    spike[30] = 60;
    expect(judgeFdDrift(40, spike, 4)).toMatchObject({ max: 60, last: 40, problems: [] });
  });

  it('fails one fd kept per cycle', () => {
    const leak = Array.from({ length: 60 }, (_, i) => 41 + i);
    const verdict = judgeFdDrift(40, leak, 4);
    expect(verdict.problems).toHaveLength(2);
    expect(verdict.problems[0]).toContain('100 fds at the end against 40 after warm-up');
  });

  it('fails a slow climb whose last sample happens to be low', () => {
    const climb = Array.from({ length: 60 }, (_, i) => 40 + Math.floor(i / 6));
    climb[59] = 40;
    const verdict = judgeFdDrift(40, climb, 4);
    expect(verdict.problems).toEqual([expect.stringContaining('in the last third of the run')]);
  });

  it('fails a series too short to judge', () => {
    expect(judgeFdDrift(40, [40, 40], 4).problems).toEqual(['only 2 samples: at least 3 are needed']);
  });
});
