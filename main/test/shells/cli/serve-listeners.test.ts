/**
 * `companion serve` listening where clients look: the prefix and the Flatpak sub-directory
 * (Snap opt-in), nothing left behind over restarts, same-user directories only, and sockets
 * handed over by systemd (socket activation).
 */
import { spawn } from 'node:child_process';
import { chmod, lstat, mkdir, readdir, readFile, rename } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RawClient } from '../../../../rpc/test/support/raw-client.js';
import { cliCleanup, CliProcess, REPO_ROOT } from '../../support/cli-process.js';

const { track, dir } = cliCleanup('companion-listeners-');
const LISTENING = /listening on (\S+)\n/;
const FLATPAK = 'app/com.discordapp.Discord';

async function serve(args: string[], env: Record<string, string>): Promise<CliProcess> {
  return track(CliProcess.run(['serve', ...args], { XDG_CONFIG_HOME: await dir(), ...env }));
}

/** The file descriptor of a listening server (to pass it on as systemd does). */
function listeningFd(server: net.Server): number {
  const fd = (server as unknown as { _handle?: { fd?: number } })._handle?.fd;
  if (typeof fd !== 'number' || fd < 0) throw new Error('no fd for the listening socket');
  return fd;
}

/** Every discord-ipc-* file under `root`, at any depth. */
async function socketFiles(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true });
  return entries.filter((entry) => path.basename(entry).startsWith('discord-ipc-'));
}

describe('serve: listeners where clients look', () => {
  it('listens in XDG_RUNTIME_DIR and its Flatpak sub-directory, both serving READY, and records both', async () => {
    const runtime = await dir();
    const proc = await serve(['--user', 'alice'], { XDG_RUNTIME_DIR: runtime });
    const flatpakSocket = path.join(runtime, FLATPAK, 'discord-ipc-0');
    await proc.waitForStdout(/Also listening on .*\n/);
    expect(proc.stdout).toContain(`listening on ${path.join(runtime, 'discord-ipc-0')}\n`);
    expect(proc.stdout).toContain(`Also listening on ${flatpakSocket} (for Flatpak apps and libraries that search app/com.discordapp.Discord)\n`);
    expect((await lstat(flatpakSocket)).isSocket()).toBe(true);
    await proc.waitForStdout(/Signed in as alice/);
    const { client, ready } = await RawClient.ready(flatpakSocket);
    expect(ready.data.user.username).toBe('alice');
    client.socket.destroy();
    const host = JSON.parse(await readFile(path.join(runtime, 'companion', 'host.json'), 'utf8'));
    expect(host.listeners).toEqual([
      { path: path.join(runtime, 'discord-ipc-0'), index: 0, kind: 'prefix' },
      { path: flatpakSocket, index: 0, kind: 'flatpak' },
    ]);
  });

  it('adds snap.discord/ only with --snap-socket', async () => {
    const runtime = await dir();
    const proc = await serve(['--runtime-dir', runtime, '--snap-socket'], {});
    await proc.waitForStdout(/snap\.discord\/discord-ipc-0/);
    expect((await lstat(path.join(runtime, 'snap.discord', 'discord-ipc-0'))).isSocket()).toBe(true);
  });

  it('leaves no socket file and no runtime file behind over three restarts (SIGINT, SIGTERM, SIGHUP)', async () => {
    const runtime = await dir();
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
      const proc = await serve([], { XDG_RUNTIME_DIR: runtime });
      expect((await proc.waitForStdout(LISTENING))[1]).toBe(path.join(runtime, 'discord-ipc-0'));
      await proc.waitForStdout(/Also listening on/);
      expect((await socketFiles(runtime)).sort()).toEqual(['app/com.discordapp.Discord/discord-ipc-0', 'discord-ipc-0']);
      proc.kill(signal);
      expect((await proc.exited).code).toBe(0);
      expect(await socketFiles(runtime)).toEqual([]);
      expect(await readdir(path.join(runtime, 'companion'))).toEqual([]);
    }
  });

  it('refuses a runtime directory other users may write to, with a clear error, before writing anything', async () => {
    const runtime = await dir();
    await chmod(runtime, 0o777);
    const result = await CliProcess.complete(['serve'], { XDG_RUNTIME_DIR: runtime, XDG_CONFIG_HOME: await dir() });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `companion serve: the socket directory ${runtime} is writable by other users without the sticky bit (mode 0777): anyone could replace your sockets; make it private (chmod 700) or sticky (chmod +t)\n`,
    );
    expect(await readdir(runtime)).toEqual([]);
  });

  it('serves a socket handed over by systemd (LISTEN_FDS), and leaves its file to systemd', async () => {
    const runtime = await dir();
    const socketPath = path.join(runtime, 'discord-ipc-0');
    // What systemd does for companion-ipc.socket: bind, listen, pass it as fd 3.
    // Bound under another name and moved into place, so that closing the parent's copy (libuv
    // removes the name it bound) leaves the path to the child, as systemd's stays.
    const held = net.createServer();
    await new Promise<void>((resolve) => held.listen(`${socketPath}.bind`, resolve));
    await rename(`${socketPath}.bind`, socketPath);
    const child = spawn(
      '/bin/sh',
      ['-c', 'LISTEN_PID=$$ LISTEN_FDS=1 LISTEN_FDNAMES=companion-prefix-0 exec "$0" "$@"', process.execPath, path.join(REPO_ROOT, 'bin/companion.js'), 'serve', '--user', 'alice'],
      { cwd: REPO_ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME, XDG_RUNTIME_DIR: runtime, XDG_CONFIG_HOME: await dir() }, stdio: ['pipe', 'pipe', 'pipe', listeningFd(held)] },
    );
    // The parent's copy stops accepting; the child serves the same listening socket.
    held.close();
    let stdout = '';
    child.stdout?.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    try {
      const deadline = Date.now() + 10_000;
      while (!stdout.includes('Signed in as alice')) {
        if (Date.now() > deadline) throw new Error(`no start: ${stdout}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(stdout).toContain(`listening on ${socketPath}\n`);
      const { client, ready } = await RawClient.ready(socketPath);
      expect(ready.data.user.username).toBe('alice');
      client.socket.destroy();
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    // systemd keeps the socket (and the games' path) while Companion is stopped.
    expect((await lstat(socketPath)).isSocket()).toBe(true);
    // Its Flatpak socket was bound the ordinary way, and removed.
    expect(await readdir(path.join(runtime, FLATPAK))).toEqual([]);
  });
});

describe('serve: coexistence in the Flatpak directory', () => {
  it('leaves another server on its index 0 there alone and takes index 1, saying so', async () => {
    const runtime = await dir();
    await mkdir(path.join(runtime, FLATPAK), { recursive: true, mode: 0o700 });
    const other = net.createServer((socket) => socket.on('error', () => undefined));
    await new Promise<void>((resolve) => other.listen(path.join(runtime, FLATPAK, 'discord-ipc-0'), resolve));
    try {
      const proc = await serve([], { XDG_RUNTIME_DIR: runtime });
      await proc.waitForStdout(/Also listening on .*discord-ipc-1/);
      expect(proc.stdout).toContain(`  ${path.join(runtime, FLATPAK, 'discord-ipc-0')}: held by another running server; left alone\n`);
      expect((await lstat(path.join(runtime, FLATPAK, 'discord-ipc-0'))).isSocket()).toBe(true);
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
  });
});
