/* eslint-disable @typescript-eslint/no-explicit-any -- tests assert on arbitrary JSON messages */
import net, { type AddressInfo } from 'node:net';
import WebSocket from 'ws';

export interface WsClientOptions {
  readonly origin?: string;
  /** Sent as the Host header instead of the URL's. */
  readonly host?: string;
  readonly path?: string;
}

export interface WsOutcome {
  /** Set when the upgrade was refused with an HTTP status. */
  readonly status?: number;
  readonly close?: { readonly code: number; readonly reason: string };
}

/** A WebSocket RPC client for tests: JSON messages in order, and how the socket ended. */
export class WsClient {
  readonly messages: any[] = [];
  private cursor = 0;
  private readonly waiters = new Set<() => void>();
  readonly ended: Promise<WsOutcome>;
  private outcome: WsOutcome | undefined;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data: WebSocket.RawData, isBinary: boolean) => {
      this.messages.push(isBinary ? { binary: true } : JSON.parse(String(data)));
      this.wake();
    });
    this.ended = new Promise((resolve) => {
      const finish = (outcome: WsOutcome): void => {
        if (this.outcome !== undefined) return;
        this.outcome = outcome;
        this.wake();
        resolve(outcome);
      };
      ws.on('unexpected-response', (_request, response) => {
        finish({ status: response.statusCode ?? 0 });
        response.resume();
        ws.terminate();
      });
      ws.on('close', (code, reason) => finish({ close: { code, reason: reason.toString('utf8') } }));
      ws.on('error', () => undefined);
    });
  }

  /** Opens `ws://127.0.0.1:port/?query`; resolves at once (use ready() or ended to see what happened). */
  static open(port: number, query: string, options: WsClientOptions = {}): WsClient {
    const headers: Record<string, string> = {};
    if (options.host !== undefined) headers['Host'] = options.host;
    const ws = new WebSocket(`ws://127.0.0.1:${port}${options.path ?? '/'}?${query}`, {
      headers,
      ...(options.origin === undefined ? {} : { origin: options.origin }),
    });
    return new WsClient(ws);
  }

  /** Opens with `?v=1&client_id=...&encoding=json` and resolves with READY. */
  static async ready(port: number, clientId = '123456789012345678', options: WsClientOptions = {}): Promise<{ client: WsClient; ready: any }> {
    const client = WsClient.open(port, `v=1&client_id=${clientId}&encoding=json`, options);
    const ready = await client.next();
    return { client, ready };
  }

  get isOpen(): boolean {
    return this.outcome === undefined;
  }

  send(payload: unknown): void {
    this.ws.send(JSON.stringify(payload));
  }

  /** Sends a command and resolves with the reply of the same nonce. */
  async request(cmd: string, args: unknown, nonce = `n${Math.random()}`): Promise<any> {
    this.send({ cmd, args, nonce });
    for (;;) {
      const message = await this.next();
      if (message.nonce === nonce) return message;
    }
  }

  async next(timeoutMs = 3000): Promise<any> {
    const deadline = Date.now() + timeoutMs;
    while (this.cursor >= this.messages.length) {
      if (this.outcome !== undefined) throw new Error(`connection ended before the next message: ${JSON.stringify(this.outcome)}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no message within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.add(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.messages[this.cursor++];
  }

  close(): void {
    this.ws.terminate();
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) waiter();
    this.waiters.clear();
  }
}

/** Ports the OS just handed out and released: free a moment ago (tests stay off 6463-6472). */
export async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from({ length: count }, () => new Promise<net.Server>((resolve) => {
      const server = net.createServer();
      server.listen(0, '127.0.0.1', () => resolve(server));
    })),
  );
  const ports = servers.map((server) => (server.address() as AddressInfo).port);
  await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
  return ports;
}

/** Holds a port the way another program would; null when it is taken already. Close it when done. */
export function holdPort(port: number): Promise<net.Server | null> {
  return new Promise((resolve) => {
    const server = net.createServer((socket) => socket.destroy());
    server.once('error', () => resolve(null));
    server.listen({ host: '127.0.0.1', port, exclusive: true }, () => resolve(server));
  });
}
