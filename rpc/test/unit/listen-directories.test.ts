import { describe, expect, it } from 'vitest';
import { ipcListenDirectories } from '../../src/index.js';

const dirsOf = (list: ReturnType<typeof ipcListenDirectories>): [string, string][] => list.map((d) => [d.kind, d.dir]);

describe('ipcListenDirectories: Linux', () => {
  it('listens in XDG_RUNTIME_DIR and its Flatpak sub-directory', () => {
    expect(dirsOf(ipcListenDirectories({ XDG_RUNTIME_DIR: '/run/user/1000', TMPDIR: '/tmp/x' }, 'linux'))).toEqual([
      ['prefix', '/run/user/1000'],
      ['flatpak', '/run/user/1000/app/com.discordapp.Discord'],
    ]);
  });

  it('adds snap.discord only when asked', () => {
    expect(dirsOf(ipcListenDirectories({ XDG_RUNTIME_DIR: '/run/user/1000/' }, 'linux', { snap: true }))).toEqual([
      ['prefix', '/run/user/1000'],
      ['flatpak', '/run/user/1000/app/com.discordapp.Discord'],
      ['snap', '/run/user/1000/snap.discord'],
    ]);
  });

  it('treats --runtime-dir as XDG_RUNTIME_DIR (sub-directories under it, nothing from the environment)', () => {
    expect(dirsOf(ipcListenDirectories({ XDG_RUNTIME_DIR: '/run/user/1000' }, 'linux', { runtimeDir: '/tmp/demo/alice' }))).toEqual([
      ['prefix', '/tmp/demo/alice'],
      ['flatpak', '/tmp/demo/alice/app/com.discordapp.Discord'],
    ]);
  });

  it('creates no sub-directory in a TMPDIR or /tmp prefix (no Flatpak layout there, and /tmp is shared)', () => {
    expect(dirsOf(ipcListenDirectories({ TMPDIR: '/var/tmp/me' }, 'linux', { snap: true }))).toEqual([['prefix', '/var/tmp/me']]);
    expect(dirsOf(ipcListenDirectories({}, 'linux'))).toEqual([['prefix', '/tmp']]);
  });
});

describe('ipcListenDirectories: macOS path split', () => {
  it('listens in the GUI TMPDIR and /tmp when XDG_RUNTIME_DIR is not set', () => {
    expect(dirsOf(ipcListenDirectories({ TMPDIR: '/var/folders/ab/cd/T/' }, 'darwin'))).toEqual([
      ['prefix', '/var/folders/ab/cd/T'],
      ['tmp', '/tmp'],
    ]);
  });

  it('listens in XDG_RUNTIME_DIR (the prefix), the GUI TMPDIR and /tmp when they differ', () => {
    expect(dirsOf(ipcListenDirectories({ XDG_RUNTIME_DIR: '/Users/me/.run', TMPDIR: '/var/folders/ab/cd/T/' }, 'darwin'))).toEqual([
      ['prefix', '/Users/me/.run'],
      ['gui-tmpdir', '/var/folders/ab/cd/T'],
      ['tmp', '/tmp'],
    ]);
  });

  it("takes the GUI session's TMPDIR when given, even when the shell's TMPDIR is another", () => {
    expect(dirsOf(ipcListenDirectories({ TMPDIR: '/tmp/shell' }, 'darwin', { guiTempDir: '/var/folders/ab/cd/T/' }))).toEqual([
      ['prefix', '/tmp/shell'],
      ['gui-tmpdir', '/var/folders/ab/cd/T'],
      ['tmp', '/tmp'],
    ]);
  });

  it('lists a directory once when the variables agree', () => {
    expect(dirsOf(ipcListenDirectories({ XDG_RUNTIME_DIR: '/var/folders/T', TMPDIR: '/var/folders/T/' }, 'darwin'))).toEqual([
      ['prefix', '/var/folders/T'],
      ['tmp', '/tmp'],
    ]);
    expect(dirsOf(ipcListenDirectories({}, 'darwin'))).toEqual([['prefix', '/tmp']]);
  });

  it('uses only --runtime-dir when it is given, and never creates the extra directories', () => {
    expect(dirsOf(ipcListenDirectories({ TMPDIR: '/var/folders/T' }, 'darwin', { runtimeDir: '/tmp/demo' }))).toEqual([['prefix', '/tmp/demo']]);
    const extras = ipcListenDirectories({ XDG_RUNTIME_DIR: '/x', TMPDIR: '/y' }, 'darwin').slice(1);
    expect(extras.every((d) => !d.create)).toBe(true);
  });
});

describe('ipcListenDirectories: other platforms', () => {
  it('has one entry on Windows (one pipe namespace) and on other Unixes', () => {
    expect(dirsOf(ipcListenDirectories({ XDG_RUNTIME_DIR: '/run/user/1' }, 'win32'))).toEqual([['prefix', '/run/user/1']]);
    expect(dirsOf(ipcListenDirectories({ XDG_RUNTIME_DIR: '/run/user/1' }, 'freebsd'))).toEqual([['prefix', '/run/user/1']]);
  });
});
