import { chmodSync, existsSync, readdirSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../../../rpc/test/support/test-server.js';
import { CscriptProcessList } from '../../../src/host/detection/cscript-process-list.js';
import { WindowsProcessSource } from '../../../src/host/detection/process-source-windows.js';
import { ProcessListError } from '../../../src/host/detection/windows-process-list.js';

/**
 * The runner of the Windows source, run for real on Linux: a shell script stands in for
 * cscript.exe (it gets the same arguments: //NoLogo //B SCRIPT [KNOWN]) and prints what the
 * process-list script would.
 */
const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function fakeCscript(body: string): Promise<{ dir: string; cscript: string }> {
  const dir = await makeTempDir('companion-cscript-');
  dirs.push(dir);
  const cscript = path.join(dir, 'cscript');
  writeFileSync(cscript, `#!/bin/sh\n${body}\n`);
  chmodSync(cscript, 0o755);
  return { dir, cscript };
}

/** Prints "= PID" for each line of the known file ($4), else one process; then the end line. */
const ECHO_KNOWN = `if [ -n "$4" ]; then tr -d '\\r' < "$4" | cut -f1 | sed 's/^/= /'; else printf '+ 7\\t/a.exe\\ta.exe\\tC:\\\\A\\\\a.exe\\t\\r\\n'; fi; printf '.\\r\\n'`;

describe('issue 30 §2 Windows: the script runner', () => {
  it('runs the script from a temp folder with the known processes in a file, and the source reads its output', async () => {
    const { dir, cscript } = await fakeCscript(ECHO_KNOWN);
    const runner = new CscriptProcessList({ cscript, tempRoot: dir });
    const source = new WindowsProcessSource({ runner });
    const first = await source.scan();
    expect(first).toMatchObject({ complete: true, processes: [{ pid: 7, candidates: [{ path: 'c:/a/a.exe', os: 'win32' }] }], gone: [] });
    const folder = readdirSync(dir).find((name) => name.startsWith('companion-processes-'));
    expect(folder).toBeDefined();
    expect(readdirSync(path.join(dir, folder ?? ''))).toContain('process-list.vbs');
    const second = await source.scan();
    expect(second).toEqual({ complete: false, processes: [], gone: [] });
    source.close();
    expect(existsSync(path.join(dir, folder ?? ''))).toBe(false);
  });

  it('output cut short (no end line) fails the scan with a ProcessListError', async () => {
    const { dir, cscript } = await fakeCscript(`printf '= 1\\r\\n'`);
    const source = new WindowsProcessSource({ runner: new CscriptProcessList({ cscript, tempRoot: dir }) });
    await expect(source.scan()).rejects.toThrow(/cut short/);
    source.close();
  });

  it('a script that hangs is killed at the timeout, and the scan fails', async () => {
    const { dir, cscript } = await fakeCscript('exec sleep 30');
    const source = new WindowsProcessSource({ runner: new CscriptProcessList({ cscript, tempRoot: dir, timeoutMs: 300 }) });
    await expect(source.scan()).rejects.toThrow(ProcessListError);
    source.close();
  });

  it('a missing cscript.exe fails the scan with a ProcessListError', async () => {
    const dir = await makeTempDir('companion-cscript-');
    dirs.push(dir);
    const source = new WindowsProcessSource({ runner: new CscriptProcessList({ cscript: path.join(dir, 'nothing'), tempRoot: dir }) });
    await expect(source.scan()).rejects.toThrow(/failed to start/);
    source.close();
  });
});
