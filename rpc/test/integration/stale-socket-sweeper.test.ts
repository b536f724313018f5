import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { lstat, rm } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StaleSocketSweeper } from '../../src/index.js';
import { makeTempDir } from '../support/test-server.js';

const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function tempDir(): Promise<string> {
  const dir = await makeTempDir('companion-sweep-');
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

function sweeper(dir: string, own: string[] = []): StaleSocketSweeper {
  const started = StaleSocketSweeper.start({ dirs: [dir], own });
  cleanups.push(() => started.close());
  return started;
}

/** A socket file whose server died without removing it (SIGKILL). */
async function deadSocket(socketPath: string): Promise<void> {
  const child = spawn(process.execPath, ['-e', `require('net').createServer().listen(${JSON.stringify(socketPath)}, () => process.kill(process.pid, 'SIGKILL'))`]);
  await new Promise((resolve) => child.on('exit', resolve));
}

async function exists(p: string): Promise<boolean> {
  return lstat(p).then(
    () => true,
    () => false,
  );
}

function accepts(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.createConnection(socketPath);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

const python = spawnSync('python3', ['-c', 'import socket'], { encoding: 'utf8' }).status === 0;

describe('issue 27 §5: stale sockets reclaimed while running (the sweeper)', () => {
  it('the host\'s own socket paths are never touched, even dead ones', async () => {
    const dir = await tempDir();
    const own = path.join(dir, 'discord-ipc-0');
    const other = path.join(dir, 'discord-ipc-1');
    await deadSocket(own);
    await deadSocket(other);
    const removed = await sweeper(dir, [own]).sweep();
    expect(removed).toEqual([other]);
    expect(await exists(own)).toBe(true);
  });

  it.skipIf(!python)("a server between its bind() and its listen() is not taken for dead (python3's socket: bind, 0.1 s, listen)", async () => {
    const dir = await tempDir();
    sweeper(dir);
    const socketPath = path.join(dir, 'discord-ipc-2');
    // The directory watch sees the file at bind(); connections are refused until listen().
    const script = 'import socket,sys,time\ns=socket.socket(socket.AF_UNIX)\ns.bind(sys.argv[1])\ntime.sleep(0.1)\ns.listen(8)\nprint("up",flush=True)\ntime.sleep(30)\n';
    const child: ChildProcess = spawn('python3', ['-c', script, socketPath], { stdio: ['ignore', 'pipe', 'inherit'] });
    cleanups.push(() => child.kill('SIGKILL'));
    await new Promise((resolve) => child.stdout?.once('data', resolve));
    // Past the watch's check (two refusals 0.3 s apart) and a little more.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await exists(socketPath)).toBe(true);
    expect(await accepts(socketPath)).toBe(true);
  });
});
