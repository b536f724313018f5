import { WebSocket, type ClientOptions } from 'ws';
import type { GatewayPayload, PresenceUpdateCommand, ReadyEvent } from '../../src/wire/index.js';

type Predicate = (message: GatewayPayload) => boolean;

interface Waiter {
  readonly predicate: Predicate;
  readonly resolve: (message: GatewayPayload) => void;
}

export const isDispatch =
  (t: string): Predicate =>
  (message) =>
    message.op === 0 && message.t === t;
export const isOp =
  (op: number): Predicate =>
  (message) =>
    message.op === op;

/**
 * A raw gateway client for tests: records every message, lets a test wait for the next one
 * that matches, and reports how the server closed the connection.
 */
export class GatewayClient {
  readonly messages: GatewayPayload[] = [];
  private readonly taken = new Set<GatewayPayload>();
  private readonly waiters = new Set<Waiter>();
  readonly closed: Promise<{ code: number; reason: string }>;
  private lastSeq: number | null = null;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const message = JSON.parse(data.toString()) as GatewayPayload;
      if (message.s !== null && message.s !== undefined) this.lastSeq = message.s;
      this.messages.push(message);
      for (const waiter of this.waiters) {
        if (!this.taken.has(message) && waiter.predicate(message)) {
          this.taken.add(message);
          this.waiters.delete(waiter);
          waiter.resolve(message);
        }
      }
    });
    this.closed = new Promise((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
    ws.on('error', () => undefined);
  }

  /** Opens a connection (query defaults to `v=10&encoding=json`) without waiting for Hello. */
  static async open(gatewayUrl: string, query = 'v=10&encoding=json', options: ClientOptions = {}): Promise<GatewayClient> {
    const ws = new WebSocket(query.length > 0 ? `${gatewayUrl}?${query}` : gatewayUrl, options);
    const client = new GatewayClient(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return client;
  }

  /** Opens a connection and waits for Hello (`options`: the WebSocket's, e.g. the `ca` a wss client trusts). */
  static async connect(gatewayUrl: string, query?: string, options?: ClientOptions): Promise<GatewayClient> {
    const client = await GatewayClient.open(gatewayUrl, query, options);
    await client.next(isOp(10));
    return client;
  }

  /** Connects, identifies and waits for READY. */
  static async ready(gatewayUrl: string, token: string, presence?: PresenceUpdateCommand): Promise<{ client: GatewayClient; ready: ReadyEvent }> {
    const client = await GatewayClient.connect(gatewayUrl);
    const ready = await client.identify(token, presence);
    return { client, ready };
  }

  get seq(): number | null {
    return this.lastSeq;
  }

  send(op: number, d: unknown): void {
    this.ws.send(JSON.stringify({ op, d }));
  }

  sendRaw(data: string | Buffer, binary = false): void {
    this.ws.send(data, { binary });
  }

  async identify(token: string, presence?: PresenceUpdateCommand): Promise<ReadyEvent> {
    this.send(2, { token, properties: { os: 'linux', browser: 'companion-test', device: 'companion-test' }, ...(presence !== undefined ? { presence } : {}) });
    return (await this.next(isDispatch('READY'))).d as ReadyEvent;
  }

  setPresence(presence: PresenceUpdateCommand): void {
    this.send(3, presence);
  }

  /** Sends a heartbeat and waits for its ACK: everything the server sent before is here now. */
  async barrier(): Promise<void> {
    this.send(1, this.lastSeq);
    await this.next(isOp(11));
  }

  /** The next message (received or to come) matching `predicate` that no earlier call took. */
  next(predicate: Predicate = () => true, timeoutMs = 5000): Promise<GatewayPayload> {
    const found = this.messages.find((message) => !this.taken.has(message) && predicate(message));
    if (found !== undefined) {
      this.taken.add(found);
      return Promise.resolve(found);
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        predicate,
        resolve: (message) => {
          clearTimeout(timer);
          resolve(message);
        },
      };
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(new Error(`no matching gateway message within ${timeoutMs} ms; got ${JSON.stringify(this.messages.map((m) => m.t ?? m.op))}`));
      }, timeoutMs);
      this.waiters.add(waiter);
    });
  }

  /** Dispatches of one type received so far. */
  dispatches(t: string): GatewayPayload[] {
    return this.messages.filter((message) => message.op === 0 && message.t === t);
  }

  close(code = 1000): void {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.close(code);
  }

  terminate(): void {
    this.ws.terminate();
  }
}
