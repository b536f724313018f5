import type { CompanionBridge } from '../../../preload/src/contract';

/**
 * The state of a bridge's link to the host. The Electron preload is always linked (its IPC
 * cannot drop), so it does not implement this; the web bridge's WebSocket can, and reports it.
 * `lost`: the socket closed; the bridge is reconnecting with backoff.
 */
export type LinkState = 'connecting' | 'open' | 'lost';

export interface BridgeLink {
  linkState(): LinkState;
  /** Returns the unsubscribe function. */
  onLinkState(listener: (state: LinkState, detail: { readonly attempt: number; readonly retryInMs: number | null }) => void): () => void;
}

export function hasLink(bridge: CompanionBridge): bridge is CompanionBridge & BridgeLink {
  const candidate = bridge as Partial<BridgeLink>;
  return typeof candidate.linkState === 'function' && typeof candidate.onLinkState === 'function';
}
