import type * as Electron from 'electron';
import {
  CHANNEL_PREFIX,
  INVOKE_CHANNELS,
  PUSH_CHANNELS,
  type CompanionBridge,
  type InvokeChannel,
  type InvokeChannels,
  type PushChannel,
  type PushChannels,
} from './contract.js';

/**
 * The preload bridge: `window.companion`, exactly the contract's `CompanionBridge` (invoke
 * and on), restricted to the contract's channels. The page never sees `ipcRenderer` or an
 * `IpcRendererEvent`. Written against injected `contextBridge` / `ipcRenderer` objects so
 * tests use fakes; the last lines run only inside Electron's sandboxed preload.
 *
 * A sandboxed preload is one CommonJS script: `vite build --config preload/vite.config.ts`
 * bundles this file (with contract.ts) into `out/preload-bundle/index.cjs`, which the
 * windows load.
 */

/** The parts of Electron's `ipcRenderer` used. */
export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
  removeListener(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}

export interface ContextBridgeLike {
  exposeInMainWorld(apiKey: string, api: unknown): void;
}

export interface PreloadElectron {
  readonly contextBridge: ContextBridgeLike;
  readonly ipcRenderer: IpcRendererLike;
}

/** The global the renderer reads (`window.companion`). */
export const BRIDGE_GLOBAL = 'companion';

const INVOKE: ReadonlySet<string> = new Set(INVOKE_CHANNELS.filter((channel) => channel.startsWith(CHANNEL_PREFIX)));
const PUSH: ReadonlySet<string> = new Set(PUSH_CHANNELS.filter((channel) => channel.startsWith(CHANNEL_PREFIX)));

export class ChannelRefused extends Error {
  override readonly name = 'ChannelRefused';
  constructor(kind: 'invoke' | 'push', channel: unknown) {
    super(`companion: ${String(channel).slice(0, 64)} is not a contract ${kind} channel`);
  }
}

export function createPreloadApi(ipc: IpcRendererLike): CompanionBridge {
  const api: CompanionBridge = {
    invoke<C extends InvokeChannel>(channel: C, ...args: InvokeChannels[C]['args']): Promise<InvokeChannels[C]['result']> {
      if (typeof channel !== 'string' || !INVOKE.has(channel)) return Promise.reject(new ChannelRefused('invoke', channel));
      return ipc.invoke(channel, ...args) as Promise<InvokeChannels[C]['result']>;
    },
    on<C extends PushChannel>(channel: C, listener: (payload: PushChannels[C]) => void): () => void {
      if (typeof channel !== 'string' || !PUSH.has(channel)) throw new ChannelRefused('push', channel);
      if (typeof listener !== 'function') throw new TypeError('companion: the listener must be a function');
      // The IpcRendererEvent (sender, ports) stays here: the page gets the payload only.
      const wrapped = (_event: unknown, payload?: unknown): void => listener(payload as PushChannels[C]);
      ipc.on(channel, wrapped);
      let subscribed = true;
      return () => {
        if (!subscribed) return;
        subscribed = false;
        ipc.removeListener(channel, wrapped);
      };
    },
  };
  return Object.freeze(api);
}

/** What the preload does: expose the API, nothing else. */
export function installPreload(electron: PreloadElectron): void {
  electron.contextBridge.exposeInMainWorld(BRIDGE_GLOBAL, createPreloadApi(electron.ipcRenderer));
}

// Entry: inside Electron's preload (process.type 'renderer'), where the bundle has `require`.
// A sandboxed preload gets `require` and `process` as parameters of its wrapper function,
// not as globals: both are read as free variables (typeof guards them elsewhere). Typed with
// Electron's own renderer API, so the compiler checks that it still fits PreloadElectron.
declare const require: ((id: 'electron') => Pick<typeof Electron, 'contextBridge' | 'ipcRenderer'>) | undefined;
const processType = typeof process === 'object' && process !== null ? (process as { type?: unknown }).type : undefined;
if (processType === 'renderer' && typeof require === 'function') installPreload(require('electron'));
