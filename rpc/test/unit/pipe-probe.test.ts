/**
 * issue 27 §1 (a): on Windows a discord-ipc-N is a named pipe, not a file. The probe that
 * decides whether a slot is free must connect, never inspect or remove a file (Node's lstat of
 * a pipe fails, EISDIR under Wine, so every host took every pipe for "blocked", not live). The
 * decision is checked here on Linux with the platform injected; main/test/windows/ proves it
 * under Wine.
 */
import net from 'node:net';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { pipeSlotState, probeSlot } from '../../src/index.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'pipe-probe-'));
  dirs.push(dir);
  return dir;
}

function listen(server: net.Server, socketPath: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve());
  });
}

describe('issue 27 §1: a Windows pipe is found by connecting to it', () => {
  it('judges a pipe by the connection alone: accepted or busy is live, no such pipe is free, anything else is not ours', () => {
    expect(pipeSlotState('connected')).toEqual({ kind: 'live' });
    expect(pipeSlotState('EBUSY')).toEqual({ kind: 'live' });
    expect(pipeSlotState('ENOENT')).toEqual({ kind: 'free' });
    expect(pipeSlotState('EACCES')).toEqual({ kind: 'blocked', reason: 'connect failed: EACCES' });
  });

  it('on win32 a server that accepts is live, whatever the path looks like on disk', async () => {
    const dir = await tempDir();
    const socketPath = path.join(dir, 'discord-ipc-0');
    const server = net.createServer((socket) => socket.destroy());
    await listen(server, socketPath);
    try {
      expect(await probeSlot(socketPath, 'win32')).toEqual({ kind: 'live' });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('on win32 a path nobody serves is free, and nothing is inspected as a file (a directory is no reason to refuse)', async () => {
    const dir = await tempDir();
    expect(await probeSlot(path.join(dir, 'discord-ipc-1'), 'win32')).toEqual({ kind: 'free' });
    // What Wine's lstat says of a pipe (EISDIR): the Unix probe refuses a directory; the pipe probe connects.
    const directory = path.join(dir, 'discord-ipc-2');
    await mkdir(directory);
    expect(await probeSlot(directory)).toEqual({ kind: 'blocked', reason: 'exists and is not a socket' });
    expect((await probeSlot(directory, 'win32')).kind).not.toBe('stale-removed');
    expect((await probeSlot(directory, 'win32')) as unknown).not.toEqual({ kind: 'blocked', reason: 'exists and is not a socket' });
  });

  it('on win32 nothing is ever removed: a socket file nobody listens on, which the Unix probe removes, stays', async () => {
    const dir = await tempDir();
    const socketPath = path.join(dir, 'discord-ipc-3');
    await staleSocketFile(socketPath);
    expect(await probeSlot(socketPath, 'win32')).toEqual({ kind: 'blocked', reason: 'connect failed: ECONNREFUSED' });
    expect(existsSync(socketPath)).toBe(true);
    expect(await probeSlot(socketPath)).toEqual({ kind: 'stale-removed' });
    expect(existsSync(socketPath)).toBe(false);
  });
});

/** A socket file whose server is gone (moved aside while the server closes, so it is not unlinked). */
async function staleSocketFile(socketPath: string): Promise<void> {
  const server = net.createServer();
  await listen(server, socketPath);
  await rename(socketPath, `${socketPath}.aside`);
  await new Promise((resolve) => server.close(resolve));
  await rename(`${socketPath}.aside`, socketPath);
}
