import type { InvokeChannel, InvokeChannels, PushMessage } from '../../../../preload/src/contract.js';

export type { PushMessage } from '../../../../preload/src/contract.js';

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
