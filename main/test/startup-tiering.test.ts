import { describe, expect, it } from 'vitest';
import { compileFromNowOn, holdCompilersForStartup } from '../src/startup-tiering.js';

describe('compilers held while serve starts', () => {
  it('a user who set a compiler flag keeps it: nothing is held', () => {
    expect(holdCompilersForStartup(['--no-opt'], '')).toBe(false);
    expect(holdCompilersForStartup([], '--max-old-space-size=100 --no-sparkplug')).toBe(false);
    expect(holdCompilersForStartup(['--turbofan'], '')).toBe(false);
  });

  it('held, then released to the defaults; a second release does nothing', () => {
    expect(holdCompilersForStartup(['--max-old-space-size=4096'], '--enable-source-maps')).toBe(true);
    compileFromNowOn();
    compileFromNowOn();
    // Code still gets hot and runs: the process is not left without its compilers.
    let sum = 0;
    for (let i = 0; i < 1e6; i += 1) sum += i % 7;
    expect(sum).toBeGreaterThan(0);
  });
});
