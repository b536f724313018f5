import type { InvokeChannel, InvokeChannels, PushChannel, PushChannels } from '../../../../preload/src/contract.js';

/** One push of the contract, as a tagged union (channel and its payload together). */
export type PushMessage = { readonly [C in PushChannel]: { readonly channel: C; readonly payload: PushChannels[C] } }[PushChannel];

/**
 * What the Electron shell needs of the host: the contract's calls (already validated by the
 * guard) and its pushes. The headless host's WebSocket bridge implements the same contract;
 * one module maps it onto the host for both: `createBridgeBackend` in
 * main/src/host/ui-bridge/bridge-backend.ts (`Host.control.backend`, consent settings, frames).
 */
export interface BridgeBackend {
  invoke<C extends InvokeChannel>(channel: C, args: InvokeChannels[C]['args']): Promise<InvokeChannels[C]['result']>;
  /** Every push for the UI, in order. Returns the unsubscribe function. */
  subscribe(listener: (message: PushMessage) => void): () => void;
}
