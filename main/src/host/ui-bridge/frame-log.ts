import { FRAME_RING_SIZE, type FrameView, type LintView } from '../../../../preload/src/contract.js';
import type { FrameTrace } from '../../../../rpc/src/index.js';
import { REDACTED, scrubSecrets } from '../../base/logger.js';
import { holdsSecret } from '../record/redact-secrets.js';
import { HOST_EVENT_OPCODE, hostEventRow } from '../../../../common/src/recording/host-event-row.js';

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
 * the wire JSON the trace carried. Measured 2026-11-25 in the ui-bridge bench phase (a game at
 * 50 SET_ACTIVITY/s, one UI open): recording a frame took about 63 us by the copying path.
 */
function inspectorPayload(payload: unknown, jsonBytes: number | undefined): unknown {
  if (jsonBytes !== undefined && jsonBytes <= MAX_FRAME_PAYLOAD_CHARS && typeof payload === 'object' && payload !== null && keptNonce(payload) && !holdsSecret(payload, MAX_DEPTH - 1)) {
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
 * Lints an incoming SET_ACTIVITY's args (what the real client accepts but shows badly); the
 * inspector shows them beside the frame. In two steps: the connection's application is taken
 * when the frame is recorded (the game may have left when the frame is shown), the lint runs
 * when the frame is first shown, as of the frame's time. Measured 2026-11-25 with perf in the
 * ui-bridge bench phase: recording every frame with its lints cost the host about 1.7 ms of CPU
 * a second with a UI open on another screen, most of it in the lint's checks.
 */
export interface FrameLinter {
  /** The connection's application id ('' when unknown). */
  applicationOf(connectionId: string): string;
  lint(applicationId: string, args: unknown, at: number): readonly LintView[];
}

/** What a recorded SET_ACTIVITY needs to be linted later. */
interface PendingLint {
  readonly linter: FrameLinter;
  readonly applicationId: string;
}

/**
 * One recorded frame. Its view (redacted payload, cmd, evt, nonce) is made when a UI first
 * asks for it: frames are recorded whenever a UI is open, but most are never looked at while
 * no window shows the inspector (see UiBridge.watchInspector). So are its lints (FrameLinter).
 */
/** What the inspector's ring holds: a frame or a host event, numbered, its view made when first asked for. */
export interface LogEntry {
  readonly seq: number;
  view(): FrameView;
}

export class FrameEntry implements LogEntry {
  private made: FrameView | undefined;

  constructor(
    readonly seq: number,
    private readonly trace: Omit<FrameTrace, 'json'>,
    /** The wire JSON's length (the trace's bytes are reused after the event: not kept). */
    private readonly jsonBytes: number | undefined,
    private readonly lint: PendingLint | undefined,
  ) {}

  view(): FrameView {
    this.made ??= this.make();
    return this.made;
  }

  private make(): FrameView {
    const lints = this.lint?.linter.lint(this.lint.applicationId, (this.trace.payload as { args?: unknown }).args, this.trace.at);
    return {
      seq: this.seq,
      connection_id: this.trace.connectionId,
      direction: this.trace.direction,
      opcode: this.trace.opcode,
      at: this.trace.at,
      cmd: field(this.trace.payload, 'cmd'),
      evt: field(this.trace.payload, 'evt'),
      nonce: field(this.trace.payload, 'nonce'),
      payload: inspectorPayload(this.trace.payload, this.jsonBytes),
      ...(lints === undefined ? {} : { lints }),
    };
  }
}

/**
 * A host-side event in the ring (a recording's record kinds, and the relay's outcomes: see
 * common/src/recording/host-event-row.ts), listed among the frames. Its payload is redacted
 * like a frame's: a gateway dispatch may carry what must not be shown.
 */
export class EventEntry implements LogEntry {
  private made: FrameView | undefined;

  constructor(
    readonly seq: number,
    private readonly at: number,
    private readonly record: Readonly<Record<string, unknown>>,
  ) {}

  view(): FrameView {
    if (this.made === undefined) {
      const row = hostEventRow(this.record);
      this.made = {
        seq: this.seq,
        connection_id: row.connection_id,
        direction: 'host',
        opcode: HOST_EVENT_OPCODE,
        at: this.at,
        cmd: row.cmd,
        evt: row.evt,
        nonce: null,
        payload: capped(redactPayload(row.payload)),
      };
    }
    return this.made;
  }
}

/**
 * The inspector's rows: numbered, and the last FRAME_RING_SIZE kept (a ring: memory is
 * bounded whatever the traffic). Views are made on demand and kept (FrameEntry, EventEntry).
 */
export class FrameLog {
  private readonly ring: (LogEntry | undefined)[];
  private next = 0;
  private size = 0;
  private seq = 0;

  constructor(
    readonly capacity = FRAME_RING_SIZE,
    private readonly lint?: FrameLinter,
  ) {
    this.ring = new Array<LogEntry | undefined>(capacity);
  }

  /** The seq of the newest frame (0 before the first). */
  get lastSeq(): number {
    return this.seq;
  }

  record(trace: FrameTrace): FrameEntry {
    this.seq += 1;
    const lint =
      this.lint !== undefined && trace.direction === 'in' && field(trace.payload, 'cmd') === 'SET_ACTIVITY'
        ? { linter: this.lint, applicationId: this.lint.applicationOf(trace.connectionId) }
        : undefined;
    const { connectionId, direction, opcode, payload, at } = trace;
    return this.keep(new FrameEntry(this.seq, { connectionId, direction, opcode, payload, at }, trace.json?.byteLength, lint));
  }

  /** A host event (`kind` and its fields, as a recording's record) at `at` (epoch ms). */
  recordEvent(record: Readonly<Record<string, unknown>>, at: number): LogEntry {
    this.seq += 1;
    return this.keep(new EventEntry(this.seq, at, record));
  }

  private keep<E extends LogEntry>(entry: E): E {
    this.ring[this.next] = entry;
    this.next = (this.next + 1) % this.capacity;
    this.size = Math.min(this.size + 1, this.capacity);
    return entry;
  }

  /** Oldest first. */
  list(): FrameView[] {
    return this.since(0);
  }

  /** The frames still in the ring whose seq is above `seq`, oldest first. */
  since(seq: number): FrameView[] {
    const out: FrameView[] = [];
    const start = (this.next - this.size + this.capacity) % this.capacity;
    for (let i = 0; i < this.size; i++) {
      const entry = this.ring[(start + i) % this.capacity];
      if (entry !== undefined && entry.seq > seq) out.push(entry.view());
    }
    return out;
  }
}
