import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { GatewayOp, type GatewayPayload, type ReadyEvent } from '../../../../../platform/src/wire/index.js';

export interface Received {
  readonly op: number;
  readonly d: unknown;
  /** Arrival time (ms, Date.now) for window checks. */
  readonly at: number;
}

/**
 * One client connection to the scripted gateway. Tests drive it: send Hello/READY/dispatches,
 * ACK (automatically unless turned off), close. Everything the client sent is in `received`.
 */
export class ScriptedConnection {
  readonly received: Received[] = [];
  /** ACK every heartbeat at once (turn off to make the client see a zombie). */
  autoAck = true;
  private seq = 0;
  private waiters: { readonly match: (p: Received) => boolean; readonly resolve: (p: Received) => void }[] = [];
  private readonly taken = new Set<Received>();
  readonly closed: Promise<{ code: number }>;

  constructor(
    readonly socket: WebSocket,
    readonly url: URL,
  ) {
    this.closed = new Promise((resolve) => socket.once('close', (code) => resolve({ code })));
    socket.on('message', (data) => {
      const payload = JSON.parse(data.toString()) as { op: number; d: unknown };
      const received: Received = { op: payload.op, d: payload.d, at: Date.now() };
      this.received.push(received);
      if (received.op === GatewayOp.Heartbeat && this.autoAck) this.sendRaw({ op: GatewayOp.HeartbeatAck, d: null, s: null, t: null });
      this.waiters = this.waiters.filter((waiter) => {
        if (!waiter.match(received)) return true;
        waiter.resolve(received);
        return false;
      });
    });
  }

  /** The next payload with this op that arrives (or already arrived and was not taken yet). */
  next(op: number, where: (d: unknown) => boolean = () => true): Promise<Received> {
    const match = (p: Received): boolean => p.op === op && where(p.d);
    const existing = this.received.find((p) => match(p) && !this.taken.has(p));
    if (existing !== undefined) {
      this.taken.add(existing);
      return Promise.resolve(existing);
    }
    return new Promise((resolve) => {
      this.waiters.push({
        match: (p) => match(p) && !this.taken.has(p),
        resolve: (p) => {
          this.taken.add(p);
          resolve(p);
        },
      });
    });
  }
  count(op?: number): number {
    return op === undefined ? this.received.length : this.received.filter((p) => p.op === op).length;
  }

  sendRaw(payload: GatewayPayload): void {
    this.socket.send(JSON.stringify(payload));
  }

  hello(heartbeatInterval: number): void {
    this.sendRaw({ op: GatewayOp.Hello, d: { heartbeat_interval: heartbeatInterval }, s: null, t: null });
  }

  /** A dispatch with the connection's next seq unless one is given. */
  dispatch(t: string, d: unknown, s?: number): number {
    const seq = s ?? ++this.seq;
    this.seq = seq;
    this.sendRaw({ op: GatewayOp.Dispatch, d, s: seq, t });
    return seq;
  }

  ready(overrides: Partial<ReadyEvent> = {}): ReadyEvent {
    const ready = makeReady(overrides);
    this.dispatch('READY', ready);
    return ready;
  }

  op(op: number, d: unknown = null): void {
    this.sendRaw({ op, d, s: null, t: null });
  }

  close(code: number): Promise<{ code: number }> {
    this.socket.close(code);
    return this.closed;
  }

  /** Drops the TCP connection without a close frame. */
  terminate(): Promise<{ code: number }> {
    this.socket.terminate();
    return this.closed;
  }

  /** Sends Hello, waits for Identify, answers READY: the usual start of a session. */
  async establish(heartbeatInterval = 60_000, ready: Partial<ReadyEvent> = {}): Promise<{ identify: Received; ready: ReadyEvent }> {
    this.hello(heartbeatInterval);
    const identify = await this.next(GatewayOp.Identify);
    return { identify, ready: this.ready(ready) };
  }
}

export function makeReady(overrides: Partial<ReadyEvent> = {}): ReadyEvent {
  return {
    v: 10,
    user: { id: '100', username: 'alice', discriminator: '0', global_name: 'Alice', avatar: null, bot: false, flags: 0, premium_type: 0 },
    session_id: 'session-1',
    resume_gateway_url: 'ws://127.0.0.1:1/gateway',
    relationships: [],
    guilds: [],
    private_channels: [],
    presences: [],
    ...overrides,
  };
}

/** A real WebSocket server on 127.0.0.1 whose every connection a test scripts by hand. */
export class ScriptedGateway {
  readonly connections: ScriptedConnection[] = [];
  private waiters: ((connection: ScriptedConnection) => void)[] = [];
  private taken = 0;

  private constructor(
    private readonly server: WebSocketServer,
    readonly port: number,
  ) {
    server.on('connection', (socket, request) => {
      const connection = new ScriptedConnection(socket, new URL(request.url ?? '/', `ws://127.0.0.1:${port}`));
      this.connections.push(connection);
      const waiter = this.waiters.shift();
      if (waiter !== undefined) {
        this.taken += 1;
        waiter(connection);
      }
    });
  }

  /** Listens on `port` (0: a free one). */
  static start(port = 0): Promise<ScriptedGateway> {
    return new Promise((resolve, reject) => {
      const server = new WebSocketServer({ host: '127.0.0.1', port, path: '/gateway' });
      server.once('error', reject);
      server.once('listening', () => resolve(new ScriptedGateway(server, (server.address() as AddressInfo).port)));
    });
  }

  get url(): string {
    return `ws://127.0.0.1:${this.port}/gateway`;
  }

  /** The next connection not yet handed to the test, in arrival order. */
  nextConnection(): Promise<ScriptedConnection> {
    const ready = this.connections[this.taken];
    if (ready !== undefined) {
      this.taken += 1;
      return Promise.resolve(ready);
    }
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Stops listening and drops every connection without a close frame. */
  close(): Promise<void> {
    for (const client of this.server.clients) client.terminate();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
