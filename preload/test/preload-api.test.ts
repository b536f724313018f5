import { describe, expect, it, vi } from 'vitest';
import { INVOKE_CHANNELS, PUSH_CHANNELS, type CompanionBridge } from '../src/contract.js';
import { BRIDGE_GLOBAL, ChannelRefused, createPreloadApi, installPreload, type IpcRendererLike } from '../src/index.js';

type Handler = (event: unknown, ...args: unknown[]) => void;

function fakeIpc() {
  const listeners = new Map<string, Set<Handler>>();
  const invoked: [string, unknown[]][] = [];
  const ipc: IpcRendererLike & { emit(channel: string, payload: unknown): void; count(channel: string): number; invoked: typeof invoked } = {
    invoked,
    invoke: async (channel, ...args) => {
      invoked.push([channel, args]);
      return { echoed: channel };
    },
    on: (channel, listener) => {
      if (!listeners.has(channel)) listeners.set(channel, new Set());
      listeners.get(channel)?.add(listener);
      return ipc;
    },
    removeListener: (channel, listener) => {
      listeners.get(channel)?.delete(listener);
      return ipc;
    },
    emit: (channel, payload) => {
      for (const listener of listeners.get(channel) ?? []) listener({ sender: 'IPC-RENDERER-EVENT', ports: [] }, payload);
    },
    count: (channel) => listeners.get(channel)?.size ?? 0,
  };
  return ipc;
}

describe('the preload bridge', () => {
  it('exposes exactly the contract (invoke, on) as window.companion', () => {
    const exposed: [string, unknown][] = [];
    installPreload({ contextBridge: { exposeInMainWorld: (key, api) => void exposed.push([key, api]) }, ipcRenderer: fakeIpc() });
    expect(exposed).toHaveLength(1);
    const [key, api] = exposed[0] as [string, CompanionBridge];
    expect(key).toBe(BRIDGE_GLOBAL);
    expect(key).toBe('companion');
    const contractKeys: (keyof CompanionBridge)[] = ['invoke', 'on'];
    expect(Object.keys(api).sort()).toEqual([...contractKeys].sort());
    expect(Object.isFrozen(api)).toBe(true);
    expect(Object.values(api).every((value) => typeof value === 'function')).toBe(true);
  });

  it('passes every contract invoke channel through with its arguments', async () => {
    const ipc = fakeIpc();
    const api = createPreloadApi(ipc);
    for (const channel of INVOKE_CHANNELS) {
      await expect((api.invoke as (c: string, ...a: unknown[]) => Promise<unknown>)(channel, 'a', 1)).resolves.toEqual({ echoed: channel });
    }
    expect(ipc.invoked.map(([channel]) => channel)).toEqual([...INVOKE_CHANNELS]);
    expect(ipc.invoked[0]?.[1]).toEqual(['a', 1]);
  });

  it('refuses channels outside the contract without touching ipcRenderer', async () => {
    const ipc = fakeIpc();
    const api = createPreloadApi(ipc);
    const invoke = api.invoke as (c: unknown, ...a: unknown[]) => Promise<unknown>;
    const on = api.on as (c: unknown, l: unknown) => () => void;
    for (const channel of ['companion:eval', 'ELECTRON_BROWSER_REQUIRE', 'companion:snapshot', '', null, 42, '__proto__']) {
      await expect(invoke(channel)).rejects.toBeInstanceOf(ChannelRefused);
    }
    for (const channel of ['companion:ready', 'ipc-message', 'companion:frames-all', undefined]) {
      expect(() => on(channel, () => undefined)).toThrow(ChannelRefused);
    }
    expect(() => on('companion:topic', 'not a function')).toThrow(TypeError);
    expect(ipc.invoked).toEqual([]);
    expect(ipc.count('ipc-message')).toBe(0);
  });

  it('delivers push payloads without the IpcRendererEvent, and unsubscribes', () => {
    const ipc = fakeIpc();
    const api = createPreloadApi(ipc);
    for (const channel of PUSH_CHANNELS) {
      const listener = vi.fn();
      const unsubscribe = api.on(channel, listener);
      expect(ipc.count(channel)).toBe(1);
      ipc.emit(channel, { n: 1 });
      expect(listener.mock.calls).toEqual([[{ n: 1 }]]);
      unsubscribe();
      unsubscribe();
      expect(ipc.count(channel)).toBe(0);
      ipc.emit(channel, { n: 2 });
      expect(listener).toHaveBeenCalledTimes(1);
    }
  });

  it('keeps two subscriptions to one channel apart', () => {
    const ipc = fakeIpc();
    const api = createPreloadApi(ipc);
    const first = vi.fn();
    const second = vi.fn();
    const offFirst = api.on('companion:frames', first);
    api.on('companion:frames', second);
    offFirst();
    ipc.emit('companion:frames', []);
    expect(first).not.toHaveBeenCalled();
    expect(second).toHaveBeenCalledWith([]);
  });
});
