import { INVOKE_CHANNELS, type InvokeChannel } from '../../../../preload/src/contract.js';
import type { BridgeBackend } from '../../host/ui-bridge/bridge-port.js';
import { isInvokeChannel, parseChannelArgs } from '../../../../preload/src/contract/schemas.js';
import { isAppUrl } from './url-policy.js';

/**
 * The one wrapper every `ipcMain.handle` goes through: who is calling
 * (our origin, the main frame, a window we created), on which channel (the contract's), with
 * what (the channel's schema in the contract). Only then does the call reach the host. A refusal is logged
 * with its reason; the renderer only learns "refused".
 */

/** The parts of Electron's `IpcMainInvokeEvent` the guard reads. */
export interface InvokeEventLike {
  readonly sender: { readonly id: number };
  /** null when the frame navigated away or was destroyed before the call was handled. */
  readonly senderFrame: { readonly url: string; readonly parent: unknown } | null | undefined;
}

export interface GuardLogger {
  warn(fields: Record<string, unknown>, message: string): void;
}

export type GuardDecision =
  | { readonly ok: true; readonly channel: InvokeChannel; readonly args: readonly unknown[] }
  | { readonly ok: false; readonly reason: string };

export { isInvokeChannel };

/** The pure check: sender, channel, arguments. */
export function checkInvoke(
  event: InvokeEventLike,
  channel: unknown,
  args: readonly unknown[],
  isKnownSender: (webContentsId: number) => boolean,
): GuardDecision {
  const frame = event.senderFrame;
  if (frame === null || frame === undefined) return { ok: false, reason: 'no sender frame' };
  if (frame.parent !== null) return { ok: false, reason: 'sender is a sub-frame' };
  if (!isAppUrl(frame.url)) return { ok: false, reason: 'sender is not on the app origin' };
  if (!isKnownSender(event.sender.id)) return { ok: false, reason: 'sender is not a Companion window' };
  if (!isInvokeChannel(channel)) return { ok: false, reason: 'unknown channel' };
  const parsed = parseChannelArgs(channel, args);
  if (!parsed.ok) return { ok: false, reason: parsed.reason };
  return { ok: true, channel, args: parsed.args };
}

/** Scheme and host only: a query string could carry anything. */
function originOf(url: unknown): string | null {
  if (typeof url !== 'string') return null;
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}`;
  } catch {
    return 'unparseable';
  }
}

/** The error the renderer sees for any refusal (the reason stays in main's log). */
export class IpcRefused extends Error {
  override readonly name = 'IpcRefused';
  constructor() {
    super('refused');
  }
}

export interface GuardOptions {
  readonly backend: BridgeBackend;
  readonly isKnownSender: (webContentsId: number) => boolean;
  readonly logger: GuardLogger;
  /** Called for `companion:ready` before the snapshot is taken: the window's queued pushes flush. */
  readonly onReady?: (webContentsId: number) => void;
}

/** What `ipcMain.handle(channel, …)` gets, for one channel of the contract. */
export function createGuardedHandler(
  channel: string,
  options: GuardOptions,
): (event: InvokeEventLike, ...args: unknown[]) => Promise<unknown> {
  return async (event, ...args) => {
    const decision = checkInvoke(event, channel, args, options.isKnownSender);
    if (!decision.ok) {
      options.logger.warn(
        { channel: String(channel).slice(0, 80), reason: decision.reason, sender: event.sender.id, origin: originOf(event.senderFrame?.url) },
        'IPC call refused',
      );
      throw new IpcRefused();
    }
    if (decision.channel === 'companion:ready') options.onReady?.(event.sender.id);
    const invoke = options.backend.invoke as (c: InvokeChannel, a: readonly unknown[]) => Promise<unknown>;
    return invoke.call(options.backend, decision.channel, decision.args);
  };
}

/** Registers the guarded handler for every contract channel (and nothing else). */
export function installGuardedHandlers(
  ipcMain: { handle(channel: string, listener: (event: InvokeEventLike, ...args: unknown[]) => Promise<unknown>): void },
  options: GuardOptions,
): void {
  for (const channel of INVOKE_CHANNELS) ipcMain.handle(channel, createGuardedHandler(channel, options));
}
