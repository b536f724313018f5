import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from '../../../../common/src/node/ws-module.js';

/**
 * A platform that sends what a test tells it to: a real HTTP server on 127.0.0.1:0 answering
 * `GET /api/v10/gateway` (with `gatewayUrl`, its own WebSocket address unless a test changes
 * it; other routes with the test's `answers`, else 404), and a real `ws` gateway on the same port. By default each
 * connection gets Hello and, on Identify or Resume, READY or RESUMED (`ready` below), as the
 * real gateway does; a test then sends any frame, well formed or not, on the latest
 * connection. Every frame a client sent is kept per connection.
 */

export interface GatewayPeer {
  readonly socket: WebSocket;
  /** The frames the client sent, parsed. */
  readonly received: { op: number; d: unknown }[];
  /** The URL the client asked for (path and query). */
  readonly url: string;
  /** A frame as given (a string goes as it is: damaged JSON too). */
  send(frame: unknown): void;
  dispatch(t: string, d: unknown): void;
}

export interface FakeGatewayOptions {
  /** The frames each connection (numbered from 0) is sent first. Default one Hello, `{op: 10, d: {heartbeat_interval: 41250}}`. */
  readonly hellos?: (connection: number) => readonly unknown[];
  /** READY's data for an Identify on each connection, as it is. Default {@link FakeGateway.readyData}. */
  readonly ready?: (connection: number, fake: FakeGateway) => unknown;
  /** What `GET /api/v10/gateway` answers as `url` the n-th time it is asked (from 0). Default the gateway's own address. */
  readonly gatewayUrl?: (ask: number, fake: FakeGateway) => unknown;
  /** 200 answers of other routes, by `METHOD /api/v10/path` (no query); the body as it is when a string, else its JSON. */
  readonly answers?: Readonly<Record<string, unknown>>;
  /** Answer a RESUME with INVALID_SESSION (the client identifies again: a new READY). */
  readonly refuseResume?: boolean;
}

export const HELLO = { op: 10, d: { heartbeat_interval: 41_250 } };
export const TEST_USER = { id: '100000000000000001', username: 'player', global_name: null, avatar: null };

export class FakeGateway {
  readonly peers: GatewayPeer[] = [];
  /** Every `GET /api/v10/gateway` seen. */
  gatewayAsked = 0;
  private seq = 0;
  private sessions = 0;

  private constructor(
    private readonly http: Server,
    private readonly wss: WebSocketServer,
    readonly base: string,
    private readonly options: FakeGatewayOptions,
  ) {
    wss.on('connection', (socket, request) => this.onConnection(socket, request.url ?? ''));
  }

  static async start(options: FakeGatewayOptions = {}): Promise<FakeGateway> {
    const http = createServer((request, response) => {
      if (request.url === '/api/v10/gateway') {
        const url = options.gatewayUrl === undefined ? fake.wsUrl : options.gatewayUrl(fake.gatewayAsked, fake);
        fake.gatewayAsked += 1;
        response.writeHead(200, { 'Content-Type': 'application/json' });
        response.end(JSON.stringify({ url }));
        return;
      }
      const route = `${request.method ?? 'GET'} ${(request.url ?? '').split('?')[0] ?? ''}`;
      if (options.answers !== undefined && Object.hasOwn(options.answers, route)) {
        const body = options.answers[route];
        response.writeHead(200, { 'Content-Type': 'application/json' });
        response.end(typeof body === 'string' ? body : JSON.stringify(body));
        return;
      }
      response.writeHead(404, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify({ code: 0, message: '404: Not Found' }));
    });
    const wss = new WebSocketServer({ server: http });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const { port } = http.address() as AddressInfo;
    const fake: FakeGateway = new FakeGateway(http, wss, `http://127.0.0.1:${port}`, options);
    return fake;
  }

  get wsUrl(): string {
    return this.base.replace('http:', 'ws:');
  }

  /** The latest connection. */
  get peer(): GatewayPeer {
    const peer = this.peers.at(-1);
    if (peer === undefined) throw new Error('no gateway connection yet');
    return peer;
  }

  /** The frames of every connection with this op. */
  sentByClients(op: number): { op: number; d: unknown }[] {
    return this.peers.flatMap((peer) => peer.received.filter((frame) => frame.op === op));
  }

  async close(): Promise<void> {
    for (const client of this.wss.clients) client.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
    this.http.closeAllConnections();
    await new Promise<void>((resolve) => this.http.close(() => resolve()));
  }

  private onConnection(socket: WebSocket, url: string): void {
    const send = (frame: unknown): void => {
      if (socket.readyState === socket.OPEN) socket.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
    };
    const peer: GatewayPeer = {
      socket,
      received: [],
      url,
      send,
      dispatch: (t, d) => send({ op: 0, t, s: (this.seq += 1), d }),
    };
    this.peers.push(peer);
    const index = this.peers.length - 1;
    socket.on('message', (data) => {
      let frame: { op: number; d: unknown };
      try {
        frame = JSON.parse(String(data)) as { op: number; d: unknown };
      } catch {
        return;
      }
      peer.received.push(frame);
      if (frame.op === 1) send({ op: 11 });
      if (frame.op === 2) peer.dispatch('READY', this.options.ready === undefined ? this.readyData() : this.options.ready(index, this));
      if (frame.op === 6) {
        if (this.options.refuseResume === true) send({ op: 9, d: false });
        else peer.dispatch('RESUMED', null);
      }
    });
    for (const frame of this.options.hellos?.(index) ?? [HELLO]) send(frame);
  }

  /** A READY the SDK accepts: a new session, resumable at this gateway. */
  readyData(): Record<string, unknown> {
    this.sessions += 1;
    return { v: 10, user: TEST_USER, session_id: `session-${this.sessions}`, resume_gateway_url: this.wsUrl, relationships: [], guilds: [], private_channels: [], presences: [] };
  }
}
