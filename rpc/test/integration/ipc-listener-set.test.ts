/**
 * Listeners where clients look (prefix + Flatpak sub-directory), each placed by the
 * coexistence rules, all feeding one RpcServer; a client that sees only the Flatpak
 * sub-directory; pypresence's first-directory-entry rule; nothing left behind.
 */
import { spawn } from 'node:child_process';
import { opendirSync } from 'node:fs';
import { chmod, lstat, mkdir, readdir, rm, stat, symlink } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '@xhayper/discord-rpc';
import {
  FLATPAK_DISCORD_SUBDIR,
  ipcListenDirectories,
  ipcSocketPath,
  listenIpcDirectories,
  RpcServer,
  UnsafeSocketDirectoryError,
  type IpcListenerSet,
} from '../../src/index.js';
import { RawClient } from '../support/raw-client.js';
import { makeTempDir, TEST_IDENTITY } from '../support/test-server.js';
import { pointClientsAt, within } from '../compat/helpers.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function tempDir(): Promise<string> {
  const dir = await makeTempDir('companion-set-');
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** One RpcServer behind every listener of an XDG_RUNTIME_DIR-style prefix. */
async function serveIn(runtime: string): Promise<{ set: IpcListenerSet; server: RpcServer }> {
  const server = new RpcServer({ identity: () => TEST_IDENTITY });
  const set = await listenIpcDirectories({
    directories: ipcListenDirectories({ XDG_RUNTIME_DIR: runtime }, 'linux'),
    onConnection: (socket) => server.attach(socket),
    platform: 'linux',
  });
  cleanups.push(async () => {
    const closed = set.close();
    await server.closeAll();
    await closed;
  });
  return { set, server };
}

async function staleSocket(socketPath: string): Promise<void> {
  const child = spawn(process.execPath, ['-e', `require('net').createServer().listen(${JSON.stringify(socketPath)}, () => process.kill(process.pid, 'SIGKILL'))`]);
  await new Promise((resolve) => child.on('exit', resolve));
  expect((await lstat(socketPath)).isSocket()).toBe(true);
}

/** Another server (the desktop client, arRPC) that accepts connections and says nothing. */
async function liveServer(socketPath: string): Promise<void> {
  const server = net.createServer((socket) => socket.on('error', () => undefined));
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
}

function connects(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.createConnection(socketPath);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * pypresence's discovery (utils.py): XDG_RUNTIME_DIR; in `.`, `..`, `snap.discord`,
 * `app/com.discordapp.Discord`, `app/com.discordapp.DiscordCanary`, the first entry in
 * directory order (os.scandir, unsorted: opendir here, not readdir, which libuv sorts) whose
 * name starts with `discord-ipc-` and that exists.
 */
function pypresenceSocketPath(runtime: string): string | undefined {
  for (const sub of ['.', '..', 'snap.discord', 'app/com.discordapp.Discord', 'app/com.discordapp.DiscordCanary']) {
    const full = path.resolve(runtime, sub);
    let dir;
    try {
      dir = opendirSync(full);
    } catch {
      continue;
    }
    try {
      for (let entry = dir.readSync(); entry !== null; entry = dir.readSync()) {
        if (entry.name.startsWith('discord-ipc-')) return path.join(full, entry.name);
      }
    } finally {
      dir.closeSync();
    }
  }
  return undefined;
}

describe('listeners in the prefix and the Flatpak sub-directory', () => {
  it('binds a real socket in both, owner-only, and both reach the same server', async () => {
    const runtime = await tempDir();
    const { set } = await serveIn(runtime);
    const flatpakDir = path.join(runtime, FLATPAK_DISCORD_SUBDIR);
    expect(set.listeners.map((l) => [l.directory.kind, l.listener.path])).toEqual([
      ['prefix', ipcSocketPath(0, runtime)],
      ['flatpak', ipcSocketPath(0, flatpakDir)],
    ]);
    expect(set.skipped).toEqual([]);
    for (const { listener } of set.listeners) {
      const stats = await lstat(listener.path);
      expect(stats.isSocket()).toBe(true); // not a symlink
      expect(stats.mode & 0o777).toBe(0o600);
      const { client, ready } = await RawClient.ready(listener.path);
      expect(ready).toMatchObject({ cmd: 'DISPATCH', evt: 'READY', data: { user: { id: TEST_IDENTITY.user.id } } });
      client.socket.destroy();
    }
    expect((await stat(flatpakDir)).mode & 0o777).toBe(0o700);
    expect((await stat(path.join(runtime, 'app'))).mode & 0o777).toBe(0o700);
  });

  it('answers a PING before the handshake on the Flatpak socket too (arRPC probes with a counter)', async () => {
    const runtime = await tempDir();
    const { set } = await serveIn(runtime);
    const probe = await RawClient.connect(set.listeners[1]!.listener.path);
    probe.send(3, 7);
    expect(await probe.next()).toEqual({ opcode: 4, payload: 7 });
    probe.socket.destroy();
  });

  it('a client that sees only the Flatpak sub-directory connects and gets READY (raw and @xhayper/discord-rpc)', async () => {
    const runtime = await tempDir();
    await serveIn(runtime);
    // The sandbox's view: a runtime directory whose only entry is app/com.discordapp.Discord,
    // mounted from the host (a directory symlink stands for the bind mount).
    const base = await tempDir();
    const view = path.join(base, 'sandbox-run');
    await mkdir(path.join(view, 'app'), { recursive: true, mode: 0o700 });
    await symlink(path.join(runtime, FLATPAK_DISCORD_SUBDIR), path.join(view, FLATPAK_DISCORD_SUBDIR));
    expect(await readdir(view)).toEqual(['app']);

    const { client: raw, ready } = await RawClient.ready(ipcSocketPath(0, path.join(view, FLATPAK_DISCORD_SUBDIR)));
    expect(ready.evt).toBe('READY');
    raw.socket.destroy();

    const restore = pointClientsAt(view);
    cleanups.push(async () => restore());
    const xhayper = new Client({ clientId: '123456789012345678', transport: { type: 'ipc' } });
    cleanups.push(() => within(xhayper.destroy(), 2000, 'xhayper destroy()'));
    await within(xhayper.login(), 5000, 'xhayper login through the Flatpak directory');
    expect(xhayper.user?.id).toBe(TEST_IDENTITY.user.id);

    // pypresence with that view finds the Flatpak socket too.
    const pypresencePath = pypresenceSocketPath(view);
    expect(pypresencePath).toBe(path.join(view, FLATPAK_DISCORD_SUBDIR, 'discord-ipc-0'));
    expect(await connects(pypresencePath!)).toBe(true);
  });

  it('in each directory: leaves a live index 0 alone, takes index 1, and reclaims a stale index 5', async () => {
    const runtime = await tempDir();
    const flatpakDir = path.join(runtime, FLATPAK_DISCORD_SUBDIR);
    await mkdir(flatpakDir, { recursive: true, mode: 0o700 });
    for (const dir of [runtime, flatpakDir]) {
      await liveServer(ipcSocketPath(0, dir));
      await staleSocket(ipcSocketPath(5, dir));
    }
    const { set } = await serveIn(runtime);
    for (const [i, dir] of [runtime, flatpakDir].entries()) {
      const { listener } = set.listeners[i]!;
      expect(listener.path).toBe(ipcSocketPath(1, dir));
      expect(listener.slots[0]?.state.kind).toBe('live');
      expect(listener.slots[5]?.state.kind).toBe('stale-removed');
      await expect(lstat(ipcSocketPath(5, dir))).rejects.toMatchObject({ code: 'ENOENT' });
      expect(await connects(ipcSocketPath(0, dir))).toBe(true); // the other server still answers
    }
    // pypresence takes the first discord-ipc-* entry in directory order: whichever it is, it answers.
    const pypresencePath = pypresenceSocketPath(runtime);
    expect(pypresencePath).toMatch(/discord-ipc-[01]$/);
    expect(await connects(pypresencePath!)).toBe(true);
  });

  it("a pypresence-style probe connects after a stale socket was reclaimed, and gets Companion's READY", async () => {
    const base = await tempDir();
    const runtime = path.join(base, 'run');
    await mkdir(runtime, { mode: 0o700 });
    await staleSocket(ipcSocketPath(5, runtime));
    expect(pypresenceSocketPath(runtime)).toBe(ipcSocketPath(5, runtime)); // what would crash pypresence
    expect(await connects(ipcSocketPath(5, runtime))).toBe(false);
    await serveIn(runtime);
    const found = pypresenceSocketPath(runtime);
    expect(found).toBe(ipcSocketPath(0, runtime));
    const { client, ready } = await RawClient.ready(found!);
    expect(ready.evt).toBe('READY');
    client.socket.destroy();
  });

  it('leaves no socket behind over three restarts, and keeps the Flatpak directory (the same inode) for sandboxes that bound it', async () => {
    const runtime = await tempDir();
    const flatpakDir = path.join(runtime, FLATPAK_DISCORD_SUBDIR);
    let inode: number | undefined;
    for (let restart = 0; restart < 3; restart += 1) {
      const server = new RpcServer({ identity: () => TEST_IDENTITY });
      const set = await listenIpcDirectories({
        directories: ipcListenDirectories({ XDG_RUNTIME_DIR: runtime }, 'linux'),
        onConnection: (socket) => server.attach(socket),
      });
      expect(set.listeners.map((l) => l.listener.index)).toEqual([0, 0]);
      const { client } = await RawClient.ready(set.listeners[1]!.listener.path);
      const closed = set.close();
      await server.closeAll();
      await closed;
      await client.closed;
      expect(await readdir(runtime)).toEqual(['app']);
      expect(await readdir(flatpakDir)).toEqual([]);
      inode ??= (await stat(flatpakDir)).ino;
      expect((await stat(flatpakDir)).ino).toBe(inode);
    }
  });
});

describe('same user only, and best effort beyond the prefix', () => {
  it('refuses a prefix other users may write to, creating nothing', async () => {
    const runtime = await tempDir();
    await chmod(runtime, 0o777);
    const error = await listenIpcDirectories({ directories: ipcListenDirectories({ XDG_RUNTIME_DIR: runtime }, 'linux'), onConnection: () => undefined }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnsafeSocketDirectoryError);
    expect(await readdir(runtime)).toEqual([]);
  });

  it('skips an unsafe Flatpak directory with the reason, and still serves the prefix', async () => {
    const runtime = await tempDir();
    const flatpakDir = path.join(runtime, FLATPAK_DISCORD_SUBDIR);
    await mkdir(flatpakDir, { recursive: true });
    await chmod(flatpakDir, 0o777);
    const { set } = await serveIn(runtime);
    expect(set.listeners.map((l) => l.directory.kind)).toEqual(['prefix']);
    expect(set.skipped).toEqual([
      { directory: expect.objectContaining({ kind: 'flatpak' }), reason: expect.stringContaining(`the socket directory ${flatpakDir} is writable by other users`) },
    ]);
  });

  it('skips the Flatpak directory when its socket path would be too long, before creating it', async () => {
    const base = await tempDir();
    const runtime = path.join(base, 'r'.repeat(80 - base.length - 1));
    await mkdir(runtime, { mode: 0o700 });
    const { set } = await serveIn(runtime);
    expect(set.listeners).toHaveLength(1);
    expect(set.skipped[0]?.reason).toContain('is longer than the 107 bytes');
    expect(await readdir(runtime)).toEqual(['discord-ipc-0']);
  });

  it('listens once in a directory that two entries resolve to (e.g. /tmp and /private/tmp)', async () => {
    const base = await tempDir();
    const real = path.join(base, 'real');
    await mkdir(real, { mode: 0o700 });
    await symlink(real, path.join(base, 'alias'));
    const set = await listenIpcDirectories({
      directories: [
        { dir: real, kind: 'prefix', create: true },
        { dir: path.join(base, 'alias'), kind: 'tmp', create: false },
        { dir: path.join(base, 'missing'), kind: 'gui-tmpdir', create: false },
      ],
      onConnection: (socket) => socket.destroy(),
    });
    cleanups.push(() => set.close());
    expect(set.listeners).toHaveLength(1);
    expect(set.skipped.map((s) => s.reason)).toEqual([`the same directory as ${real}`, `${path.join(base, 'missing')} does not exist`]);
  });
});
