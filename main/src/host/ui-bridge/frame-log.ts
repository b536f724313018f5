import { FRAME_RING_SIZE, type FrameView, type LintView } from '../../../../preload/src/contract.js';
import type { FrameTrace } from '../../../../rpc/src/index.js';
import { REDACTED, scrubSecrets } from '../../base/logger.js';
import { holdsSecret } from '../record/redact-secrets.js';

/** How many frames the snapshot carries (the contract's limit). */
export { FRAME_RING_SIZE };
/** A payload larger than this (as JSON) is replaced by a truncated preview, so the ring stays bounded. */
export const MAX_FRAME_PAYLOAD_CHARS = 16 * 1024;
/** Nesting kept in a payload; deeper values are replaced (scrubSecrets stops looking at depth 8). */
const MAX_DEPTH = 7;
const TOO_DEEP = '[too deep]';

/**
 * Keys redacted on top of scrubSecrets' (which already covers them): listed so the
 * inspector's promise does not rest on one regex. An AUTHENTICATE token, an AUTHORIZE code,
 * an activity's `secrets`, ACTIVITY_JOIN's `secret`. Numbers stay (an ERROR's `code: 4000`).
 */
const FRAME_SECRET_KEYS: ReadonlySet<string> = new Set(['access_token', 'refresh_token', 'code', 'secrets', 'secret']);

/** A copy of `value` at most MAX_DEPTH deep, with FRAME_SECRET_KEYS redacted. */
function bounded(value: unknown, depth: number): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (depth > MAX_DEPTH) return TOO_DEEP;
  if (Array.isArray(value)) return value.map((item) => bounded(item, depth + 1));
  if (Buffer.isBuffer(value)) return `[${value.length} bytes]`;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] = FRAME_SECRET_KEYS.has(key) && item !== null && item !== undefined && typeof item !== 'number' && typeof item !== 'boolean'
      ? REDACTED
      : bounded(item, depth + 1);
  }
  return out;
}

/**
 * A frame payload as the inspector may show it: secrets redacted at any depth (scrubSecrets
 * plus FRAME_SECRET_KEYS), depth bounded. The RPC `nonce` at the top level pairs a command
 * with its reply and is no secret, so it is kept there (scrubSecrets redacts every `nonce`).
 */
export function redactPayload(payload: unknown): unknown {
  if (typeof payload === 'string') return payload.length > MAX_FRAME_PAYLOAD_CHARS ? `${payload.slice(0, MAX_FRAME_PAYLOAD_CHARS)}…` : payload;
  const scrubbed = scrubSecrets(bounded(payload, 0));
  if (typeof payload === 'object' && payload !== null && !Array.isArray(payload) && typeof scrubbed === 'object' && scrubbed !== null) {
    const nonce = (payload as { nonce?: unknown }).nonce;
    if (typeof nonce === 'string' || typeof nonce === 'number' || nonce === null) return { ...(scrubbed as Record<string, unknown>), nonce };
  }
  return scrubbed;
}

function field(payload: unknown, key: 'cmd' | 'evt' | 'nonce'): string | null {
  if (typeof payload !== 'object' || payload === null) return null;
  const value = (payload as Record<string, unknown>)[key];
  if (typeof value === 'string') return value.slice(0, 256);
  return typeof value === 'number' ? String(value) : null;
}

/**
 * The payload as the inspector shows it. Most frames hold no secret and nest shallowly: those
 * are shown as they are, found by a walk of the keys (the recorder's holdsSecret, one level
 * short of the bound so the walk never decides differently from redactPayload) and sized by
 * the wire JSON the trace carries. Measured 2026-11-25 in the ui-bridge bench phase (a game at
 * 50 SET_ACTIVITY/s, one UI open): recording a frame took about 63 us by the copying path.
 */
function inspectorPayload(trace: FrameTrace): unknown {
  const payload = trace.payload;
  const json = trace.json;
  if (json !== undefined && json.byteLength <= MAX_FRAME_PAYLOAD_CHARS && typeof payload === 'object' && payload !== null && keptNonce(payload) && !holdsSecret(payload, MAX_DEPTH - 1)) {
    return payload;
  }
  return capped(redactPayload(payload));
}

/** Whether redactPayload keeps the top-level nonce as it is (holdsSecret never looks at it). */
function keptNonce(payload: object): boolean {
  if (Array.isArray(payload)) return true;
  const nonce = (payload as { nonce?: unknown }).nonce;
  return nonce === undefined || nonce === null || typeof nonce === 'string' || typeof nonce === 'number';
}

/** Keeps the payload's size bounded: an oversized one becomes a truncated JSON preview. */
function capped(payload: unknown): unknown {
  let text: string | undefined;
  try {
    text = JSON.stringify(payload);
  } catch {
    return '[not JSON]';
  }
  if (text === undefined || text.length <= MAX_FRAME_PAYLOAD_CHARS) return payload;
  return { truncated: true, length: text.length, preview: text.slice(0, 2048) };
}

/**
 * The inspector's frames: numbered, redacted, and the last FRAME_RING_SIZE kept for the
 * snapshot (a ring: memory is bounded whatever the traffic).
 */
/**
 * Lints an incoming SET_ACTIVITY's args (what the real client accepts but shows badly); the
 * inspector shows them beside the frame. Given the connection, for the app's asset names.
 */
export type FrameLinter = (connectionId: string, args: unknown) => readonly LintView[];

export class FrameLog {
  private readonly ring: (FrameView | undefined)[];
  private next = 0;
  private size = 0;
  private seq = 0;

  constructor(
    readonly capacity = FRAME_RING_SIZE,
    private readonly lint?: FrameLinter,
  ) {
    this.ring = new Array<FrameView | undefined>(capacity);
  }

  /** The seq of the newest frame (0 before the first). */
  get lastSeq(): number {
    return this.seq;
  }

  record(trace: FrameTrace): FrameView {
    this.seq += 1;
    const cmd = field(trace.payload, 'cmd');
    const lints =
      this.lint !== undefined && trace.direction === 'in' && cmd === 'SET_ACTIVITY'
        ? this.lint(trace.connectionId, (trace.payload as { args?: unknown }).args)
        : undefined;
    const view: FrameView = {
      seq: this.seq,
      connection_id: trace.connectionId,
      direction: trace.direction,
      opcode: trace.opcode,
      at: trace.at,
      cmd,
      evt: field(trace.payload, 'evt'),
      nonce: field(trace.payload, 'nonce'),
      payload: inspectorPayload(trace),
      ...(lints === undefined ? {} : { lints }),
    };
    this.ring[this.next] = view;
    this.next = (this.next + 1) % this.capacity;
    this.size = Math.min(this.size + 1, this.capacity);
    return view;
  }

  /** Oldest first. */
  list(): FrameView[] {
    const out: FrameView[] = [];
    const start = (this.next - this.size + this.capacity) % this.capacity;
    for (let i = 0; i < this.size; i++) {
      const view = this.ring[(start + i) % this.capacity];
      if (view !== undefined) out.push(view);
    }
    return out;
  }
}
