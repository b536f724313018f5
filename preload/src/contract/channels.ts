import type { InvokeChannel, InvokeChannels } from './actions.js';
import type { FrameView, RelayOutcomeView, Topic, TopicValues } from './views.js';

/**
 * What the host sends on its own (`push`), the same messages over Electron IPC and over the
 * headless host's WebSocket. A UI first asks `companion:ready` (the whole snapshot, with the
 * inspector's ring), then gets only changes:
 * - `companion:topic`: one part of the state, whole, when it changed (at most one per topic per
 *   100 ms); the UI replaces that part.
 * - `companion:frames`: inspector frames newer than anything this UI has, in `seq` order; the
 *   UI appends them (each frame reaches a UI once).
 * - `companion:outcomes`: relay outcomes newer than anything this UI has; the UI appends them
 *   to `presence.recent_outcomes` (keeping RECENT_OUTCOMES).
 * Pushes that arrive while `companion:ready` is in flight are older than its answer: the UI
 * drops them.
 */

export const CHANNEL_PREFIX = 'companion:';

/**
 * The web bridge's WebSocket subprotocol for compressed messages: a page that offers it gets
 * every server message of 1 KiB or more as a binary message holding the JSON text in raw
 * DEFLATE (one message, one stream); smaller ones stay text. Pages decode it with
 * DecompressionStream('deflate-raw'), in order.
 */
export const BRIDGE_DEFLATE_PROTOCOL = 'companion.deflate-raw';
export const BRIDGE_DEFLATE_THRESHOLD = 1024;

/** One topic's new value. */
export type TopicPush = { readonly [T in Topic]: { readonly topic: T; readonly value: TopicValues[T] } }[Topic];

export interface PushChannels {
  'companion:topic': TopicPush;
  'companion:frames': readonly FrameView[];
  'companion:outcomes': readonly RelayOutcomeView[];
}

export type PushChannel = keyof PushChannels;

const PUSH_NAMES: { readonly [C in PushChannel]: true } = { 'companion:topic': true, 'companion:frames': true, 'companion:outcomes': true };
export const PUSH_CHANNELS = Object.keys(PUSH_NAMES) as readonly PushChannel[];

/** One push as a tagged union (channel and its payload together). */
export type PushMessage = { readonly [C in PushChannel]: { readonly channel: C; readonly payload: PushChannels[C] } }[PushChannel];

/** What the renderer gets: the preload's `window.companion`, or the web bridge. */
export interface CompanionBridge {
  invoke<C extends InvokeChannel>(channel: C, ...args: InvokeChannels[C]['args']): Promise<InvokeChannels[C]['result']>;
  /** Returns the unsubscribe function. */
  on<C extends PushChannel>(channel: C, listener: (payload: PushChannels[C]) => void): () => void;
}

// ---- the web bridge's wire (headless hosts): JSON messages over one WebSocket

export type BridgeClientMessage = { readonly id: number; readonly channel: InvokeChannel; readonly args: readonly unknown[] };

export type BridgeServerMessage =
  | { readonly id: number; readonly ok: true; readonly result: unknown }
  | { readonly id: number; readonly ok: false; readonly error: string }
  | { readonly push: PushChannel; readonly payload: unknown };
