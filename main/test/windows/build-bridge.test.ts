/**
 * Issue 27 §2: `npm run build:bridge` without mingw-w64 says in one line how to get it (the build
 * itself runs in bridge.test.ts, where the compiler is there or the suite says why not).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/cli-process.js';

describe('issue 27 §2: npm run build:bridge', () => {
  it('without x86_64-w64-mingw32-gcc on PATH: exit 1 and one line naming the package to install', () => {
    const emptyBin = mkdtempSync(path.join(os.tmpdir(), 'companion-no-mingw-'));
    try {
      const run = spawnSync(process.execPath, [path.join(REPO_ROOT, 'scripts/build-bridge.mjs')], { cwd: REPO_ROOT, encoding: 'utf8', env: { PATH: emptyBin } });
      expect(run.status).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toContain('x86_64-w64-mingw32-gcc not found');
      expect(run.stderr).toContain('sudo apt-get install -y gcc-mingw-w64-x86-64');
    } finally {
      rmSync(emptyBin, { recursive: true, force: true });
    }
  });
});
