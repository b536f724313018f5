import {
  INVOKE_CHANNELS,
  PUSH_CHANNELS,
  type BridgeClientMessage,
  type BridgeServerMessage,
  type CompanionBridge,
  type InvokeChannel,
  type InvokeChannels,
  type PushChannel,
  type PushChannels,
} from '../../../preload/src/contract';
import type { BridgeLink, LinkState } from './link';

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

interface Pending {
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: Error) => void;
  readonly timer: unknown;
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
  if ('push' in record) return isPushChannel(record['push']) ? { push: record['push'], payload: record['payload'] } : null;
  if (typeof record['id'] !== 'number') return null;
  if (record['ok'] === true) return { id: record['id'], ok: true, result: record['result'] };
  if (record['ok'] === false) return { id: record['id'], ok: false, error: typeof record['error'] === 'string' ? record['error'] : 'The host refused the call' };
  return null;
}

export function createWebBridge(options: WebBridgeOptions = {}): WebBridge {
  const url = options.url ?? defaultBridgeUrl(window.location);
  const createSocket = options.createSocket ?? ((target: string): SocketLike => new WebSocket(target) as unknown as SocketLike);
  const initialBackoffMs = options.initialBackoffMs ?? 500;
  const maxBackoffMs = options.maxBackoffMs ?? 10_000;
  const callTimeoutMs = options.callTimeoutMs ?? 60_000;
  const random = options.random ?? Math.random;
  const setTimer = options.setTimer ?? ((callback: () => void, ms: number): unknown => setTimeout(callback, ms));
  const clearTimer = options.clearTimer ?? ((handle: unknown): void => clearTimeout(handle as ReturnType<typeof setTimeout>));

  const pending = new Map<number, Pending>();
  const pushListeners = new Map<PushChannel, Set<(payload: unknown) => void>>();
  const linkListeners = new Set<Parameters<BridgeLink['onLinkState']>[0]>();
  let socket: SocketLike | null = null;
  let state: LinkState = 'connecting';
  let attempt = 0;
  let nextId = 1;
  let reconnectTimer: unknown = null;
  let closed = false;

  const setState = (next: LinkState, retryInMs: number | null): void => {
    state = next;
    for (const listener of [...linkListeners]) listener(next, { attempt, retryInMs });
  };

  const failPending = (message: string): void => {
    const calls = [...pending.values()];
    pending.clear();
    for (const call of calls) {
      clearTimer(call.timer);
      call.reject(new Error(message));
    }
  };

  const onMessage = (data: unknown): void => {
    const message = parseServerMessage(data);
    if (message === null) return;
    if ('push' in message) {
      for (const listener of [...(pushListeners.get(message.push) ?? [])]) listener(message.payload);
      return;
    }
    const call = pending.get(message.id);
    if (call === undefined) return;
    pending.delete(message.id);
    clearTimer(call.timer);
    if (message.ok) call.resolve(message.result);
    else call.reject(new Error(message.error));
  };

  const connect = (): void => {
    reconnectTimer = null;
    if (closed) return;
    let current: SocketLike;
    try {
      current = createSocket(url);
    } catch {
      scheduleReconnect();
      return;
    }
    socket = current;
    current.onopen = (): void => {
      if (socket !== current) return;
      attempt = 0;
      setState('open', null);
    };
    current.onmessage = (event): void => {
      if (socket === current) onMessage(event.data);
    };
    current.onerror = (): void => {
      // A close event follows; that is where the bridge reacts.
    };
    current.onclose = (): void => {
      if (socket !== current) return;
      socket = null;
      failPending('The connection to the host was lost');
      if (!closed) scheduleReconnect();
    };
  };

  const scheduleReconnect = (): void => {
    attempt += 1;
    const delay = backoffDelay(attempt, initialBackoffMs, maxBackoffMs, random);
    setState('lost', delay);
    reconnectTimer = setTimer(connect, delay);
  };

  const bridge: WebBridge = {
    invoke<C extends InvokeChannel>(channel: C, ...args: InvokeChannels[C]['args']): Promise<InvokeChannels[C]['result']> {
      if (!(INVOKE_CHANNELS as readonly string[]).includes(channel)) return Promise.reject(new Error(`Unknown channel ${String(channel)}`));
      const current = socket;
      if (closed || current === null || state !== 'open' || current.readyState !== OPEN) {
        return Promise.reject(new Error('Not connected to the host'));
      }
      const id = nextId++;
      const message: BridgeClientMessage = { id, channel, args };
      return new Promise<InvokeChannels[C]['result']>((resolve, reject) => {
        const timer = setTimer(() => {
          if (pending.delete(id)) reject(new Error(`The host did not answer ${channel} in time`));
        }, callTimeoutMs);
        pending.set(id, { resolve: resolve as (value: unknown) => void, reject, timer });
        try {
          current.send(JSON.stringify(message));
        } catch (error) {
          pending.delete(id);
          clearTimer(timer);
          reject(error instanceof Error ? error : new Error(String(error)));
        }
      });
    },
    on<C extends PushChannel>(channel: C, listener: (payload: PushChannels[C]) => void): () => void {
      let listeners = pushListeners.get(channel);
      if (listeners === undefined) {
        listeners = new Set();
        pushListeners.set(channel, listeners);
      }
      const entry = listener as (payload: unknown) => void;
      listeners.add(entry);
      return () => {
        pushListeners.get(channel)?.delete(entry);
      };
    },
    linkState: () => state,
    onLinkState(listener) {
      linkListeners.add(listener);
      return () => {
        linkListeners.delete(listener);
      };
    },
    close() {
      if (closed) return;
      closed = true;
      if (reconnectTimer !== null) clearTimer(reconnectTimer);
      const current = socket;
      socket = null;
      failPending('The bridge was closed');
      current?.close(1000, 'closed');
    },
  };

  connect();
  return bridge;
}
