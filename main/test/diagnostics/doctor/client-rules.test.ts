import { describe, expect, it } from 'vitest';
import { clientChoices, type ClientId, type FsView, type PathState } from '../../../src/diagnostics/doctor/client-rules.js';
import { judgeFlatpakGrants, parseFilesystems } from '../../../src/diagnostics/doctor/flatpak.js';

/** A synthetic file system: states by path, listings in a given (directory) order, realpaths. */
function view(states: Record<string, PathState>, listings: Record<string, string[]> = {}, realpaths: Record<string, string> = {}): FsView {
  return {
    state: (p) => states[p] ?? 'absent',
    list: (dir) => listings[dir],
    realpath: (p) => realpaths[p] ?? (states[p] === undefined ? undefined : p),
  };
}

function choose(id: ClientId, env: Record<string, string>, fs: FsView, platform: NodeJS.Platform = 'linux') {
  const choice = clientChoices({ env, platform, uid: 1000, runUserDir: '/run/user/1000' }, fs).find((c) => c.id === id);
  return choice?.outcome;
}

const RUN = '/run/user/1000';

describe('client rules', () => {
  it('pypresence takes the first discord-ipc-* entry in directory order, and stops at a stale one', () => {
    const fs = view(
      { [RUN]: 'directory', [`${RUN}/discord-ipc-5`]: 'refuses', [`${RUN}/discord-ipc-0`]: 'answers' },
      { [RUN]: ['app', 'discord-ipc-5', 'discord-ipc-0'] },
    );
    expect(choose('pypresence', { XDG_RUNTIME_DIR: RUN }, fs)).toEqual({
      kind: 'fails',
      path: `${RUN}/discord-ipc-5`,
      reason: 'a stale socket (nobody listens): pypresence stops there with a connection refused error',
    });
    // Libraries that test each candidate skip the stale one.
    expect(choose('discord-rpc', { XDG_RUNTIME_DIR: RUN }, fs)).toEqual({ kind: 'connects', path: `${RUN}/discord-ipc-0` });
    expect(choose('xhayper', { XDG_RUNTIME_DIR: RUN }, fs)).toEqual({ kind: 'connects', path: `${RUN}/discord-ipc-0` });
  });

  it('pypresence uses /run/user/<uid> when XDG_RUNTIME_DIR is not set, and searches the Flatpak directory', () => {
    const flatpak = `${RUN}/app/com.discordapp.Discord`;
    const fs = view({ [RUN]: 'directory', [flatpak]: 'directory', [`${flatpak}/discord-ipc-0`]: 'answers' }, { [RUN]: ['app'], '/run/user': ['1000'], [flatpak]: ['discord-ipc-0'] });
    expect(choose('pypresence', { TMPDIR: '/var/tmp/x' }, fs)).toEqual({ kind: 'connects', path: `${flatpak}/discord-ipc-0` });
  });

  it('the Rust crate takes the first path that exists (a stale one included), tries each variable, has no /tmp fallback, and uses the parent under Snap', () => {
    const fs = view({ [RUN]: 'directory', [`${RUN}/discord-ipc-0`]: 'refuses', [`${RUN}/discord-ipc-1`]: 'answers', '/tmp': 'directory', '/tmp/discord-ipc-0': 'answers' });
    expect(choose('rust-crate', { XDG_RUNTIME_DIR: RUN }, fs)).toMatchObject({ kind: 'fails', path: `${RUN}/discord-ipc-0` });
    expect(choose('rust-crate', {}, fs)).toMatchObject({ kind: 'fails', path: null });
    const snapped = view({ [RUN]: 'directory', [`${RUN}/discord-ipc-0`]: 'answers', [`${RUN}/snap.game`]: 'directory' });
    expect(choose('rust-crate', { XDG_RUNTIME_DIR: `${RUN}/snap.game`, SNAP: '/snap/game/1' }, snapped)).toEqual({ kind: 'connects', path: `${RUN}/discord-ipc-0` });
    const second = view({ '/a': 'directory', '/b': 'directory', '/b/discord-ipc-2': 'answers' });
    expect(choose('rust-crate', { XDG_RUNTIME_DIR: '/a', TMPDIR: '/b' }, second)).toEqual({ kind: 'connects', path: '/b/discord-ipc-2' });
  });

  it('npm discord-rpc tries index 10 too, and strips one trailing slash', () => {
    const fs = view({ '/t/discord-ipc-10': 'answers' });
    expect(choose('discord-rpc', { TMPDIR: '/t/' }, fs)).toEqual({ kind: 'connects', path: '/t/discord-ipc-10' });
    expect(choose('c-library', { TMPDIR: '/t' }, fs)).toMatchObject({ kind: 'fails' });
  });

  it('the C library takes a variable set to the empty string (and looks in /); npm skips it', () => {
    const fs = view({ '/discord-ipc-0': 'answers', '/t/discord-ipc-0': 'answers' });
    expect(choose('c-library', { XDG_RUNTIME_DIR: '', TMPDIR: '/t' }, fs)).toEqual({ kind: 'connects', path: '/discord-ipc-0' });
    expect(choose('discord-rpc', { XDG_RUNTIME_DIR: '', TMPDIR: '/t' }, fs)).toEqual({ kind: 'connects', path: '/t/discord-ipc-0' });
  });

  it('@xhayper realpaths its directory (which must exist), and searches sandbox sub-directories on Linux only', () => {
    expect(choose('xhayper', { XDG_RUNTIME_DIR: '/missing' }, view({}))).toEqual({ kind: 'fails', path: null, reason: 'realpath(/missing) throws: the directory does not exist' });
    const fs = view({ '/link': 'directory', '/real/app/dev.vencord.Vesktop/discord-ipc-0': 'answers' }, {}, { '/link': '/real' });
    expect(choose('xhayper', { XDG_RUNTIME_DIR: '/link' }, fs)).toEqual({ kind: 'connects', path: '/real/app/dev.vencord.Vesktop/discord-ipc-0' });
    expect(choose('xhayper', { XDG_RUNTIME_DIR: '/link' }, fs, 'darwin')).toMatchObject({ kind: 'fails' });
  });

  it("the C# client tries, for each index, each variable's directory and then /temp", () => {
    const fs = view({ '/temp/discord-ipc-0': 'answers', '/b/snap.discord/discord-ipc-1': 'answers' });
    expect(choose('csharp', { XDG_RUNTIME_DIR: '/a', TMPDIR: '/b' }, fs)).toEqual({ kind: 'connects', path: '/temp/discord-ipc-0' });
  });

  it('does not work anything out on Windows (one pipe namespace)', () => {
    const choices = clientChoices({ env: {}, platform: 'win32', uid: 0, runUserDir: '' }, view({}));
    expect(choices.every((c) => c.outcome.kind === 'not-checked')).toBe(true);
    expect(choices.map((c) => c.id)).toEqual(['discord-rpc', 'xhayper', 'pypresence', 'c-library', 'rust-crate', 'csharp', 'social-sdk', 'companion-sdk']);
  });
});

describe('Flatpak grants', () => {
  it('reads filesystems= from the [Context] group only', () => {
    const keyfile = '[Application]\nfilesystems=nope\n\n[Context]\nshared=network;\nfilesystems=xdg-run/app/com.discordapp.Discord:create;!home;xdg-music:ro;\n\n[Session Bus Policy]\nfilesystems=no\n';
    expect(parseFilesystems(keyfile)).toEqual(['xdg-run/app/com.discordapp.Discord:create', '!home', 'xdg-music:ro']);
    expect(parseFilesystems('')).toEqual([]);
  });

  it('counts the directory (or a parent of it) as exposing, a later negation as taking it back', () => {
    const judge = (...entries: string[]) => judgeFlatpakGrants('org.example.Game', entries.map((entry) => ({ source: 'test', entry })), [0]).exposes;
    expect(judge('xdg-run/app/com.discordapp.Discord:create')).toBe('directory');
    expect(judge('xdg-run/app/com.discordapp.Discord/:ro')).toBe('directory');
    expect(judge('xdg-run/app')).toBe('directory');
    expect(judge('xdg-run/app/com.discordapp.Discord', '!xdg-run/app/com.discordapp.Discord')).toBe('none');
    expect(judge('!xdg-run/app/com.discordapp.Discord', 'xdg-run/app/com.discordapp.Discord')).toBe('directory');
    expect(judge('xdg-run/discord-ipc-0')).toBe('socket');
    expect(judge('xdg-run/discord-ipc-*')).toBe('none');
    expect(judge('home', 'xdg-run/pipewire-0')).toBe('none');
  });

  it('says when the one socket an app sees is not where Companion listens', () => {
    const verdict = judgeFlatpakGrants('org.example.Game', [{ source: 'user override', entry: 'xdg-run/discord-ipc-0' }], [1]);
    expect(verdict.detail).toContain('sees only discord-ipc-0, where Companion does not listen');
    expect(verdict.fix).toBe('flatpak override --user --filesystem=xdg-run/app/com.discordapp.Discord:create org.example.Game');
  });
});
