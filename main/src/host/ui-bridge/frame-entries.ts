/**
 * The inspector's rows as the host keeps them (FrameEntry, EventEntry: redacted JSON), and how a
 * row's payload is shown (redactPayload). The rings that hold them: frame-log.ts.
 */
import type { FrameView, LintView } from '../../../../preload/src/contract.js';
import type { FrameTrace } from '../../../../rpc/src/index.js';
import { REDACTED, scrubSecrets } from '../../base/logger.js';
import { holdsSecret, redactSecrets } from '../record/redact-secrets.js';
import type { RingEntry } from './connection-ring.js';
import { HOST_EVENT_OPCODE, hostEventRow } from '../../../../common/src/recording/host-event-row.js';

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

export function field(payload: unknown, key: 'cmd' | 'evt' | 'nonce'): string | null {
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
export interface PendingLint {
  readonly linter: FrameLinter;
  readonly applicationId: string;
}

/** What keeping an entry costs besides its JSON (the entry and its fields), for the byte bounds. */
const ENTRY_OVERHEAD_BYTES = 96;

/**
 * A payload as the host keeps it: JSON text, with the recording's redaction applied
 * (redactSecrets: tokens, codes, secrets never stay in memory), the wire JSON itself when there
 * was nothing to redact. Text costs about its length, where a parsed payload costs several times that.
 */
export function keptJson(payload: unknown, json: Uint8Array | undefined): string {
  try {
    if (!holdsSecret(payload)) return json === undefined ? (JSON.stringify(payload) ?? 'null') : Buffer.from(json.buffer, json.byteOffset, json.byteLength).toString('utf8');
    return JSON.stringify(redactSecrets(payload)) ?? 'null';
  } catch {
    return '"[not JSON]"';
  }
}

/**
 * The same as keptJson, without making a string when there is nothing to redact: the wire JSON
 * itself (a view of a reused buffer: the ring copies it at once).
 */
export function keptWire(payload: unknown, json: Uint8Array | undefined): Uint8Array | string {
  if (json === undefined) return keptJson(payload, undefined);
  try {
    return holdsSecret(payload) ? keptJson(payload, json) : json;
  } catch {
    return '"[not JSON]"';
  }
}

function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return '[not JSON]';
  }
}

/**
 * One recorded frame, kept as redacted JSON. Its view (redacted payload, cmd, evt, nonce) and its
 * lints (FrameLinter) are made when a UI asks for it: most frames are never looked at (see
 * UiBridge.watchInspector).
 */
/** What the inspector's rings hold: a frame or a host event, numbered, its view made when first asked for. */
export interface LogEntry extends RingEntry {
  readonly connectionId: string;
  /** Its view, or undefined once it was dropped (a row kept off the heap is read from its ring). */
  viewIfKept(): FrameView | undefined;
}

export class FrameEntry implements LogEntry {
  readonly bytes: number;
  readonly connectionId: string;

  constructor(
    readonly seq: number,
    private readonly trace: Omit<FrameTrace, 'json' | 'payload'>,
    /** The payload as kept (keptJson). */
    private readonly json: string,
    private readonly lint: PendingLint | undefined,
  ) {
    this.bytes = json.length + ENTRY_OVERHEAD_BYTES;
    this.connectionId = trace.connectionId;
  }

  /**
   * Made anew each time, not kept: a view holds the parsed payload (several times its text), and
   * a UI asks for a row once (a push, or the snapshot when it opens). Keeping every view made
   * cost a host with the inspector open about 40 MiB more than one without (the inspector-ring
   * bench phase, 2026-11-28).
   */
  viewIfKept(): FrameView {
    return this.view();
  }

  view(): FrameView {
    return frameView(this.seq, this.trace, this.json, this.lint);
  }
}

/** A frame's view from what is kept of it (FrameEntry, and the rows kept off the heap: row-store.ts). */
export function frameView(seq: number, trace: Omit<FrameTrace, 'json' | 'payload'>, json: string, lint: PendingLint | undefined): FrameView {
  const payload = parsedJson(json);
  const lints = lint?.linter.lint(lint.applicationId, (payload as { args?: unknown } | null)?.args, trace.at);
  return {
    seq,
    connection_id: trace.connectionId,
    direction: trace.direction,
    opcode: trace.opcode,
    at: trace.at,
    cmd: field(payload, 'cmd'),
    evt: field(payload, 'evt'),
    nonce: field(payload, 'nonce'),
    payload: inspectorPayload(payload, Buffer.byteLength(json)),
    ...(lints === undefined ? {} : { lints }),
  };
}

/**
 * A host-side event in the rings (a recording's record kinds, and the relay's outcomes: see
 * common/src/recording/host-event-row.ts), listed among the frames. Its payload is redacted
 * like a frame's: a gateway dispatch may carry what must not be shown.
 */
export class EventEntry implements LogEntry {
  readonly bytes: number;
  readonly connectionId: string;
  /** The record as kept (keptJson). */
  readonly keptJson: string;

  constructor(
    readonly seq: number,
    private readonly at: number,
    record: Readonly<Record<string, unknown>>,
  ) {
    this.keptJson = keptJson(record, undefined);
    this.bytes = this.keptJson.length + ENTRY_OVERHEAD_BYTES;
    this.connectionId = hostEventRow(record).connection_id;
  }

  /** Made anew each time (FrameEntry.view says why). */
  viewIfKept(): FrameView {
    return this.view();
  }

  view(): FrameView {
    return eventView(this.seq, this.at, this.keptJson);
  }
}

/** A host event's view from what is kept of it (its redacted record's JSON). */
export function eventView(seq: number, at: number, json: string): FrameView {
  return eventRecordView(seq, at, parsedJson(json) as Readonly<Record<string, unknown>>);
}

/** A host event's view from its record (as parsed from what is kept, or decoded: relay-row.ts). */
export function eventRecordView(seq: number, at: number, record: Readonly<Record<string, unknown>>): FrameView {
  const row = hostEventRow(record);
  return {
    seq,
    connection_id: row.connection_id,
    direction: 'host',
    opcode: HOST_EVENT_OPCODE,
    at,
    cmd: row.cmd,
    evt: row.evt,
    nonce: null,
    payload: capped(redactPayload(row.payload)),
  };
}
