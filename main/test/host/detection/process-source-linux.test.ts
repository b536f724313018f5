import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../../../rpc/test/support/test-server.js';
import { LinuxProcessSource } from '../../../src/host/detection/process-source-linux.js';

/**
 * A PID reused between two scans cannot be made on demand with real processes (the kernel would
 * have to hand out every PID up to pid_max first), so these tests give the source a /proc of
 * their own: real files and symlinks in the layout the kernel uses.
 */
const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

class FakeProc {
  constructor(readonly root: string) {}

  lastPid(pid: number): void {
    writeFileSync(path.join(this.root, 'loadavg'), `0.10 0.20 0.30 1/200 ${pid}\n`);
  }

  process(pid: number, startTime: number, argv: readonly string[]): void {
    const dir = path.join(this.root, String(pid));
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir);
    // Fields 3 to 22 after "(comm)": the start time is the 22nd.
    const fields = ['S', ...Array.from({ length: 18 }, () => '0'), String(startTime), '0'];
    writeFileSync(path.join(dir, 'stat'), `${pid} (a name) with spaces) ${fields.join(' ')}\n`);
    writeFileSync(path.join(dir, 'cmdline'), `${argv.join('\0')}\0`);
    symlinkSync(argv[0] ?? '/nothing', path.join(dir, 'exe'));
  }

  uptime(seconds: number): void {
    writeFileSync(path.join(this.root, 'uptime'), `${seconds.toFixed(2)} 100.00\n`);
  }

  gone(pid: number): void {
    rmSync(path.join(this.root, String(pid)), { recursive: true, force: true });
  }
}

async function fakeProc(): Promise<FakeProc> {
  const root = await makeTempDir('companion-fake-proc-');
  dirs.push(root);
  return new FakeProc(root);
}

const pidsOf = (scan: { processes: readonly { pid: number }[] }): number[] => scan.processes.map((p) => p.pid).sort((a, b) => a - b);

describe('issue 30 §2: the Linux scanner notices a PID reused between two scans', () => {
  it('reads a known PID again when the kernel may have handed it out since (its start time changed)', async () => {
    const proc = await fakeProc();
    proc.lastPid(200);
    proc.process(100, 5, ['/usr/bin/bash']);
    proc.process(150, 6, ['/usr/bin/other']);
    const source = new LinuxProcessSource({ procRoot: proc.root });
    expect(pidsOf(await source.scan())).toEqual([100, 150]);
    expect(pidsOf(await source.scan())).toEqual([]); // the look again after the first read: unchanged
    // PIDs wrapped past pid_max and came back up to 120: 100 is another process now; 150 was not handed out.
    proc.lastPid(120);
    proc.process(100, 9, ['/opt/game/nativegame_x64']);
    const scan = await source.scan();
    expect(pidsOf(scan)).toEqual([100]);
    expect(scan.processes[0]?.candidates).toEqual([{ path: '/opt/game/nativegame_x64', os: 'linux' }]);
    expect(scan.gone).toEqual([]);
  });

  it('does not read a known PID again outside the PIDs handed out since the previous scan', async () => {
    const proc = await fakeProc();
    proc.lastPid(200);
    proc.process(100, 5, ['/usr/bin/bash']);
    const source = new LinuxProcessSource({ procRoot: proc.root });
    await source.scan();
    await source.scan();
    proc.lastPid(260); // 201-260 handed out: not 100
    proc.process(100, 9, ['/opt/game/nativegame_x64']);
    expect(pidsOf(await source.scan())).toEqual([]);
  });

  it('reports a PID no longer listed as gone, and one listed for the first time with its paths', async () => {
    const proc = await fakeProc();
    proc.lastPid(200);
    proc.process(100, 5, ['/usr/bin/bash']);
    const source = new LinuxProcessSource({ procRoot: proc.root });
    await source.scan();
    proc.gone(100);
    proc.process(201, 7, ['Z:\\Games\\Game\\Game.exe']);
    proc.lastPid(201);
    const scan = await source.scan();
    expect(scan.gone).toEqual([100]);
    expect(pidsOf(scan)).toEqual([201]);
    expect(scan.processes[0]?.candidates[0]).toEqual({ path: 'z:/games/game/game.exe', os: 'win32' });
  });
});

describe('issue 30 §2: the Linux scanner looks again at a young process, once', () => {
  it('reads a process that started less than 10 s before once more at the next scan (it may exec the game), an older one not', async () => {
    const proc = await fakeProc();
    proc.lastPid(200);
    proc.uptime(1000); // 100,000 ticks since boot
    proc.process(100, 99_500, ['/usr/bin/bash', 'start-game.sh']); // 5 s old
    proc.process(101, 10_000, ['/usr/bin/bash', 'other.sh']); // 900 s old
    const source = new LinuxProcessSource({ procRoot: proc.root });
    await source.scan();
    proc.process(100, 99_500, ['/opt/game/nativegame_x64']);
    proc.process(101, 10_000, ['/opt/game/othergame_x64']);
    const scan = await source.scan();
    expect(pidsOf(scan)).toEqual([100]);
    expect(scan.processes[0]?.candidates[0]).toEqual({ path: '/opt/game/nativegame_x64', os: 'linux' });
    proc.process(100, 99_500, ['/opt/game/yet-another']);
    expect(pidsOf(await source.scan())).toEqual([]); // once only
  });
});

