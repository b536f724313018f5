import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PendingConnections } from '../../src/index.js';

/**
 * issue 27 §4: the connections a socket bound before its server is ready holds
 * (PendingConnections), on a real Unix socket.
 */
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function listening(pending: PendingConnections): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'pending-'));
  const socketPath = path.join(dir, 'discord-ipc-0');
  const server = net.createServer(pending.accept);
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  cleanups.push(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await rm(dir, { recursive: true, force: true });
  });
  return socketPath;
}

interface Client {
  readonly socket: net.Socket;
  readonly closed: Promise<void>;
  received: string;
  error: Error | undefined;
}

async function connect(socketPath: string): Promise<Client> {
  const socket = net.connect(socketPath);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  const client: Client = { socket, closed: new Promise((resolve) => socket.once('close', () => resolve())), received: '', error: undefined };
  socket.setEncoding('utf8').on('data', (text: string) => (client.received += text));
  socket.on('error', (error) => (client.error = error));
  cleanups.push(async () => void socket.destroy());
  return client;
}

/** Waits until `pending` holds `count` connections (accepting is asynchronous). */
async function holding(pending: PendingConnections, count: number): Promise<void> {
  while (pending.waiting !== count) await new Promise((resolve) => setTimeout(resolve, 5));
}

/** A handler that echoes what each connection sent, tagged with its arrival number. */
function echoing(order: string[]): (socket: net.Socket) => void {
  return (socket) => {
    const tag = String(order.length);
    order.push(tag);
    socket.setEncoding('utf8').on('data', (text: string) => socket.write(`${tag}:${text}`));
  };
}

describe('issue 27 §4: connections held until the server is ready', () => {
  it('hands held connections over in arrival order with what they sent meanwhile, and later ones straight through', async () => {
    const pending = new PendingConnections(10);
    const socketPath = await listening(pending);
    const first = await connect(socketPath);
    first.socket.write('hello ');
    first.socket.write('world');
    await holding(pending, 1);
    const second = await connect(socketPath);
    second.socket.write('second');
    await holding(pending, 2);

    const order: string[] = [];
    pending.serve(echoing(order));
    expect(order).toEqual(['0', '1']);
    expect(pending.waiting).toBe(0);
    while (first.received !== '0:hello world' || second.received !== '1:second') await new Promise((resolve) => setTimeout(resolve, 5));

    const third = await connect(socketPath);
    third.socket.write('later');
    while (third.received !== '2:later') await new Promise((resolve) => setTimeout(resolve, 5));
  });

  it('drops a connection that leaves while it waits, and serves the others', async () => {
    const pending = new PendingConnections(10);
    const socketPath = await listening(pending);
    const leaving = await connect(socketPath);
    const staying = await connect(socketPath);
    await holding(pending, 2);
    // It goes away before the server is ready.
    leaving.socket.destroy();
    await holding(pending, 1);
    const order: string[] = [];
    pending.serve(echoing(order));
    expect(order).toEqual(['0']);
    staying.socket.write('ok');
    while (staying.received !== '0:ok') await new Promise((resolve) => setTimeout(resolve, 5));
  });

  it('close() ends every held connection in an orderly way (no reset, nothing written) and closes later ones at once', async () => {
    const pending = new PendingConnections(10);
    const socketPath = await listening(pending);
    const held = await connect(socketPath);
    held.socket.write('a handshake nobody will read');
    await holding(pending, 1);
    pending.close();
    await held.closed;
    expect(held.error).toBeUndefined();
    expect(held.received).toBe('');

    const late = await connect(socketPath);
    await late.closed;
    expect(late.received).toBe('');
    expect(() => pending.serve(() => undefined)).toThrow(/closed/);
  });

  it('holds at most `limit` connections: one more is closed at once', async () => {
    const pending = new PendingConnections(2);
    const socketPath = await listening(pending);
    await connect(socketPath);
    await connect(socketPath);
    await holding(pending, 2);
    const third = await connect(socketPath);
    await third.closed;
    expect(pending.waiting).toBe(2);
  });
});
