import { describe, expect, it } from 'vitest';
import { DetectableIndex } from '../../../src/host/detection/detectable-index.js';
import { defaultProcessSource } from '../../../src/host/detection/default-process-source.js';
import { WindowsProcessSource, type ProcessListOutput, type ProcessListRunner } from '../../../src/host/detection/process-source-windows.js';
import { splitWindowsCommandLine, windowsScannedProcess } from '../../../src/host/detection/windows-process-candidates.js';
import { parseProcessList, ProcessListError } from '../../../src/host/detection/windows-process-list.js';

/**
 * The script's output as cscript printed it: the first lines captured under Wine 8 (no path, no
 * creation date, no other process's command line), then rows of the shape real Windows gives
 * (WMI's creation date, `ExecutablePath`, a command line with quotes, spaces and commas, a `%`,
 * a tab and an é written `%XXXX`; system processes with empty path and command line).
 */
const CAPTURED = [
  '+ 56\t/services.exe\tservices.exe\t\t',
  '+ 276\t/cscript.exe\tcscript.exe\t\t"C:\\windows\\system32\\cscript.exe" //nologo //B list.vbs',
  '+ 4\t20261128090101.500000+060/System\tSystem\t\t',
  '+ 1204\t20261128173055.123456+060/foo.exe\tfoo.exe\tC:\\Games\\Foo Bar, Inc\\foo.exe\t"C:\\Games\\Foo Bar, Inc\\foo.exe" -windowed -name "A, B" 100%0025',
  '+ 2210\t20261128173100.000000+060/Caf%00E9.exe\tCaf%00E9.exe\tC:\\Jeux\\Caf%00E9.exe\tC:\\Jeux\\Caf%00E9.exe%0009--tab',
  '.',
  '',
].join('\r\n');

describe('issue 30 §2 Windows: the process list script output is read back', () => {
  it('reads rows with paths holding spaces and commas, empty paths of system processes, and %XXXX escapes', () => {
    const list = parseProcessList(CAPTURED);
    expect(list.kept).toEqual([]);
    expect(list.fresh.map((row) => row.pid)).toEqual([56, 276, 4, 1204, 2210]);
    expect(list.fresh[0]).toEqual({ pid: 56, stamp: '/services.exe', name: 'services.exe', path: '', commandLine: '' });
    expect(list.fresh[3]).toMatchObject({ path: 'C:\\Games\\Foo Bar, Inc\\foo.exe', commandLine: '"C:\\Games\\Foo Bar, Inc\\foo.exe" -windowed -name "A, B" 100%' });
    expect(list.fresh[4]).toMatchObject({ name: 'Café.exe', path: 'C:\\Jeux\\Café.exe', commandLine: 'C:\\Jeux\\Café.exe\t--tab', stamp: '20261128173100.000000+060/Caf%00E9.exe' });
  });

  it('reads "= PID" of known processes, and refuses output cut short, a WMI error or a stray line', () => {
    expect(parseProcessList('= 4\r\n= 1204\r\n+ 9\t/a.exe\ta.exe\t\t\r\n.\r\n')).toMatchObject({ kept: [4, 1204], fresh: [{ pid: 9 }] });
    expect(() => parseProcessList('= 4\r\n')).toThrow(ProcessListError);
    expect(() => parseProcessList('! -2147217406 Not found\r\n')).toThrow(/WMI failed: -2147217406/);
    expect(() => parseProcessList('Microsoft (R) Windows Script Host\r\n.\r\n')).toThrow(/unexpected line/);
    expect(() => parseProcessList('+ 9\ta.exe\r\n.\r\n')).toThrow(/5 expected/);
  });
});

describe('issue 30 §2 Windows: a process is matched by its path, argv[0] or name, as the index expects', () => {
  it('splits a command line as Windows programs do', () => {
    expect(splitWindowsCommandLine('"C:\\Program Files\\Game\\game.exe" -game tf "two words" a\\"b c\\\\"d e"')).toEqual([
      'C:\\Program Files\\Game\\game.exe',
      '-game',
      'tf',
      'two words',
      'a"b',
      'c\\d e',
    ]);
    expect(splitWindowsCommandLine('C:\\a\\b.exe')).toEqual(['C:\\a\\b.exe']);
    expect(splitWindowsCommandLine('')).toEqual([]);
  });

  it('builds win32 candidates lower-case with / (the path, then a different argv[0], else the name) and the arguments', () => {
    const [, , system, foo] = parseProcessList(CAPTURED).fresh.map(windowsScannedProcess);
    expect(system).toEqual({ pid: 4, candidates: [{ path: 'system', os: 'win32' }], args: '' });
    expect(foo).toEqual({ pid: 1204, candidates: [{ path: 'c:/games/foo bar, inc/foo.exe', os: 'win32' }], args: '-windowed -name a, b 100%' });
    const launched = windowsScannedProcess({ pid: 7, stamp: '', name: 'game.exe', path: '\\\\?\\D:\\Steam\\steamapps\\common\\Game\\Game.exe', commandLine: 'Z:\\other\\Game.exe -game tf' });
    expect(launched.candidates).toEqual([
      { path: 'd:/steam/steamapps/common/game/game.exe', os: 'win32' },
      { path: 'z:/other/game.exe', os: 'win32' },
    ]);
    expect(launched.args).toBe('-game tf');
  });

  it('the index finds a Windows game by a folder entry, by basename, and by its arguments', () => {
    const index = new DetectableIndex(
      [
        { id: '1', name: 'Foo', executables: [{ os: 'win32', name: 'foo bar, inc/foo.exe', is_launcher: false }] },
        { id: '2', name: 'Team Fortress 2', executables: [{ os: 'win32', name: 'game.exe', arguments: '-game tf', is_launcher: false }] },
        { id: '3', name: 'Services', executables: [{ os: 'linux', name: 'services.exe', is_launcher: false }] },
      ],
      'win32',
    );
    const rows = parseProcessList(CAPTURED).fresh.map(windowsScannedProcess);
    expect(rows.map((row) => index.match(row)?.application.id ?? null)).toEqual([null, null, null, '1', null]);
    const tf = windowsScannedProcess({ pid: 7, stamp: '', name: 'Game.exe', path: 'C:\\Games\\TF\\Game.exe', commandLine: '"C:\\Games\\TF\\Game.exe" -game tf' });
    expect(index.match(tf)?.application.name).toBe('Team Fortress 2');
    expect(index.match({ ...tf, args: '-game hl2mp' })).toBeNull();
  });
});

/** A runner that plays back outputs and records what it was told. */
class ScriptedRunner implements ProcessListRunner {
  readonly calls: (Map<number, string> | null)[] = [];

  constructor(private readonly outputs: ProcessListOutput[]) {}

  list(known: ReadonlyMap<number, string> | null): Promise<ProcessListOutput> {
    this.calls.push(known === null ? null : new Map(known));
    const next = this.outputs.shift();
    return next === undefined ? Promise.reject(new Error('no more outputs')) : Promise.resolve(next);
  }
}

const row = (pid: number, name: string, stamp = `/${name}`): string => `+ ${pid}\t${stamp}\t${name}\tC:\\Games\\${name}\t"C:\\Games\\${name}"`;

describe('issue 30 §2 Windows: the Windows source is incremental', () => {
  it('is the default source on win32', () => {
    expect(defaultProcessSource('win32')).toBeInstanceOf(WindowsProcessSource);
  });

  it('reads everything first, then tells the script what it knows: new PIDs read, gone PIDs reported, a reused PID read again, its own cscript left out', async () => {
    const runner = new ScriptedRunner([
      { output: [row(10, 'a.exe'), row(20, 'b.exe'), row(99, 'cscript.exe'), '.', ''].join('\r\n'), pid: 99 },
      { output: ['= 10', row(30, 'c.exe'), row(20, 'd.exe', '2/d.exe'), row(98, 'cscript.exe'), '.', ''].join('\r\n'), pid: 98 },
      { output: ['= 20', '.', ''].join('\r\n'), pid: 97 },
    ]);
    const source = new WindowsProcessSource({ runner });

    const first = await source.scan();
    expect(first.complete).toBe(true);
    expect(first.processes.map((p) => p.pid)).toEqual([10, 20]);
    expect(runner.calls[0]).toBeNull();

    const second = await source.scan();
    expect(runner.calls[1]).toEqual(
      new Map([
        [10, '/a.exe'],
        [20, '/b.exe'],
      ]),
    );
    expect(second.complete).toBe(false);
    expect(second.processes.map((p) => [p.pid, p.candidates[0]?.path])).toEqual([
      [30, 'c:/games/c.exe'],
      [20, 'c:/games/d.exe'],
    ]);
    expect(second.gone).toEqual([]);

    const third = await source.scan();
    expect(runner.calls[2]).toEqual(
      new Map([
        [10, '/a.exe'],
        [20, '2/d.exe'],
        [30, '/c.exe'],
      ]),
    );
    expect(third.processes).toEqual([]);
    expect([...third.gone].sort()).toEqual([10, 30]);

    source.forget();
    await expect(source.scan()).rejects.toThrow('no more outputs');
    expect(runner.calls[3]).toBeNull();
  });

  it('a snapshot reads everything without changing what the next scan reports', async () => {
    const runner = new ScriptedRunner([
      { output: [row(10, 'a.exe'), '.', ''].join('\r\n') },
      { output: [row(10, 'a.exe'), row(11, 'b.exe'), '.', ''].join('\r\n') },
      { output: ['= 10', row(11, 'b.exe'), '.', ''].join('\r\n') },
    ]);
    const source = new WindowsProcessSource({ runner });
    await source.scan();
    expect((await source.snapshot()).map((p) => p.pid)).toEqual([10, 11]);
    expect(runner.calls[1]).toBeNull();
    expect((await source.scan()).processes.map((p) => p.pid)).toEqual([11]);
  });
});
