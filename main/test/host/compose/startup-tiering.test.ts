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

// Early tier-up after the release, on every supported Node: main/test/packaging/node-versions.test.ts.
