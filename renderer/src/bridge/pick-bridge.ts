import type { CompanionBridge } from '../../../preload/src/contract';
import { createWebBridge, defaultBridgeUrl } from './web-bridge';

declare global {
  interface Window {
    /** Set by the Electron preload (contextBridge); absent in a plain browser. */
    readonly companion?: CompanionBridge;
  }
}

/**
 * The bridge to the host: the Electron preload's `window.companion` when present, else the
 * headless host's WebSocket bridge. There is no fallback to fake data: if neither host answers,
 * the UI says so.
 */
export function pickBridge(target: Pick<Window, 'companion' | 'location'> = window): CompanionBridge {
  const preload = target.companion;
  if (preload !== undefined && typeof preload.invoke === 'function' && typeof preload.on === 'function') return preload;
  return createWebBridge({ url: defaultBridgeUrl(target.location) });
}

