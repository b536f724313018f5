import { Opcode } from '../../../../rpc/src/index.js';
import type { BodyRecord, CloseRecord, FrameRecord } from '../../../../common/src/recording/recording-format.js';
import type { Recording } from '../../host/record/record-reader.js';

/** A frame of the recording, at its time. */
export interface TimedFrame {
  readonly t: number;
  readonly opcode: number;
  readonly payload: unknown;
}

/**
 * Close reasons of the host's own making that a replay should see again: a refused handshake,
 * a protocol violation, a revoked token, a game too slow to read. Others (the host shutting
 * down or signing out when the recording ended) are not part of the game's story: the replay
 * then closes the connection itself, and that final CLOSE is not expected.
 */
const REPLAYED_SERVER_CLOSES: ReadonlySet<string> = new Set(['handshake-refused', 'handshake-timeout', 'protocol-error', 'token-revoked', 'slow-consumer']);

/** One recorded connection, from the game's side. */
export interface PlannedConnection {
  /** The recorded connection id (c1, c2, ...). */
  readonly id: string;
  readonly transport: string;
  /** The application of the HANDSHAKE, if any. */
  readonly clientId: string | null;
  readonly openAt: number;
  /** When the replay closes its socket: the recorded close (or the end of the recording); null when the host closes it. */
  readonly clientCloseAt: number | null;
  /** Game → host frames to send (HANDSHAKE, FRAME, PING, CLOSE). */
  readonly inbound: readonly TimedFrame[];
  /** Host → game frames the replay should receive (compared with what it does receive). */
  readonly outbound: readonly TimedFrame[];
  /** Why this connection is not replayed (e.g. its handshake is not in the recording), else null. */
  readonly skipped: string | null;
}

export type Step =
  | { readonly t: number; readonly kind: 'open'; readonly connection: PlannedConnection }
  | { readonly t: number; readonly kind: 'send'; readonly connection: PlannedConnection; readonly frame: TimedFrame }
  | { readonly t: number; readonly kind: 'close'; readonly connection: PlannedConnection };

export interface ReplayPlan {
  readonly connections: readonly PlannedConnection[];
  /** Every action of the game side, in recorded order. */
  readonly steps: readonly Step[];
  /** The time of the last record. */
  readonly endsAt: number;
  readonly redacted: boolean;
}

interface Building {
  id: string;
  transport: string;
  clientId: string | null;
  openAt: number;
  existing: boolean;
  close: CloseRecord | undefined;
  inbound: TimedFrame[];
  outbound: TimedFrame[];
}

/** The game side of a recording, per connection, and the order to play it in. */
export function planReplay(recording: Recording): ReplayPlan {
  const byId = new Map<string, Building>();
  const get = (record: BodyRecord & { connection: string }, transport = 'ipc'): Building => {
    let entry = byId.get(record.connection);
    if (entry === undefined) {
      // A frame with no open record: the connection was open before the recording started.
      entry = { id: record.connection, transport, clientId: null, openAt: record.t, existing: record.kind !== 'open', close: undefined, inbound: [], outbound: [] };
      byId.set(record.connection, entry);
    }
    return entry;
  };
  let endsAt = 0;
  for (const record of recording.records) {
    endsAt = Math.max(endsAt, record.t);
    switch (record.kind) {
      case 'open': {
        const entry = get(record, record.transport);
        entry.openAt = record.t;
        entry.existing = record.existing === true;
        break;
      }
      case 'frame':
        addFrame(get(record, record.transport), record);
        break;
      case 'close':
        get(record).close = record;
        break;
      default:
        break;
    }
  }
  const connections = [...byId.values()].map((entry) => finish(entry, endsAt));
  return { connections, steps: stepsOf(connections), endsAt, redacted: recording.header.redacted };
}

function addFrame(entry: Building, record: FrameRecord): void {
  const frame: TimedFrame = { t: record.t, opcode: record.opcode, payload: record.payload };
  if (record.direction === 'out') {
    entry.outbound.push(frame);
    return;
  }
  if (record.opcode === Opcode.Handshake) {
    const clientId = (record.payload as { client_id?: unknown } | null)?.client_id;
    entry.clientId = typeof clientId === 'string' || typeof clientId === 'number' ? String(clientId) : null;
  }
  entry.inbound.push(frame);
}

function finish(entry: Building, endsAt: number): PlannedConnection {
  const handshake = entry.inbound.some((frame) => frame.opcode === Opcode.Handshake);
  const close = entry.close;
  const serverClosed = close !== undefined && REPLAYED_SERVER_CLOSES.has(close.reason);
  let outbound = entry.outbound;
  if (!serverClosed) {
    // The host's CLOSE at the end of the recording (shutdown, sign-out) is not the game's doing.
    const last = outbound[outbound.length - 1];
    if (close !== undefined && close.reason !== 'peer-close-frame' && last?.opcode === Opcode.Close) outbound = outbound.slice(0, -1);
  }
  const clientCloseAt = serverClosed ? null : (close?.t ?? endsAt);
  const skipped = entry.transport !== 'ipc'
    ? `it used the ${entry.transport} transport; replay speaks IPC only`
    : handshake
    ? null
    : entry.existing
      ? 'it was already open when the recording started (its handshake is not in the recording)'
      : 'the game never sent a HANDSHAKE';
  return { id: entry.id, transport: entry.transport, clientId: entry.clientId, openAt: entry.openAt, clientCloseAt, inbound: entry.inbound, outbound, skipped };
}

function stepsOf(connections: readonly PlannedConnection[]): Step[] {
  const steps: Step[] = [];
  for (const connection of connections) {
    if (connection.skipped !== null) continue;
    steps.push({ t: connection.openAt, kind: 'open', connection });
    for (const frame of connection.inbound) steps.push({ t: frame.t, kind: 'send', connection, frame });
    if (connection.clientCloseAt !== null) steps.push({ t: connection.clientCloseAt, kind: 'close', connection });
  }
  // Stable: at equal times, a connection's own order (open, sends, close) is kept.
  return steps.map((step, index) => ({ step, index })).sort((a, b) => a.step.t - b.step.t || a.index - b.index).map(({ step }) => step);
}
