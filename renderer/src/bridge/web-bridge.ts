import {
  BRIDGE_DEFLATE_PROTOCOL,
  INVOKE_CHANNELS,
  PUSH_CHANNELS,
  type BridgeClientMessage,
  type BridgeServerMessage,
  type BridgeWirePush,
  type CompanionBridge,
  type InvokeChannel,
  type InvokeChannels,
  type PushChannel,
  type PushChannels,
} from '../../../preload/src/contract';
import type { BridgeLink, LinkState } from './link';
import { messageText } from './message-text';

/**
 * The `CompanionBridge` of the headless host: JSON messages over one WebSocket to
 * `ws(s)://<location.host>/bridge`. The host authenticates the upgrade by its HttpOnly cookie
 * (set when the page was first opened with the token), so nothing secret lives here.
 *
 * - Calls carry an increasing id; the answer with that id settles them. A call made while the
 *   socket is not open fails at once; calls in flight fail when the socket closes or after
 *   `callTimeoutMs`.
 * - When the socket closes the bridge reports `lost` and reconnects with exponential backoff
 *   (with jitter). When it opens again it reports `open`: the store then asks `companion:ready`
 *   again for a fresh snapshot.
 */

/** The part of the DOM WebSocket the bridge uses (tests pass a fake). */
export interface SocketLike {
  readonly readyState: number;
  onopen: ((event: unknown) => void) | null;
  onclose: ((event: { readonly code: number; readonly reason: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
  onmessage: ((event: { readonly data: unknown }) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

export interface WebBridgeOptions {
  /** Default: `ws(s)://<location.host>/bridge`. */
  readonly url?: string;
  readonly createSocket?: (url: string) => SocketLike;
  readonly initialBackoffMs?: number;
  readonly maxBackoffMs?: number;
  readonly callTimeoutMs?: number;
  readonly random?: () => number;
  readonly setTimer?: (callback: () => void, ms: number) => unknown;
  readonly clearTimer?: (handle: unknown) => void;
}

export interface WebBridge extends CompanionBridge, BridgeLink {
  /** Closes the socket for good (no reconnect); pending calls fail. */
  close(): void;
}

const OPEN = 1;


/** The browser's WebSocket, offering compressed messages (binary, read as ArrayBuffers). */
function compressedSocket(target: string): SocketLike {
  const socket = new WebSocket(target, [BRIDGE_DEFLATE_PROTOCOL]);
  socket.binaryType = 'arraybuffer';
  return socket as unknown as SocketLike;
}

export function defaultBridgeUrl(location: { readonly protocol: string; readonly host: string }): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/bridge`;
}

/** The delay before reconnect attempt `attempt` (1-based): exponential, capped, with ±20 % jitter. */
export function backoffDelay(attempt: number, initialMs: number, maxMs: number, random: () => number): number {
  const base = Math.min(maxMs, initialMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(base * (0.8 + 0.4 * random()));
}

function isPushChannel(value: unknown): value is PushChannel {
  return typeof value === 'string' && (PUSH_CHANNELS as readonly string[]).includes(value);
}

function wirePush(record: Record<string, unknown>): BridgeWirePush | null {
  return isPushChannel(record['push']) ? { push: record['push'], payload: record['payload'] } : null;
}

function parseServerMessage(data: unknown): BridgeServerMessage | null {
  if (typeof data !== 'string') return null;
  let message: unknown;
  try {
    message = JSON.parse(data);
  } catch {
    return null;
  }
  if (typeof message !== 'object' || message === null) return null;
  const record = message as Record<string, unknown>;
  if ('push' in record) return wirePush(record);
  if (Array.isArray(record['pushes'])) {
    const pushes = (record['pushes'] as unknown[]).map((item) => (typeof item === 'object' && item !== null ? wirePush(item as Record<string, unknown>) : null));
    return pushes.every((push) => push !== null) ? { pushes: pushes as BridgeWirePush[] } : null;
  }
  if (typeof record['id'] !== 'number') return null;
  if (record['ok'] === true) return { id: record['id'], ok: true, result: record['result'] };
  if (record['ok'] === false) return { id: record['id'], ok: false, error: typeof record['error'] === 'string' ? record['error'] : 'The host refused the call' };
  return null;
}

interface Timers {
  readonly set: (callback: () => void, ms: number) => unknown;
  readonly clear: (handle: unknown) => void;
}

/** Calls waiting for their answer, each with its timeout. */
class PendingCalls {
  private readonly calls = new Map<number, { readonly resolve: (value: unknown) => void; readonly reject: (error: Error) => void; readonly timer: unknown }>();
  private nextId = 1;

  constructor(
    private readonly timers: Timers,
    private readonly timeoutMs: number,
  ) {}

  /** Registers a call; `send` gets its id (a throw fails the call). */
  start<T>(channel: string, send: (id: number) => void): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = this.timers.set(() => {
        if (this.calls.delete(id)) reject(new Error(`The host did not answer ${channel} in time`));
      }, this.timeoutMs);
      this.calls.set(id, { resolve: resolve as (value: unknown) => void, reject, timer });
      try {
        send(id);
      } catch (error) {
        this.calls.delete(id);
        this.timers.clear(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  }

  settle(id: number, outcome: { readonly ok: true; readonly result: unknown } | { readonly ok: false; readonly error: string }): void {
    const call = this.calls.get(id);
    if (call === undefined) return;
    this.calls.delete(id);
    this.timers.clear(call.timer);
    if (outcome.ok) call.resolve(outcome.result);
    else call.reject(new Error(outcome.error));
  }

  failAll(message: string): void {
    const calls = [...this.calls.values()];
    this.calls.clear();
    for (const call of calls) {
      this.timers.clear(call.timer);
      call.reject(new Error(message));
    }
  }
}

/** Listeners of each push channel and of the link state. */
class Listeners {
  private readonly pushes = new Map<PushChannel, Set<(payload: unknown) => void>>();
  readonly link = new Set<Parameters<BridgeLink['onLinkState']>[0]>();

  add(channel: PushChannel, listener: (payload: unknown) => void): () => void {
    let listeners = this.pushes.get(channel);
    if (listeners === undefined) {
      listeners = new Set();
      this.pushes.set(channel, listeners);
    }
    listeners.add(listener);
    return () => {
      this.pushes.get(channel)?.delete(listener);
    };
  }

  push(channel: PushChannel, payload: unknown): void {
    for (const listener of [...(this.pushes.get(channel) ?? [])]) listener(payload);
  }
}

/** The socket's life: connect, report the link state, reconnect with backoff after a close. */
class WebSocketBridge implements WebBridge {
  private readonly url: string;
  private readonly createSocket: (url: string) => SocketLike;
  private readonly initialBackoffMs: number;
  private readonly maxBackoffMs: number;
  private readonly random: () => number;
  private readonly timers: Timers;
  private readonly pending: PendingCalls;
  private readonly listeners = new Listeners();
  private socket: SocketLike | null = null;
  private state: LinkState = 'connecting';
  private attempt = 0;
  private reconnectTimer: unknown = null;
  private closed = false;
  private inflating = 0;
  private inbound: Promise<void> = Promise.resolve();

  constructor(options: WebBridgeOptions) {
    this.url = options.url ?? defaultBridgeUrl(window.location);
    this.createSocket = options.createSocket ?? ((target: string): SocketLike => compressedSocket(target));
    this.initialBackoffMs = options.initialBackoffMs ?? 500;
    this.maxBackoffMs = options.maxBackoffMs ?? 10_000;
    this.random = options.random ?? Math.random;
    this.timers = {
      set: options.setTimer ?? ((callback: () => void, ms: number): unknown => setTimeout(callback, ms)),
      clear: options.clearTimer ?? ((handle: unknown): void => clearTimeout(handle as ReturnType<typeof setTimeout>)),
    };
    this.pending = new PendingCalls(this.timers, options.callTimeoutMs ?? 60_000);
  }

  invoke<C extends InvokeChannel>(channel: C, ...args: InvokeChannels[C]['args']): Promise<InvokeChannels[C]['result']> {
    if (!(INVOKE_CHANNELS as readonly string[]).includes(channel)) return Promise.reject(new Error(`Unknown channel ${String(channel)}`));
    const current = this.socket;
    if (this.closed || current === null || this.state !== 'open' || current.readyState !== OPEN) {
      return Promise.reject(new Error('Not connected to the host'));
    }
    return this.pending.start(channel, (id) => {
      const message: BridgeClientMessage = { id, channel, args };
      current.send(JSON.stringify(message));
    });
  }

  on<C extends PushChannel>(channel: C, listener: (payload: PushChannels[C]) => void): () => void {
    return this.listeners.add(channel, listener as (payload: unknown) => void);
  }

  linkState(): LinkState {
    return this.state;
  }

  onLinkState(listener: Parameters<BridgeLink['onLinkState']>[0]): () => void {
    this.listeners.link.add(listener);
    return () => {
      this.listeners.link.delete(listener);
    };
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.reconnectTimer !== null) this.timers.clear(this.reconnectTimer);
    const current = this.socket;
    this.socket = null;
    this.pending.failAll('The bridge was closed');
    current?.close(1000, 'closed');
  }

  connect(): void {
    this.reconnectTimer = null;
    if (this.closed) return;
    let current: SocketLike;
    try {
      current = this.createSocket(this.url);
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.socket = current;
    current.onopen = (): void => {
      if (this.socket !== current) return;
      this.attempt = 0;
      this.setState('open', null);
    };
    current.onmessage = (event): void => {
      if (this.socket === current) this.receive(current, event.data);
    };
    current.onerror = (): void => {
      // A close event follows; that is where the bridge reacts.
    };
    current.onclose = (): void => {
      if (this.socket !== current) return;
      this.socket = null;
      this.pending.failAll('The connection to the host was lost');
      if (!this.closed) this.scheduleReconnect();
    };
  }

  /** Messages in order: text at once while nothing waits to be inflated, else behind what waits. */
  private receive(from: SocketLike, data: unknown): void {
    if (typeof data === 'string' && this.inflating === 0) return this.onMessage(data);
    this.inflating += 1;
    this.inbound = this.inbound
      .then(() => messageText(data))
      .then(
        (text) => {
          if (this.socket === from) this.onMessage(text);
        },
        () => undefined,
      )
      .finally(() => {
        this.inflating -= 1;
      });
  }

  private onMessage(data: unknown): void {
    const message = parseServerMessage(data);
    if (message === null) return;
    if ('push' in message) this.listeners.push(message.push, message.payload);
    else if ('pushes' in message) for (const push of message.pushes) this.listeners.push(push.push, push.payload);
    else this.pending.settle(message.id, message);
  }

  private setState(next: LinkState, retryInMs: number | null): void {
    this.state = next;
    for (const listener of [...this.listeners.link]) listener(next, { attempt: this.attempt, retryInMs });
  }

  private scheduleReconnect(): void {
    this.attempt += 1;
    const delay = backoffDelay(this.attempt, this.initialBackoffMs, this.maxBackoffMs, this.random);
    this.setState('lost', delay);
    this.reconnectTimer = this.timers.set(() => this.connect(), delay);
  }
}

export function createWebBridge(options: WebBridgeOptions = {}): WebBridge {
  const bridge = new WebSocketBridge(options);
  bridge.connect();
  return bridge;
}
