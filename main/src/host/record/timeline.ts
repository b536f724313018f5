import { opcodeName, type BodyRecord, type FrameRecord, type HeaderRecord } from '../../../../common/src/recording/recording-format.js';

/** Which records `record show` prints; every given criterion must hold. */
export interface TimelineFilter {
  readonly connection?: string;
  /** A frame's `cmd` (case-insensitive). */
  readonly cmd?: string;
  /** A frame's `evt`, or a gateway dispatch's type (case-insensitive). */
  readonly evt?: string;
  /** Relative time range in ms, inclusive. */
  readonly from?: number;
  readonly to?: number;
}

/** Longest compact payload on a line, unless `full`. */
export const PAYLOAD_PREVIEW_CHARS = 160;

function field(payload: unknown, key: string): unknown {
  return typeof payload === 'object' && payload !== null && !Array.isArray(payload) ? (payload as Record<string, unknown>)[key] : undefined;
}

function upperString(value: unknown): string | undefined {
  return typeof value === 'string' ? value.toUpperCase() : undefined;
}

function connectionOf(record: BodyRecord): string | null {
  switch (record.kind) {
    case 'frame':
    case 'open':
    case 'ready':
    case 'close':
    case 'relay':
    case 'lint':
    case 'detection':
      return record.connection;
    case 'consent':
      return record.connection;
    default:
      return null;
  }
}

export function matchesFilter(record: BodyRecord, filter: TimelineFilter): boolean {
  if (filter.from !== undefined && record.t < filter.from) return false;
  if (filter.to !== undefined && record.t > filter.to) return false;
  if (filter.connection !== undefined && connectionOf(record) !== filter.connection) return false;
  if (filter.cmd !== undefined) {
    if (record.kind !== 'frame' || upperString(field(record.payload, 'cmd')) !== filter.cmd.toUpperCase()) return false;
  }
  if (filter.evt !== undefined) {
    const wanted = filter.evt.toUpperCase();
    const evt = record.kind === 'frame' ? upperString(field(record.payload, 'evt')) : record.kind === 'gateway' ? upperString(record.type) : undefined;
    if (evt !== wanted) return false;
  }
  return true;
}

/** One line about the recording as a whole. */
export function describeHeader(header: HeaderRecord): string {
  return `Recording by Companion ${header.companion}, started ${header.started_at}, secrets ${header.redacted ? 'redacted' : 'kept'}`;
}

/** JSON on one line, shortened to `max` characters unless `max` is undefined. */
export function compactJson(value: unknown, max: number | undefined = PAYLOAD_PREVIEW_CHARS): string {
  let text: string;
  try {
    text = JSON.stringify(value, jsonReplacer) ?? 'undefined';
  } catch {
    text = '[not JSON]';
  }
  return max !== undefined && text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** Bytes (MessagePack bin) as a length; everything else as JSON does. */
export function jsonReplacer(_key: string, value: unknown): unknown {
  if (value instanceof Uint8Array) return `[${value.length} bytes]`;
  return value;
}

function time(t: number): string {
  return `${t.toFixed(1).padStart(10)} ms`;
}

/** FRAME: `CMD [EVT]`, then nonce, then the interesting part (args of a command, data of a reply or event). */
function describeFrame(record: FrameRecord, max: number | undefined): string {
  const arrow = record.direction === 'in' ? '→' : '←';
  const opcode = opcodeName(record.opcode);
  const payload = record.payload;
  if (record.opcode !== 1) return `${arrow} ${opcode.padEnd(9)} ${compactJson(payload, max)}`;
  const cmd = field(payload, 'cmd');
  const evt = field(payload, 'evt');
  const nonce = field(payload, 'nonce');
  const names = [typeof cmd === 'string' ? cmd : '?', ...(typeof evt === 'string' ? [evt] : [])].join(' ');
  const body = record.direction === 'in' ? field(payload, 'args') : field(payload, 'data');
  const nonceText = nonce === undefined || nonce === null ? '' : ` nonce=${String(nonce)}`;
  return `${arrow} ${names}${nonceText}${body === undefined ? '' : ` ${compactJson(body, max)}`}`;
}

/** A record as one timeline line: time, connection, direction (→ game to host, ← host to game, · host event), what happened. */
export function timelineLine(record: BodyRecord, options: { full?: boolean } = {}): string {
  const max = options.full === true ? undefined : PAYLOAD_PREVIEW_CHARS;
  const head = `${time(record.t)}  ${(connectionOf(record) ?? '-').padEnd(4)} `;
  switch (record.kind) {
    case 'frame':
      return head + describeFrame(record, max);
    case 'open':
      return `${head}· open (${record.transport})${record.existing === true ? ` already open when recording started, client ${record.client_id ?? 'unknown'}` : ''}`;
    case 'ready':
      return `${head}· ready, client ${record.client_id ?? 'unknown'}`;
    case 'close':
      return `${head}· closed: ${record.reason}${record.code === null ? '' : ` (${record.code})`}, client ${record.client_id ?? 'unknown'}${record.pid === null ? '' : `, pid ${record.pid}`}`;
    case 'consent':
      return `${head}· consent ${record.outcome} (${record.by}) for ${record.application_id}: ${record.scopes.join(' ')}`;
    case 'gateway':
      return `${head}· gateway ${record.type} ${compactJson(record.data, max)}`;
    case 'gap':
      return `${head}· ${record.dropped} records lost here (the disk did not keep up)`;
    case 'relay':
      return `${head}· relay ${compactJson(record.outcome, max)}`;
    case 'lint':
      return `${head}· lint${record.nonce === null ? '' : ` nonce=${record.nonce}`} ${record.lints.map((lint) => `${lint.field}: ${lint.code}`).join(', ')}`;
    case 'detection':
      return `${head}· detection ${record.event}: ${record.name} (${record.application_id}) from ${record.path || record.executable}, pid ${record.pid}`;
  }
}
