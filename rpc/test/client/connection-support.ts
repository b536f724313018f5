/* eslint-disable @typescript-eslint/no-explicit-any -- frames are arbitrary JSON */
import net from 'node:net';
import path from 'node:path';
import { encodeFrame, FrameDecoder, Opcode } from '../../src/index.js';
import { Recorder } from '../compat/helpers.js';

export interface FakeFrame {
  readonly opcode: number;
  readonly payload: any;
  readonly raw: Buffer;
}

export interface FakeConnection {
  readonly socket: net.Socket;
  readonly frames: Recorder<FakeFrame>;
  write(bytes: Buffer): void;
}

/**
 * A byte-level server for what a real RpcServer never does (write a frame byte by byte,
 * coalesce frames, ignore a PING): each accepted connection's frames are recorded, and
 * `onFrame` decides what to answer. By default it answers HANDSHAKE with READY and PING with
 * PONG.
 */
export class FakeServer {
  readonly connections = new Recorder<FakeConnection>();
  answerPings = true;
  onFrame: (connection: FakeConnection, frame: FakeFrame) => void = () => undefined;
  private readonly sockets = new Set<net.Socket>();

  private constructor(
    readonly server: net.Server,
    readonly path: string,
  ) {}

  static async start(dir: string, name = 'discord-ipc-0'): Promise<FakeServer> {
    const socketPath = path.join(dir, name);
    const server = net.createServer();
    const fake = new FakeServer(server, socketPath);
    server.on('connection', (socket) => fake.accept(socket));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socketPath, resolve);
    });
    return fake;
  }

  private accept(socket: net.Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => undefined);
    const decoder = new FrameDecoder();
    const connection: FakeConnection = {
      socket,
      frames: new Recorder<FakeFrame>(),
      write: (bytes) => {
        if (!socket.destroyed) socket.write(bytes);
      },
    };
    socket.on('data', (chunk: Buffer) => {
      for (const frame of decoder.push(chunk)) {
        const text = frame.body.toString('utf8');
        const decoded: FakeFrame = { opcode: frame.opcode, payload: text === '' ? null : JSON.parse(text), raw: Buffer.from(frame.body) };
        connection.frames.push(decoded);
        if (decoded.opcode === Opcode.Ping && this.answerPings) connection.write(encodeFrame(Opcode.Pong, decoded.payload));
        this.onFrame(connection, decoded);
      }
    });
    this.connections.push(connection);
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

export const READY_PAYLOAD = {
  cmd: 'DISPATCH',
  data: { v: 1, config: { cdn_host: 'cdn.example.test', api_endpoint: '//api.example.test/api', environment: 'production' }, user: { id: '100000000000000001', username: 'tester' } },
  evt: 'READY',
  nonce: null,
};
