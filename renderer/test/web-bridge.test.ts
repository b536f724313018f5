import { describe, expect, it } from 'vitest';
import { backoffDelay, createWebBridge, defaultBridgeUrl, type SocketLike } from '../src/bridge/web-bridge';
import type { LinkState } from '../src/bridge/link';
import { flush, snapshot } from './fake-bridge';

class FakeSocket implements SocketLike {
  readyState = 0;
  onopen: SocketLike['onopen'] = null;
  onclose: SocketLike['onclose'] = null;
  onerror: SocketLike['onerror'] = null;
  onmessage: SocketLike['onmessage'] = null;
  readonly sent: unknown[] = [];
  constructor(readonly url: string) {}
  send(data: string): void {
    this.sent.push(JSON.parse(data));
  }
  close(): void {
    this.drop();
  }
  open(): void {
    this.readyState = 1;
    this.onopen?.({});
  }
  drop(): void {
    if (this.readyState === 3) return;
    this.readyState = 3;
    this.onclose?.({ code: 1006, reason: '' });
  }
  receive(message: unknown): void {
    this.onmessage?.({ data: typeof message === 'string' ? message : JSON.stringify(message) });
  }
}

function setup() {
  const sockets: FakeSocket[] = [];
  const timers: { callback: () => void; ms: number; cleared: boolean }[] = [];
  const states: LinkState[] = [];
  const bridge = createWebBridge({
    url: 'ws://127.0.0.1:7010/bridge',
    createSocket: (url) => {
      const socket = new FakeSocket(url);
      sockets.push(socket);
      return socket;
    },
    random: () => 0.5,
    initialBackoffMs: 100,
    maxBackoffMs: 1_000,
    callTimeoutMs: 5_000,
    setTimer: (callback, ms) => {
      const timer = { callback, ms, cleared: false };
      timers.push(timer);
      return timer;
    },
    clearTimer: (handle) => {
      (handle as { cleared: boolean }).cleared = true;
    },
  });
  bridge.onLinkState((state) => states.push(state));
  const socket = (): FakeSocket => {
    const last = sockets.at(-1);
    if (last === undefined) throw new Error('no socket');
    return last;
  };
  const reconnectTimers = () => timers.filter((t) => t.ms <= 1_000 && !t.cleared);
  return { bridge, sockets, timers, states, socket, reconnectTimers };
}

describe('web bridge', () => {
  it('builds the bridge URL from the page location', () => {
    expect(defaultBridgeUrl({ protocol: 'http:', host: '127.0.0.1:7010' })).toBe('ws://127.0.0.1:7010/bridge');
    expect(defaultBridgeUrl({ protocol: 'https:', host: 'localhost:7010' })).toBe('wss://localhost:7010/bridge');
  });

  it('sends calls with increasing ids and settles them from the answers', async () => {
    const { bridge, socket } = setup();
    expect(bridge.linkState()).toBe('connecting');
    socket().open();
    expect(bridge.linkState()).toBe('open');
    const ready = bridge.invoke('companion:ready');
    const decide = bridge.invoke('companion:decide-consent', 'r1', 'approve');
    expect(socket().sent).toEqual([
      { id: 1, channel: 'companion:ready', args: [] },
      { id: 2, channel: 'companion:decide-consent', args: ['r1', 'approve'] },
    ]);
    socket().receive({ id: 2, ok: false, error: 'Unknown consent request' });
    socket().receive({ id: 1, ok: true, result: snapshot() });
    await expect(ready).resolves.toMatchObject({ settings: { consent_policy: 'prompt' } });
    await expect(decide).rejects.toThrow('Unknown consent request');
  });

  it('delivers pushes to subscribers until they unsubscribe; ignores junk', () => {
    const { bridge, socket } = setup();
    socket().open();
    const got: unknown[] = [];
    const off = bridge.on('companion:frames', (frames) => got.push(frames));
    socket().receive({ push: 'companion:frames', payload: [{ seq: 1 }] });
    // The pushes of one turn of the host's loop, as one message: delivered in order.
    socket().receive({ pushes: [{ push: 'companion:frames', payload: [{ seq: 2 }] }, { push: 'companion:frames', payload: [{ seq: 3 }] }] });
    socket().receive({ pushes: [{ push: 'companion:frames', payload: [{ seq: 9 }] }, { push: 'companion:evil', payload: 1 }] });
    socket().receive('not json');
    socket().receive({ push: 'companion:evil', payload: 1 });
    socket().receive({ id: 99, ok: true, result: null });
    socket().receive(null);
    off();
    socket().receive({ push: 'companion:frames', payload: [{ seq: 4 }] });
    expect(got).toEqual([[{ seq: 1 }], [{ seq: 2 }], [{ seq: 3 }]]);
  });

  it('fails calls at once while not connected, and refuses unknown channels', async () => {
    const { bridge, socket } = setup();
    await expect(bridge.invoke('companion:ready')).rejects.toThrow('Not connected');
    socket().open();
    await expect(bridge.invoke('companion:nope' as 'companion:ready')).rejects.toThrow('Unknown channel');
  });

  it('rejects pending calls on close, reports lost, reconnects with backoff, reports open again', async () => {
    const { bridge, socket, sockets, states, reconnectTimers } = setup();
    socket().open();
    const call = bridge.invoke('companion:logout');
    socket().drop();
    await expect(call).rejects.toThrow('lost');
    expect(bridge.linkState()).toBe('lost');
    expect(reconnectTimers().map((t) => t.ms)).toEqual([100]);

    // First retry fails too: the delay doubles.
    reconnectTimers()[0]?.callback();
    expect(sockets).toHaveLength(2);
    socket().drop();
    expect(reconnectTimers().at(-1)?.ms).toBe(200);
    reconnectTimers().at(-1)?.callback();
    socket().open();
    expect(states).toEqual(['open', 'lost', 'lost', 'open']);
    const again = bridge.invoke('companion:ready');
    expect(socket().sent).toEqual([{ id: 2, channel: 'companion:ready', args: [] }]);
    socket().receive({ id: 2, ok: true, result: snapshot() });
    await expect(again).resolves.toBeTruthy();
  });

  it('times out a call the host never answers', async () => {
    const { bridge, socket, timers } = setup();
    socket().open();
    const call = bridge.invoke('companion:ready');
    const timeout = timers.find((t) => t.ms === 5_000);
    timeout?.callback();
    await expect(call).rejects.toThrow('did not answer');
  });

  it('close() stops for good: pending calls fail, no reconnect', async () => {
    const { bridge, socket, sockets, reconnectTimers } = setup();
    socket().open();
    const call = bridge.invoke('companion:ready');
    bridge.close();
    await expect(call).rejects.toThrow('closed');
    await flush();
    expect(reconnectTimers()).toHaveLength(0);
    expect(sockets).toHaveLength(1);
  });
});

describe('backoffDelay', () => {
  it('doubles up to the cap, with ±20 % jitter', () => {
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffDelay(n, 500, 10_000, () => 0.5))).toEqual([500, 1_000, 2_000, 4_000, 8_000, 10_000]);
    expect(backoffDelay(1, 500, 10_000, () => 0)).toBe(400);
    expect(backoffDelay(1, 500, 10_000, () => 1)).toBe(600);
  });
});

describe('web bridge: compressed messages', () => {
  it('inflates a binary message and keeps the order of the messages around it', async () => {
    const { bridge, socket } = setup();
    socket().open();
    const seen: unknown[] = [];
    bridge.on('companion:outcomes', (payload) => seen.push(payload));
    const big = { push: 'companion:outcomes', payload: [{ note: 'x'.repeat(2000), n: 1 }] };
    const deflated = await new Response(new Blob([JSON.stringify(big)]).stream().pipeThrough(new CompressionStream('deflate-raw'))).arrayBuffer();
    // A binary message (an ArrayBuffer, as the page's socket delivers it), then a text one.
    socket().onmessage?.({ data: deflated });
    socket().receive({ push: 'companion:outcomes', payload: [{ n: 2 }] });
    expect(seen).toEqual([]); // the text one waits behind the one being inflated
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(seen).toEqual([big.payload, [{ n: 2 }]]);
    // Nothing waits any more: text is handled at once again.
    socket().receive({ push: 'companion:outcomes', payload: [{ n: 3 }] });
    expect(seen.at(-1)).toEqual([{ n: 3 }]);
  });
});
