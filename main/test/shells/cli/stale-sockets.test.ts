import { spawn, type ChildProcess } from 'node:child_process';
import { lstat, readdir, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RawClient } from '../../../../rpc/test/support/raw-client.js';
import { cliCleanup, CliProcess } from '../../support/cli-process.js';

const { track, dir } = cliCleanup('companion-stale-');
const FLATPAK = path.join('app', 'com.discordapp.Discord');

/** Other processes' servers: a socket file that outlives its process when killed with SIGKILL. */
const servers: ChildProcess[] = [];
afterEach(() => {
  for (const child of servers.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

/** A server in a process of its own, listening on `socketPath` until killed. */
async function serverProcess(socketPath: string): Promise<ChildProcess> {
  const script = `require('net').createServer((s) => s.on('error', () => {})).listen(${JSON.stringify(socketPath)}, () => process.stdout.write('up\\n'));`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  servers.push(child);
  await new Promise<void>((resolve, reject) => {
    child.stdout?.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`the server at ${socketPath} exited (${code})`)));
  });
  return child;
}

/** Kills a server process with SIGKILL: nothing removes its socket file. */
async function killHard(child: ChildProcess): Promise<void> {
  const gone = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await gone;
}

async function exists(p: string): Promise<boolean> {
  try {
    await lstat(p);
    return true;
  } catch {
    return false;
  }
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 12_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const LISTENING = /listening on (\S+)\n/;

describe('issue 27 §5: stale sockets reclaimed while running', () => {
  it('a discord-ipc-N that appears after start and refuses connections is removed; a live server beside it and the host are left alone', async () => {
    const runtime = await dir();
    const proc = track(CliProcess.run(['serve', '--runtime-dir', runtime,], { XDG_CONFIG_HOME: await dir() }));
    const [, own] = await proc.waitForStdout(LISTENING);
    expect(own).toBe(path.join(runtime, 'discord-ipc-0'));

    // A live server at index 2 (in this process) and a crashed one at index 1 (killed at once).
    const live = net.createServer((socket) => socket.on('error', () => undefined));
    await new Promise<void>((resolve) => live.listen(path.join(runtime, 'discord-ipc-2'), resolve));
    try {
      const dead = path.join(runtime, 'discord-ipc-1');
      await killHard(await serverProcess(dead));
      expect((await lstat(dead)).isSocket()).toBe(true);

      await until(`${dead} removed`, async () => !(await exists(dead)));
      expect((await readdir(runtime)).filter((name) => name.startsWith('discord-ipc-')).sort()).toEqual(['discord-ipc-0', 'discord-ipc-2']);
      // Both servers still serve.
      const { client } = await RawClient.ready(own!);
      client.socket.destroy();
      await new Promise<void>((resolve, reject) => net.createConnection(path.join(runtime, 'discord-ipc-2')).once('connect', function (this: net.Socket) {
        this.destroy();
        resolve();
      }).once('error', reject));
    } finally {
      await new Promise((resolve) => live.close(resolve));
    }
  }, 30_000);

  it('a server that was live when seen and is then killed leaves a socket that is removed within seconds, in the Flatpak directory too', async () => {
    const runtime = await dir();
    const proc = track(CliProcess.run(['serve',], { XDG_RUNTIME_DIR: runtime, XDG_CONFIG_HOME: await dir() }));
    await proc.waitForStdout(/Also listening on .*discord-ipc-0/);
    const other = path.join(runtime, 'discord-ipc-3');
    const sandboxed = path.join(runtime, FLATPAK, 'discord-ipc-4');
    const others = [await serverProcess(other), await serverProcess(sandboxed)];
    // Seen live by the host's checks (a watch event each, and a poll).
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await exists(other)).toBe(true);
    expect(await exists(sandboxed)).toBe(true);

    for (const server of others) await killHard(server);
    await until(`${other} and ${sandboxed} removed`, async () => !(await exists(other)) && !(await exists(sandboxed)));
    expect(await exists(path.join(runtime, 'discord-ipc-0'))).toBe(true);
    expect(await exists(path.join(runtime, FLATPAK, 'discord-ipc-0'))).toBe(true);
  }, 30_000);

  it('a discord-ipc-N that is not a socket is never touched', async () => {
    const runtime = await dir();
    const proc = track(CliProcess.run(['serve', '--runtime-dir', runtime], { XDG_CONFIG_HOME: await dir() }));
    await proc.waitForStdout(LISTENING);
    const file = path.join(runtime, 'discord-ipc-5');
    await writeFile(file, 'not a socket');
    // A killed server beside it: once that is gone, the file has been looked at too.
    const dead = path.join(runtime, 'discord-ipc-6');
    await killHard(await serverProcess(dead));
    await until(`${dead} removed`, async () => !(await exists(dead)));
    expect((await lstat(file)).isFile()).toBe(true);
  }, 30_000);
});
