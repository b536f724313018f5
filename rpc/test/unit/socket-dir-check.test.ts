import { chmod, chown, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkSocketDirectory, judgeSocketDirectory, UnsafeSocketDirectoryError } from '../../src/index.js';

const ME = 1000;
const dir = (mode: number, uid = ME) => ({ isDirectory: true, uid, mode: 0o40000 | mode });

describe('judgeSocketDirectory', () => {
  it('accepts a private directory of the user (0700), not shared', () => {
    expect(judgeSocketDirectory(dir(0o700), ME)).toEqual({ ok: true, shared: false });
  });

  it('accepts a readable directory of the user (0755) as shared: the 0600 sockets keep others out', () => {
    expect(judgeSocketDirectory(dir(0o755), ME)).toEqual({ ok: true, shared: true });
  });

  it('accepts a sticky shared directory such as /tmp (root, 1777)', () => {
    expect(judgeSocketDirectory(dir(0o1777, 0), ME)).toEqual({ ok: true, shared: true });
  });

  it("refuses a directory owned by another user (e.g. someone else's XDG_RUNTIME_DIR)", () => {
    const verdict = judgeSocketDirectory(dir(0o700, 1001), ME);
    expect(verdict).toEqual({ ok: false, problem: expect.stringContaining('is owned by uid 1001, not by you (uid 1000)') });
  });

  it('refuses a directory others may write to without the sticky bit, naming the mode and the fix', () => {
    for (const mode of [0o777, 0o770, 0o702]) {
      const verdict = judgeSocketDirectory(dir(mode), ME);
      expect(verdict.ok).toBe(false);
      expect(!verdict.ok && verdict.problem).toContain(`without the sticky bit (mode 0${mode.toString(8)})`);
      expect(!verdict.ok && verdict.problem).toContain('chmod 700');
    }
  });

  it('refuses something that is not a directory', () => {
    expect(judgeSocketDirectory({ isDirectory: false, uid: ME, mode: 0o100600 }, ME)).toEqual({ ok: false, problem: 'is not a directory' });
  });
});

describe('checkSocketDirectory (real directories)', () => {
  const made: string[] = [];
  afterEach(async () => {
    for (const d of made.splice(0)) await rm(d, { recursive: true, force: true });
  });
  async function temp(): Promise<string> {
    const d = await mkdtemp(path.join(os.tmpdir(), 'companion-dircheck-'));
    made.push(d);
    return d;
  }

  it('passes a fresh private temp dir and the shared /tmp', async () => {
    await expect(checkSocketDirectory(await temp())).resolves.toEqual({ ok: true, shared: false });
    await expect(checkSocketDirectory(os.tmpdir())).resolves.toMatchObject({ ok: true });
  });

  it('throws a clear error for a world-writable directory without the sticky bit', async () => {
    const d = await temp();
    await chmod(d, 0o777);
    const error = await checkSocketDirectory(d).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnsafeSocketDirectoryError);
    expect((error as Error).message).toBe(
      `the socket directory ${d} is writable by other users without the sticky bit (mode 0777): anyone could replace your sockets; make it private (chmod 700) or sticky (chmod +t)`,
    );
  });

  it.runIf(process.getuid?.() === 0)('throws for a directory owned by another user', async () => {
    const d = await temp();
    await chown(d, 65534, 65534);
    await expect(checkSocketDirectory(d)).rejects.toThrow(`the socket directory ${d} is owned by uid 65534, not by you (uid 0)`);
  });
});
