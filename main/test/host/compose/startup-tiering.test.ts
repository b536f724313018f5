import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { holdCompilersForStartup } from '../../../src/host/compose/startup-tiering.js';

const BUILT = new URL('../../../../out/main/src/host/compose/startup-tiering.js', import.meta.url).href;

describe('compilers held while serve starts', () => {
  it('a user who set a compiler flag keeps it: nothing is held', () => {
    expect(holdCompilersForStartup(['--no-opt'], '')).toBe(false);
    expect(holdCompilersForStartup([], '--max-old-space-size=100 --no-sparkplug')).toBe(false);
    expect(holdCompilersForStartup(['--turbofan'], '')).toBe(false);
  });

  it('while held, hot code is not optimized; once released, it is', () => {
    // A process of its own (V8 flags are process-wide), traced by V8: each optimized function is a line.
    const script = `
      const { holdCompilersForStartup, compileFromNowOn } = await import(${JSON.stringify(BUILT)});
      if (!holdCompilersForStartup()) throw new Error('not held');
      const hot = (n) => { let s = 0; for (let i = 0; i < n; i += 1) s += (i * 7) % 13; return s; };
      for (let i = 0; i < 2000; i += 1) hot(1000);
      console.log('RELEASED');
      compileFromNowOn();
      for (let i = 0; i < 2000; i += 1) hot(1000);
    `;
    const run = spawnSync(process.execPath, ['--trace-opt', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30_000 });
    expect(run.status, run.stderr).toBe(0);
    const [before, after] = run.stdout.split('RELEASED');
    expect(after).toBeDefined();
    expect(before).not.toMatch(/completed (optimizing|compiling)/);
    expect(after).toMatch(/completed (optimizing|compiling) .*hot/);
  });
});

describe('hot code tiers up early once serve has started', () => {
  // Called 1,500 times: optimized between 600 and 1,000 calls with the early threshold, between
  // 2,000 and 5,000 with V8's defaults (Node 20, when this was written).
  const script = (release: boolean): string => `
    const { holdCompilersForStartup, compileFromNowOn } = await import(${JSON.stringify(BUILT)});
    if (${release}) { holdCompilersForStartup(); compileFromNowOn(); }
    const warm = (x) => (x * 7) % 13 + (x >> 2);
    let s = 0;
    for (let i = 0; i < 1500; i += 1) { s += warm(i); await null; }
    // A compile started is let finish.
    await new Promise((resolve) => setTimeout(resolve, 300));
    console.log(s + warm(1));
  `;
  const optimized = (release: boolean): boolean => {
    const run = spawnSync(process.execPath, ['--trace-opt', '--input-type=module', '-e', script(release)], { encoding: 'utf8', timeout: 30_000 });
    expect(run.status, run.stderr).toBe(0);
    return /completed (optimizing|compiling) .*warm/.test(run.stdout);
  };

  it('a function called a few thousand times is optimized after the release, and not with V8 defaults', () => {
    expect(optimized(true)).toBe(true);
    expect(optimized(false)).toBe(false);
  });
});
