/**
 * The recording format: a file of MessagePack values, one per record, appended one after the
 * other (no framing of ours: `decodeMulti` reads them back). The first record is the header;
 * every later record has `kind` and `t`, the time in milliseconds since the header's
 * `started_at` on a monotonic clock (performance.now), so records keep their order and spacing
 * whatever the wall clock does. Field names are snake_case like the protocol's.
 */

/** The header's `format`: tells a recording from any other MessagePack file. */
export const RECORDING_FORMAT = 'companion-recording';
/**
 * Bumped when a reader of this version could misread a newer file. 2: the records after the
 * header may be compressed (the header's `compression`), and a frame's payload may be a
 * JSON_PAYLOAD_EXT extension.
 */
export const RECORDING_VERSION = 2;

/**
 * How the records after the header are stored when the header says `compression:
 * 'deflate-raw'` (what Companion writes): in chunks, each a MessagePack `bin` value holding a
 * raw DEFLATE stream (RFC 1951) of whole records, one chunk per batch the writer sends to the
 * disk. The file stays a sequence of MessagePack values (the header, then the chunks), every
 * chunk can be read on its own, and a chunk cut off by a kill is read up to its last whole
 * record. Without `compression`, the records follow the header as they are (version 1 files).
 */
export const RECORDING_COMPRESSION = 'deflate-raw';

/**
 * MessagePack extension type of a frame payload recorded as the JSON it went over the wire in
 * (UTF-8, byte for byte), which is how the recorder writes payloads with nothing to redact:
 * a copy instead of an encoding. Readers decode it with JSON.parse (recordingExtensions), so a
 * record's `payload` is the decoded value either way. Payloads with secrets to redact are
 * plain MessagePack values, redacted.
 */
export const JSON_PAYLOAD_EXT = 1;

export interface HeaderRecord {
  readonly kind: 'header';
  readonly format: typeof RECORDING_FORMAT;
  readonly version: number;
  /** The Companion version that wrote it. */
  readonly companion: string;
  /** Wall-clock start, ISO 8601; every `t` counts from here. */
  readonly started_at: string;
  /** True when secrets were replaced by `[redacted]` (the default; `--record-secrets` keeps them). */
  readonly redacted: boolean;
  /** How the records after the header are stored (RECORDING_COMPRESSION); absent: as they are. */
  readonly compression?: typeof RECORDING_COMPRESSION;
}

/** A transport's name: 'ipc' today; kept a plain string so new transports need no format change. */
export type TransportName = string;

/** One RPC frame, as decoded (the JSON payload; see JSON_PAYLOAD_EXT), in either direction. */
export interface FrameRecord {
  readonly kind: 'frame';
  readonly t: number;
  readonly connection: string;
  readonly transport: TransportName;
  /** 'in': game to host; 'out': host to game. */
  readonly direction: 'in' | 'out';
  readonly opcode: number;
  readonly payload: unknown;
}

/**
 * A connection was accepted (`existing`: it was already open when the recording started, so
 * its earlier frames, the handshake among them, are not in the file).
 */
export interface OpenRecord {
  readonly kind: 'open';
  readonly t: number;
  readonly connection: string;
  readonly transport: TransportName;
  readonly existing?: boolean;
  /** Only for `existing`: what the handshake had established. */
  readonly client_id?: string | null;
}

/** The handshake succeeded (READY sent). */
export interface ReadyRecord {
  readonly kind: 'ready';
  readonly t: number;
  readonly connection: string;
  readonly client_id: string | null;
}

/** The connection ended. */
export interface CloseRecord {
  readonly kind: 'close';
  readonly t: number;
  readonly connection: string;
  readonly client_id: string | null;
  /** The pid the game gave in SET_ACTIVITY, if any. */
  readonly pid: number | null;
  /** Who ended it and why (the server's DisconnectInfo reason). */
  readonly reason: string;
  readonly code: number | null;
}

/** How an authorization request was decided. */
export interface ConsentRecord {
  readonly kind: 'consent';
  readonly t: number;
  /** The connection that asked, or null. */
  readonly connection: string | null;
  readonly application_id: string;
  readonly scopes: readonly string[];
  /** approved, denied, dismissed, timed-out. */
  readonly outcome: string;
  /** 'player': a prompt was answered (or timed out, or dismissed); 'policy': `--consent`; 'remembered': a grant covered it. */
  readonly by: 'player' | 'policy' | 'remembered';
}

/** A gateway dispatch the host received from the platform (and relays to games where it applies). */
export interface GatewayRecord {
  readonly kind: 'gateway';
  readonly t: number;
  readonly type: string;
  readonly data: unknown;
}

/** What became of a game's update on its way to the platform (the presence relay's outcome), as the live inspector lists it. */
export interface RelayRecord {
  readonly kind: 'relay';
  readonly t: number;
  readonly connection: string;
  /** The relay's outcome: connection_id, application_id, update, cause, cleared, at (epoch ms), kind and its details. */
  readonly outcome: unknown;
}

/**
 * Game detection found a game running (`start`) or saw it exit (`end`): the host's event, listed
 * under the connection id its activity has in the relay (`detected:<application id>`).
 */
export interface DetectionRecord {
  readonly kind: 'detection';
  readonly t: number;
  readonly connection: string;
  readonly event: 'start' | 'end';
  readonly application_id: string;
  readonly name: string;
  /** The list's entry that matched, and the process's path. */
  readonly executable: string;
  readonly path: string;
  readonly pid: number;
}

/** An incoming SET_ACTIVITY's lints (what the real client accepts but shows badly), written after its frame. */
export interface LintRecord {
  readonly kind: 'lint';
  readonly t: number;
  readonly connection: string;
  /** The SET_ACTIVITY's nonce: the frame these lints belong to. */
  readonly nonce: string | null;
  readonly lints: readonly { readonly code: string; readonly field: string; readonly message: string; readonly severity: string }[];
}

/** Records were dropped because the disk did not keep up (the buffer limit was reached). */
export interface GapRecord {
  readonly kind: 'gap';
  readonly t: number;
  readonly dropped: number;
}

export type BodyRecord = FrameRecord | OpenRecord | ReadyRecord | CloseRecord | ConsentRecord | GatewayRecord | GapRecord | RelayRecord | LintRecord | DetectionRecord;
export type RecordingRecord = HeaderRecord | BodyRecord;

export const BODY_KINDS: ReadonlySet<string> = new Set(['frame', 'open', 'ready', 'close', 'consent', 'gateway', 'gap', 'relay', 'lint', 'detection']);

/** The header as written at the start of a recording. */
export function headerRecord(companion: string, startedAt: Date, redacted: boolean, compressed = true): HeaderRecord {
  const header: HeaderRecord = { kind: 'header', format: RECORDING_FORMAT, version: RECORDING_VERSION, companion, started_at: startedAt.toISOString(), redacted };
  return compressed ? { ...header, compression: RECORDING_COMPRESSION } : header;
}

/** The opcode's protocol name (HANDSHAKE, FRAME, CLOSE, PING, PONG), else the number. */
export function opcodeName(opcode: number): string {
  return ['HANDSHAKE', 'FRAME', 'CLOSE', 'PING', 'PONG'][opcode] ?? String(opcode);
}
