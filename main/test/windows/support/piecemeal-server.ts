/**
 * A Linux discord-ipc server for the bridge test that writes its frames awkwardly: READY's
 * header and body in two writes 30 ms apart, then the SET_ACTIVITY reply and a PING in one
 * write. A game on the official C library drops a connection whose frame arrives in parts; the
 * bridge must hand the game whole frames either way.
 */
import net from 'node:net';
import { rm } from 'node:fs/promises';

function frame(op: number, body: unknown): Buffer {
  const json = Buffer.from(JSON.stringify(body));
  const header = Buffer.alloc(8);
  header.writeInt32LE(op, 0);
  header.writeInt32LE(json.length, 4);
  return Buffer.concat([header, json]);
}

const READY = { cmd: 'DISPATCH', evt: 'READY', nonce: null, data: { v: 1, config: { cdn_host: 'cdn.invalid', api_endpoint: '//api.invalid', environment: 'test' }, user: { id: '1', username: 'piecemeal', discriminator: '0', avatar: null } } };

export class PiecemealServer {
  /** PONG payloads received, one per game that answered the coalesced PING. */
  readonly pongs: string[] = [];
  private readonly sockets = new Set<net.Socket>();

  private constructor(private readonly server: net.Server, readonly path: string) {}

  static async start(path: string): Promise<PiecemealServer> {
    await rm(path, { force: true });
    const server = net.createServer();
    const piecemeal = new PiecemealServer(server, path);
    server.on('connection', (socket) => piecemeal.serve(socket));
    await new Promise<void>((resolve) => server.listen(path, resolve));
    return piecemeal;
  }

  private serve(socket: net.Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => undefined);
    let pending = Buffer.alloc(0);
    socket.on('data', (chunk) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 8 && pending.length >= 8 + pending.readInt32LE(4)) {
        const op = pending.readInt32LE(0);
        const body = pending.subarray(8, 8 + pending.readInt32LE(4)).toString();
        pending = pending.subarray(8 + pending.readInt32LE(4));
        this.answer(socket, op, body);
      }
    });
  }

  private answer(socket: net.Socket, op: number, body: string): void {
    if (op === 0) {
      const ready = frame(1, READY);
      socket.write(ready.subarray(0, 8));
      setTimeout(() => socket.write(ready.subarray(8)), 30);
    } else if (op === 1) {
      const { nonce } = JSON.parse(body) as { nonce: string };
      socket.write(Buffer.concat([frame(1, { cmd: 'SET_ACTIVITY', evt: null, nonce, data: null }), frame(3, `ping-${this.pongs.length}`)]));
    } else if (op === 4) {
      this.pongs.push(body);
    }
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
