/**
 * How the inspector lists a host-side event (a recording's non-frame record, or the same event
 * live): a row among the frames, in time order, marked as the host's. One mapping for the live
 * inspector (main) and an opened recording (renderer), so both list the same rows.
 */

/** The opcode a host event's row carries (no frame has it: the protocol's opcodes are 0-4). */
export const HOST_EVENT_OPCODE = -1;

/** The row's fields besides its number and time. */
export interface HostEventRow {
  /** The connection it concerns; 'host' for the host's own (gateway dispatches, dropped records). */
  readonly connection_id: string;
  /** What happened: open, ready, close, consent, relay, gateway, gap. */
  readonly cmd: string;
  /** In a few words: the close code and reason, the consent outcome and by whom, the dispatch's type. */
  readonly evt: string | null;
  readonly payload: unknown;
}

type Fields = Readonly<Record<string, unknown>>;

function words(value: unknown, max = 120): string | null {
  if (typeof value === 'string') return value.slice(0, max);
  return typeof value === 'number' ? String(value) : null;
}

/** What the record says besides its kind, time and connection (the row's payload). */
function details(record: Fields): Fields {
  const { kind: _kind, t: _t, connection: _connection, ...rest } = record;
  return rest;
}

function summary(record: Fields): string | null {
  switch (record['kind']) {
    case 'open':
      return `${words(record['transport']) ?? '?'}${record['existing'] === true ? ' (open before the recording)' : ''}`;
    case 'ready':
      return words(record['client_id']);
    case 'close': {
      const code = words(record['code']);
      return `${code === null ? '' : `${code} `}${words(record['reason']) ?? ''}`.trim() || null;
    }
    case 'consent':
      return `${words(record['outcome']) ?? '?'} (${words(record['by']) ?? '?'})`;
    case 'relay': {
      // The presence relay's outcome of a game update ({kind: 'relay', connection, outcome}).
      const outcome = record['outcome'];
      return typeof outcome === 'object' && outcome !== null ? words((outcome as Fields)['kind']) : null;
    }
    case 'gateway':
      return words(record['type']);
    case 'detection':
      return `${words(record['event']) ?? '?'} ${words(record['name']) ?? '?'} (${words(record['executable']) ?? '?'})`;
    case 'gap':
      return `${words(record['dropped']) ?? '?'} records dropped`;
    default:
      return null;
  }
}

/** The row of a host event record (`kind` and its fields; `t` and `connection` as recordings have them). */
export function hostEventRow(record: Fields): HostEventRow {
  return {
    connection_id: words(record['connection'], 64) ?? 'host',
    cmd: words(record['kind'], 32) ?? 'event',
    evt: summary(record),
    payload: details(record),
  };
}
