import type { InvokeChannel, InvokeChannels } from './actions.js';
import type { FrameView, OpenViewPush, RelayOutcomeView, SocialOutcomeView, Topic, TopicValues } from './views.js';

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
 * - `companion:social`: what became of the player's own join, as it happens.
 * - `companion:open-view`: a game asked Companion to show one of its views (the Authorized
 *   apps, a conversation, the "Link a device" screen): the window goes there as it comes; the
 *   desktop app brings its window to the front.
 * Frames and outcomes are what the inspector shows: they are pushed only while some window
 * shows it (`companion:watch-inspector`); otherwise they wait in the host, and the inspector
 * asks for them when it opens.
 * Pushes that arrive while `companion:ready` is in flight are older than its answer: the UI
 * drops them.
 */

export const CHANNEL_PREFIX = 'companion:';

/**
 * The web bridge's WebSocket subprotocol for compressed messages: a page that offers it gets
 * every server message of BRIDGE_DEFLATE_THRESHOLD or more as a binary message holding the
 * JSON text in raw DEFLATE (one message, one stream); smaller ones stay text. Pages decode it
 * with DecompressionStream('deflate-raw'), in order. The threshold is where compressing pays:
 * a topic round's message (about 4 KiB) cost the host more to compress (a fresh deflate state
 * each time) than its bytes cost to send over loopback; the inspector's frame batches (about
 * 30 KiB) shrink about tenfold (ui-bridge bench phase, 2026-11-25).
 */
export const BRIDGE_DEFLATE_PROTOCOL = 'companion.deflate-raw';
export const BRIDGE_DEFLATE_THRESHOLD = 8 * 1024;

/**
 * How long one `companion:watch-inspector` keeps frames and outcomes pushed, and how often an open inspector
 * calls it again. A window that closes or crashes stops the pushes within the lease.
 */
export const INSPECTOR_LEASE_MS = 10_000;
export const INSPECTOR_RENEW_MS = 4_000;

/**
 * How long one `companion:read-conversation` with `showing: true` keeps a conversation read as
 * messages arrive, and how often a UI that shows it (open, the page visible and focused) calls
 * it again. A window that closes or crashes stops reading it within the lease: messages then
 * count as unread again (and the desktop app announces them).
 */
export const READING_LEASE_MS = 10_000;
export const READING_RENEW_MS = 4_000;

/** One topic's new value. */
export type TopicPush = { readonly [T in Topic]: { readonly topic: T; readonly value: TopicValues[T] } }[Topic];

export interface PushChannels {
  'companion:topic': TopicPush;
  'companion:frames': readonly FrameView[];
  'companion:outcomes': readonly RelayOutcomeView[];
  /** What became of the player's own join (the UI resolves its "waiting" message). */
  'companion:social': SocialOutcomeView;
  /** A game asked Companion to show one of its views (OpenViewPush): the window goes there. */
  'companion:open-view': OpenViewPush;
}

export type PushChannel = keyof PushChannels;

const PUSH_NAMES: { readonly [C in PushChannel]: true } = { 'companion:topic': true, 'companion:frames': true, 'companion:outcomes': true, 'companion:social': true, 'companion:open-view': true };
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

/** One push on the web bridge's wire. */
export interface BridgeWirePush {
  readonly push: PushChannel;
  readonly payload: unknown;
}

/**
 * A reply, one push, or the pushes the host made in one turn of its event loop (a topic round
 * changes several topics), in order, as one message: one serialisation, one compression and
 * one send instead of one each.
 */
export type BridgeServerMessage =
  | { readonly id: number; readonly ok: true; readonly result: unknown }
  | { readonly id: number; readonly ok: false; readonly error: string }
  | BridgeWirePush
  | { readonly pushes: readonly BridgeWirePush[] };
