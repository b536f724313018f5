import type { RelayOutcome } from '../presence/relay-outcomes.js';

/*
 * A presence relay outcome as the inspector's ring keeps it after a connection's opening: its
 * fields in a few bytes, not its JSON. Every SET_ACTIVITY gets an outcome row (mostly `held`
 * while the platform's rate limit holds a game that updates often), so this is on the hot path:
 * made as JSON it was a walk for secrets (an outcome has none: ids, numbers and words), a
 * JSON.stringify and a UTF-8 copy. Measured 2026-11-28 (Node 24.21.0, 2 cores, unpinned): a
 * script over the built FrameLog, 300,000 outcomes over 100 connections, 0.41-0.50 us a row so
 * against 1.25-1.62 us as JSON (0.08 of each is making the outcome); `companion serve` at 100
 * clients sending SET_ACTIVITY, three 5 s runs beside the build before: user CPU per request
 * 8.2-9.6 us against 9.2-10.2, requests served 8-13 % more.
 *
 * Layout (little-endian): kind code (u8), flags (u8: cause disconnect, cleared, retry_after_ms
 * null), update, at, a number the kind has (until or retry_after_ms), another (count) as
 * float64s, then the kind's strings, each as a u32 byte length and its UTF-8: application_id,
 * then by_application_id and by_connection_id (shadowed), rule (hidden) or reason (rejected).
 */

const KINDS = ['sent', 'coalesced', 'held', 'shadowed', 'hidden', 'rejected', 'unchanged'] as const;
const KIND_CODES: ReadonlyMap<string, number> = new Map(KINDS.map((kind, code) => [kind, code]));
const DISCONNECT = 1;
const CLEARED = 2;
const NO_RETRY_AFTER = 4;
/** Kind code, flags and four float64s. */
const FIXED_BYTES = 2 + 4 * 8;

/** What an outcome's kind adds to the common fields, as the row keeps it. */
interface KindFields {
  first: number;
  second: number;
  noRetryAfter: boolean;
  strings: string[];
}

/** Fills `into` with the kind's numbers and strings; false when one is not of its type. */
function kindFields(outcome: RelayOutcome, into: KindFields): boolean {
  into.first = 0;
  into.second = 0;
  into.noRetryAfter = false;
  into.strings.length = 0;
  switch (outcome.kind) {
    case 'coalesced':
      into.second = outcome.count;
      return typeof outcome.count === 'number';
    case 'held':
      into.first = outcome.until;
      into.second = outcome.count;
      return typeof outcome.until === 'number' && typeof outcome.count === 'number';
    case 'shadowed':
      into.strings.push(outcome.by_application_id, outcome.by_connection_id);
      return typeof outcome.by_application_id === 'string' && typeof outcome.by_connection_id === 'string';
    case 'hidden':
      into.strings.push(outcome.rule);
      return outcome.rule === 'hide-all' || outcome.rule === 'app';
    case 'rejected':
      into.first = outcome.retry_after_ms ?? 0;
      into.noRetryAfter = outcome.retry_after_ms === null;
      into.strings.push(outcome.reason);
      return typeof outcome.reason === 'string' && (outcome.retry_after_ms === null || typeof outcome.retry_after_ms === 'number');
    default:
      return true;
  }
}

/** Writes outcomes into one buffer it reuses: each encoding is valid until the next. */
export class RelayRowWriter {
  private scratch = Buffer.allocUnsafe(256);
  /** Where the next byte of the encoding goes. */
  private offset = 0;
  private readonly fields: KindFields = { first: 0, second: 0, noRetryAfter: false, strings: [] };

  /**
   * The outcome's bytes (a view of the reused buffer: copy them before the next call), or
   * undefined when a field is not of the type RelayOutcome says (it is kept as JSON then).
   */
  encode(outcome: RelayOutcome): Uint8Array | undefined {
    const code = KIND_CODES.get(outcome.kind);
    const { update, at, cleared, cause, application_id: applicationId } = outcome;
    if (code === undefined || typeof update !== 'number' || typeof at !== 'number' || typeof cleared !== 'boolean' || typeof applicationId !== 'string') return undefined;
    if ((cause !== 'command' && cause !== 'disconnect') || !kindFields(outcome, this.fields)) return undefined;
    const { first, second, noRetryAfter, strings } = this.fields;
    // What JSON cannot hold (NaN, infinities) it would show as null: kept as JSON then.
    if (!Number.isFinite(update) || !Number.isFinite(at) || !Number.isFinite(first) || !Number.isFinite(second)) return undefined;
    this.reserve(applicationId, strings);
    const buffer = this.scratch;
    buffer[0] = code;
    buffer[1] = (cause === 'disconnect' ? DISCONNECT : 0) | (cleared ? CLEARED : 0) | (noRetryAfter ? NO_RETRY_AFTER : 0);
    // `+ 0` makes -0 the 0 that JSON would have shown.
    buffer.writeDoubleLE(update + 0, 2);
    buffer.writeDoubleLE(at + 0, 10);
    buffer.writeDoubleLE(first + 0, 18);
    buffer.writeDoubleLE(second + 0, 26);
    this.offset = FIXED_BYTES;
    this.string(applicationId);
    for (const text of strings) this.string(text);
    return buffer.subarray(0, this.offset);
  }

  /** Room for the fixed fields and every string at 3 bytes a UTF-16 unit (UTF-8's most) with its length. */
  private reserve(applicationId: string, strings: readonly string[]): void {
    let most = FIXED_BYTES + 4 + 3 * applicationId.length;
    for (const text of strings) most += 4 + 3 * text.length;
    if (most > this.scratch.length) this.scratch = Buffer.allocUnsafe(Math.max(most, 2 * this.scratch.length));
  }

  private string(text: string): void {
    const length = this.scratch.write(text, this.offset + 4, 'utf8');
    this.scratch.writeUInt32LE(length, this.offset);
    this.offset += 4 + length;
  }
}

/** Reads strings one after another from an encoded row. */
class StringReader {
  private offset = FIXED_BYTES;

  constructor(private readonly bytes: Buffer) {}

  next(): string {
    const length = this.bytes.readUInt32LE(this.offset);
    const text = this.bytes.toString('utf8', this.offset + 4, this.offset + 4 + length);
    this.offset += 4 + length;
    return text;
  }
}

/** The outcome an encoded row holds, its fields in the order the relay makes them (so its JSON reads the same). */
export function decodeRelayRow(bytes: Buffer, connectionId: string): RelayOutcome {
  const kind = KINDS[bytes[0] as number] ?? 'unchanged';
  const flags = bytes[1] as number;
  const strings = new StringReader(bytes);
  const common = {
    connection_id: connectionId,
    application_id: strings.next(),
    update: bytes.readDoubleLE(2),
    cause: flags & DISCONNECT ? ('disconnect' as const) : ('command' as const),
    cleared: (flags & CLEARED) !== 0,
    at: bytes.readDoubleLE(10),
  };
  const first = bytes.readDoubleLE(18);
  const second = bytes.readDoubleLE(26);
  switch (kind) {
    case 'coalesced':
      return { ...common, kind, count: second };
    case 'held':
      return { ...common, kind, until: first, count: second };
    case 'shadowed':
      return { ...common, kind, by_application_id: strings.next(), by_connection_id: strings.next() };
    case 'hidden':
      return { ...common, kind, rule: strings.next() === 'app' ? 'app' : 'hide-all' };
    case 'rejected':
      return { ...common, kind, reason: strings.next(), retry_after_ms: flags & NO_RETRY_AFTER ? null : first };
    default:
      return { ...common, kind };
  }
}
