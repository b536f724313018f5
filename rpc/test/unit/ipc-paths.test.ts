import { describe, expect, it } from 'vitest';
import {
  IPC_INDEX_COUNT,
  ipcSocketName,
  ipcSocketPath,
  ipcSocketPaths,
  PREFIX_ENV_VARS,
  resolveIpcPrefix,
} from '../../src/index.js';

describe('resolveIpcPrefix', () => {
  it('consults XDG_RUNTIME_DIR, TMPDIR, TMP, TEMP in that order', () => {
    expect([...PREFIX_ENV_VARS]).toEqual(['XDG_RUNTIME_DIR', 'TMPDIR', 'TMP', 'TEMP']);
  });

  it('takes the first variable that is set and reports it as the source', () => {
    const all = { XDG_RUNTIME_DIR: '/run/user/1000', TMPDIR: '/a', TMP: '/b', TEMP: '/c' };
    expect(resolveIpcPrefix(all)).toEqual({ dir: '/run/user/1000', source: 'XDG_RUNTIME_DIR' });
    expect(resolveIpcPrefix({ TMPDIR: '/a', TMP: '/b', TEMP: '/c' })).toEqual({ dir: '/a', source: 'TMPDIR' });
    expect(resolveIpcPrefix({ TMP: '/b', TEMP: '/c' })).toEqual({ dir: '/b', source: 'TMP' });
    expect(resolveIpcPrefix({ TEMP: '/c' })).toEqual({ dir: '/c', source: 'TEMP' });
  });

  it('falls back to /tmp with source "default"', () => {
    expect(resolveIpcPrefix({})).toEqual({ dir: '/tmp', source: 'default' });
    expect(resolveIpcPrefix({ HOME: '/home/x', TMPDIRX: '/nope' })).toEqual({ dir: '/tmp', source: 'default' });
  });

  it('skips variables set to the empty string or undefined', () => {
    expect(resolveIpcPrefix({ XDG_RUNTIME_DIR: '', TMPDIR: undefined, TMP: '', TEMP: '/c' })).toEqual({
      dir: '/c',
      source: 'TEMP',
    });
    expect(resolveIpcPrefix({ XDG_RUNTIME_DIR: '', TMPDIR: '', TMP: '', TEMP: '' })).toEqual({
      dir: '/tmp',
      source: 'default',
    });
  });

  it('strips one trailing slash, as npm discord-rpc does', () => {
    expect(resolveIpcPrefix({ TMPDIR: '/var/folders/xy/T/' })).toEqual({ dir: '/var/folders/xy/T', source: 'TMPDIR' });
    expect(resolveIpcPrefix({ XDG_RUNTIME_DIR: '/run/user/1000/' }).dir).toBe('/run/user/1000');
    expect(resolveIpcPrefix({ TMP: '/tmp//' }).dir).toBe('/tmp/');
  });

  it('keeps a root directory "/" as is', () => {
    expect(resolveIpcPrefix({ TMPDIR: '/' }).dir).toBe('/');
  });

  it('lets an override win over every variable, and strips its trailing slash', () => {
    const env = { XDG_RUNTIME_DIR: '/run/user/1000', TMPDIR: '/a' };
    expect(resolveIpcPrefix(env, '/custom')).toEqual({ dir: '/custom', source: '--runtime-dir' });
    expect(resolveIpcPrefix(env, '/custom/')).toEqual({ dir: '/custom', source: '--runtime-dir' });
    expect(resolveIpcPrefix({}, '/custom')).toEqual({ dir: '/custom', source: '--runtime-dir' });
  });

  it('ignores an undefined override', () => {
    expect(resolveIpcPrefix({ TMPDIR: '/a' }, undefined)).toEqual({ dir: '/a', source: 'TMPDIR' });
  });
});

describe('ipcSocketPath / ipcSocketPaths', () => {
  it('builds <dir>/discord-ipc-N on unix-like platforms', () => {
    expect(ipcSocketPath(0, '/run/user/1000', 'linux')).toBe('/run/user/1000/discord-ipc-0');
    expect(ipcSocketPath(9, '/tmp', 'darwin')).toBe('/tmp/discord-ipc-9');
    expect(ipcSocketPath(3, '/', 'linux')).toBe('/discord-ipc-3');
  });

  it('builds \\\\?\\pipe\\discord-ipc-N on win32, whatever the directory', () => {
    const expected = String.raw`\\?\pipe\discord-ipc-0`;
    expect(ipcSocketPath(0, 'C:\\Users\\x\\AppData\\Local\\Temp', 'win32')).toBe(expected);
    expect(ipcSocketPath(7, '/ignored', 'win32')).toBe(String.raw`\\?\pipe\discord-ipc-7`);
  });

  it.each([-1, 10, 11, 1.5, Number.NaN, Number.POSITIVE_INFINITY])('throws a RangeError for index %s', (index) => {
    expect(() => ipcSocketPath(index, '/tmp', 'linux')).toThrow(RangeError);
    expect(() => ipcSocketPath(index, '/tmp', 'win32')).toThrow(RangeError);
    expect(() => ipcSocketName(index)).toThrow(RangeError);
  });

  it('names the sockets discord-ipc-0 .. discord-ipc-9', () => {
    expect(IPC_INDEX_COUNT).toBe(10);
    expect(Array.from({ length: 10 }, (_, i) => ipcSocketName(i))).toEqual(
      Array.from({ length: 10 }, (_, i) => `discord-ipc-${i}`),
    );
  });

  it('lists the 10 candidate paths in index order', () => {
    const unix = ipcSocketPaths('/run/user/1000', 'linux');
    expect(unix).toHaveLength(10);
    expect(unix).toEqual(Array.from({ length: 10 }, (_, i) => `/run/user/1000/discord-ipc-${i}`));

    const windows = ipcSocketPaths('ignored', 'win32');
    expect(windows).toHaveLength(10);
    expect(windows).toEqual(Array.from({ length: 10 }, (_, i) => `\\\\?\\pipe\\discord-ipc-${i}`));
  });

  it('composes with resolveIpcPrefix to the path clients build', () => {
    const { dir } = resolveIpcPrefix({ TMPDIR: '/var/folders/ab/T/' });
    expect(ipcSocketPath(0, dir, 'darwin')).toBe('/var/folders/ab/T/discord-ipc-0');
  });
});
