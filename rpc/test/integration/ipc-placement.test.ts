import { spawn } from 'node:child_process';
import { lstat, rm, stat, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ipcSocketPath, listenIpc, NoFreeSlotError, type IpcListener } from '../../src/index.js';
import { RawClient } from '../support/raw-client.js';
import { makeTempDir, startTestServer } from '../support/test-server.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function tempDir(): Promise<string> {
  const dir = await makeTempDir('companion-ipc-');
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** A socket file whose owner died without removing it (SIGKILL), as a crashed server leaves. */
async function staleSocket(socketPath: string): Promise<void> {
  const child = spawn(process.execPath, [
    '-e',
    `require('net').createServer().listen(${JSON.stringify(socketPath)}, () => process.kill(process.pid, 'SIGKILL'))`,
  ]);
  await new Promise((resolve) => child.on('exit', resolve));
  expect((await lstat(socketPath)).isSocket()).toBe(true);
}

/** Another live server (Discord, arRPC) holding a slot. */
async function liveServer(socketPath: string): Promise<net.Server> {
  const server = net.createServer((socket) => socket.on('error', () => undefined));
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  return server;
}

async function listen(dir: string): Promise<IpcListener> {
  const listener = await listenIpc({ dir, onConnection: (socket) => socket.destroy() });
  cleanups.push(() => listener.close());
  return listener;
}

describe('socket placement', () => {
  it('binds discord-ipc-0 in an empty directory, owner-only (0600)', async () => {
    const dir = await tempDir();
    const listener = await listen(dir);
    expect(listener.index).toBe(0);
    expect(listener.path).toBe(path.join(dir, 'discord-ipc-0'));
    expect((await stat(listener.path)).mode & 0o777).toBe(0o600);
  });

  it('never touches a live server at index 0, removes a stale file at index 5, and takes index 1', async () => {
    const dir = await tempDir();
    await liveServer(ipcSocketPath(0, dir));
    await staleSocket(ipcSocketPath(5, dir));
    const listener = await listen(dir);
    expect(listener.index).toBe(1);
    expect(listener.slots.find((s) => s.index === 0)?.state.kind).toBe('live');
    expect(listener.slots.find((s) => s.index === 5)?.state.kind).toBe('stale-removed');
    await expect(lstat(ipcSocketPath(5, dir))).rejects.toMatchObject({ code: 'ENOENT' });
    // The live server still answers on its path.
    await new Promise<void>((resolve, reject) => {
      const probe = net.createConnection(ipcSocketPath(0, dir), () => {
        probe.destroy();
        resolve();
      });
      probe.on('error', reject);
    });
  });

  it('reclaims a stale socket at index 0', async () => {
    const dir = await tempDir();
    await staleSocket(ipcSocketPath(0, dir));
    const listener = await listen(dir);
    expect(listener.index).toBe(0);
    expect(listener.slots[0]?.state.kind).toBe('stale-removed');
  });

  it('leaves a file that is not a socket alone and skips its index', async () => {
    const dir = await tempDir();
    await writeFile(ipcSocketPath(0, dir), 'not a socket');
    const listener = await listen(dir);
    expect(listener.index).toBe(1);
    expect(listener.slots[0]?.state).toEqual({ kind: 'blocked', reason: 'exists and is not a socket' });
    expect((await lstat(ipcSocketPath(0, dir))).isFile()).toBe(true);
  });

  it('removes its socket file when closed', async () => {
    const dir = await tempDir();
    const listener = await listenIpc({ dir, onConnection: (socket) => socket.destroy() });
    await listener.close();
    await expect(lstat(listener.path)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('reports every slot when all ten are taken', async () => {
    const dir = await tempDir();
    for (let index = 0; index < 10; index += 1) await liveServer(ipcSocketPath(index, dir));
    const error = await listenIpc({ dir, onConnection: () => undefined }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NoFreeSlotError);
    expect((error as NoFreeSlotError).slots.every((s) => s.state.kind === 'live')).toBe(true);
  });

  it('answers a PING probe before the handshake, so other servers see the slot is alive', async () => {
    const ts = await startTestServer();
    cleanups.push(() => ts.close());
    const probe = await RawClient.connect(ts.path);
    probe.send(3, 'are-you-there');
    expect(await probe.next()).toEqual({ opcode: 4, payload: 'are-you-there' });
  });
});
