/**
 * The example scenarios (examples/scenarios/) are the QA toolkit's own acceptance tests: every
 * file runs through the runner in this process, each scenario on a fresh host with its
 * embedded emulator, and every scenario must pass.
 */
import { describe, expect, it } from 'vitest';
import { exampleFiles, runInProcess } from './support.js';

describe('examples/scenarios', () => {
  const files = exampleFiles();

  it('covers the main flows', () => {
    expect(files.map((file) => file.replace(/^.*\//, ''))).toEqual(expect.arrayContaining(['authorize.yaml', 'gateway-loss.yaml', 'invites.yaml', 'presence.yaml', 'revoke.yaml', 'social-layer.yaml']));
  });

  for (const file of files) {
    it(`${file} passes`, async () => {
      const run = await runInProcess([file]);
      const output = [...run.out, ...run.err].join('\n');
      expect(run.err, output).toEqual([]);
      expect(run.results.length, output).toBeGreaterThan(0);
      expect(run.results.filter((result) => !result.ok).map((result) => `${result.name}: ${result.failure}`), output).toEqual([]);
      expect(run.code, output).toBe(0);
      expect(run.out.at(-1)).toBe(`${run.results.length} passed, 0 failed`);
      expect(run.out.filter((line) => /^(FAIL|skip) /.test(line))).toEqual([]);
    });
  }
});
