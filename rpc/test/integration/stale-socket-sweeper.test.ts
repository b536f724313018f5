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

function sweeper(dir: string, own: string[] = [], pollMs?: number): StaleSocketSweeper {
  const started = StaleSocketSweeper.start({ dirs: [dir], own, ...(pollMs === undefined ? {} : { pollMs }) });
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

/** A server listening on `socketPath` in this process, closed (its file unlinked) at cleanup at the latest. */
async function liveServer(socketPath: string): Promise<net.Server> {
  const server = net.createServer((socket) => socket.on('error', () => undefined));
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  return server;
}

/** A server in a process of its own, listening on `socketPath` until killed. */
async function serverProcess(socketPath: string): Promise<ChildProcess> {
  const script = `require('net').createServer((s) => s.on('error', () => {})).listen(${JSON.stringify(socketPath)}, () => process.stdout.write('up\\n'))`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  cleanups.push(() => child.kill('SIGKILL'));
  await new Promise((resolve) => child.stdout?.once('data', resolve));
  return child;
}

/** Waits (without a timing assertion) until `check` holds; the test's own timeout bounds it. */
async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('issue 27 §4: the sweeper polls only where needed', () => {
  it('issue 27 §4: an idle host alone in its directory sets no poll timer', async () => {
    const dir = await tempDir();
    const own = path.join(dir, 'discord-ipc-0');
    await liveServer(own);
    const started = sweeper(dir, [own]);
    expect(await started.sweep()).toEqual([]);
    expect(started.pollArmed).toBe(false);
  });

  it('a directory that cannot be watched is polled', async () => {
    const dir = await tempDir();
    const missing = path.join(dir, 'not-yet');
    const started = StaleSocketSweeper.start({ dirs: [missing], own: [] });
    cleanups.push(() => started.close());
    expect(started.pollArmed).toBe(true);
  });

  it('a foreign socket appearing arms the poll, and its disappearance disarms it', async () => {
    const dir = await tempDir();
    const own = path.join(dir, 'discord-ipc-0');
    await liveServer(own);
    const started = sweeper(dir, [own]);
    await started.sweep();
    expect(started.pollArmed).toBe(false);

    const foreign = await liveServer(path.join(dir, 'discord-ipc-1'));
    await until(() => started.pollArmed);
    // The server closes: Node unlinks its socket file, the watcher tells, nothing is left to poll.
    await new Promise((resolve) => foreign.close(resolve));
    await until(() => !started.pollArmed);
    expect(await exists(own)).toBe(true);
  });

  it('a foreign live server dying (its file stays) is still removed, and the poll disarmed', async () => {
    const dir = await tempDir();
    const own = path.join(dir, 'discord-ipc-0');
    await liveServer(own);
    const foreignPath = path.join(dir, 'discord-ipc-1');
    const child = await serverProcess(foreignPath);
    const started = sweeper(dir, [own], 200);
    expect(await started.sweep()).toEqual([]);
    expect(started.pollArmed).toBe(true);

    const gone = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await gone;
    expect((await lstat(foreignPath)).isSocket()).toBe(true);
    await until(async () => !(await exists(foreignPath)));
    await until(() => !started.pollArmed);
    expect(await accepts(own)).toBe(true);
  });
});
