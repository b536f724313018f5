/**
 * The JS heap of a child started with `--inspect=127.0.0.1:PORT`, read over the DevTools
 * protocol: a full garbage collection first, then the heap in use. What is still in use
 * after a full collection is what the process keeps; RSS alone also counts garbage that V8
 * has not collected yet, and memory it keeps after collecting.
 */
import net, { type AddressInfo } from 'node:net';
import WebSocket from 'ws';

/** A loopback port free a moment ago, for --inspect. */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export class InspectorHeap {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (result: unknown) => void; reject: (error: Error) => void }>();

  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (data: WebSocket.RawData) => {
      const message = JSON.parse(String(data)) as { id?: number; result?: unknown; error?: { message: string } };
      const waiter = message.id === undefined ? undefined : this.pending.get(message.id);
      if (waiter === undefined) return;
      this.pending.delete(message.id as number);
      if (message.error !== undefined) waiter.reject(new Error(`inspector: ${message.error.message}`));
      else waiter.resolve(message.result);
    });
    ws.on('close', () => {
      for (const waiter of this.pending.values()) waiter.reject(new Error('inspector: connection closed'));
      this.pending.clear();
    });
  }

  /** Connects to the first target of the inspector on `port`. */
  static async connect(port: number): Promise<InspectorHeap> {
    const response = await fetch(`http://127.0.0.1:${port}/json/list`);
    const [target] = (await response.json()) as { webSocketDebuggerUrl: string }[];
    if (target === undefined) throw new Error(`inspector on port ${port}: no target`);
    const ws = new WebSocket(target.webSocketDebuggerUrl);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return new InspectorHeap(ws);
  }

  private call(method: string): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.ws.send(JSON.stringify({ id, method, params: {} }));
    });
  }

  /** MiB of JS heap in use after a full garbage collection. */
  async usedAfterGcMiB(): Promise<number> {
    await this.call('HeapProfiler.collectGarbage');
    const usage = (await this.call('Runtime.getHeapUsage')) as { usedSize: number };
    return usage.usedSize / (1024 * 1024);
  }

  close(): void {
    this.ws.close();
  }
}
