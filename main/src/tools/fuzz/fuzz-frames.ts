import { DEFAULT_MAX_INBOUND_PAYLOAD, encodeRawFrame, HEADER_SIZE, Opcode } from '../../../../rpc/src/index.js';
import { exceedsJsonDepth } from '../../../../rpc/src/protocol/json-depth.js';
import { hostileValue } from './hostile-values.js';
import { mutatePayload, mutateText } from './mutations.js';
import { nested, RawJson, stringifyWithRaw } from './raw-json.js';
import { SeededRandom } from './seeded-random.js';
import { validCommand, type FuzzTargets } from './valid-commands.js';

/** Where a frame is sent: on a ready connection, an authenticated one, or first on a new one. */
export type FramePhase = 'ready' | 'authenticated' | 'handshake';

/**
 * What the host may answer, and still be right:
 * - `reply`: a FRAME reply, the connection kept (a JSON object, however wrong its fields);
 * - `pong`: PONG, the connection kept;
 * - `reply-or-close`: a reply, or CLOSE for a protocol violation (bad JSON, wrong opcode);
 * - `ended`: the host ends the socket (the client sent CLOSE, or cut its stream);
 * - `handshake`: READY, or CLOSE with the handshake's refusal.
 */
export type Expectation = 'reply' | 'pong' | 'reply-or-close' | 'ended' | 'handshake';

export interface FuzzFrame {
  readonly seed: number;
  readonly index: number;
  /** What was generated: the command and its mutation. */
  readonly label: string;
  readonly phase: FramePhase;
  /** Written one after the other (a frame split across writes has several). */
  readonly chunks: readonly Buffer[];
  readonly expect: Expectation;
  /** Followed by a request whose reply shows the frame was taken (a PONG from the client has no answer). */
  readonly barrier: boolean;
  /** The client ends its side after writing (a stream cut inside a frame). */
  readonly halfClose: boolean;
}

type Draft = Omit<FuzzFrame, 'seed' | 'index' | 'barrier' | 'halfClose' | 'expect'> & Partial<Pick<FuzzFrame, 'barrier' | 'halfClose' | 'expect'>>;

/** A FRAME (or other opcode) body the host will read as a JSON object: it must answer, not close. */
function takesAsObject(body: Buffer): boolean {
  if (body.length > DEFAULT_MAX_INBOUND_PAYLOAD) return false;
  if (exceedsJsonDepth(body)) return true;
  try {
    const value: unknown = JSON.parse(body.toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

function commandPayload(rng: SeededRandom, t: FuzzTargets, index: number): { payload: Record<string, unknown>; cmd: string; phase: FramePhase } {
  const command = validCommand(rng, t);
  const payload: Record<string, unknown> = { cmd: command.cmd, args: command.args ?? {}, nonce: rng.chance(0.9) ? `n${index}` : index };
  if (command.evt !== undefined) payload['evt'] = command.evt;
  const authenticated = t.accessToken !== null && (command.authenticated || rng.chance(0.1));
  return { payload, cmd: command.cmd, phase: authenticated ? 'authenticated' : 'ready' };
}

/** A command, valid or with 1-3 fields made wrong. */
function commandFrame(rng: SeededRandom, t: FuzzTargets, index: number): Draft {
  const { payload, cmd, phase } = commandPayload(rng, t, index);
  const labels: string[] = [];
  const mutations = rng.chance(0.12) ? 0 : rng.weighted([[1, 6], [2, 2], [3, 1]] as const);
  for (let i = 0; i < mutations; i += 1) labels.push(mutatePayload(rng, payload));
  const body = Buffer.from(stringifyWithRaw(payload));
  return { label: `${cmd} ${labels.length === 0 ? 'valid' : labels.join('; ')}`, phase, chunks: [encodeRawFrame(Opcode.Frame, body)] };
}

/** A command's JSON damaged as text. */
function textFrame(rng: SeededRandom, t: FuzzTargets, index: number): Draft {
  const { payload, cmd, phase } = commandPayload(rng, t, index);
  const { body, label } = mutateText(rng, stringifyWithRaw(payload));
  return { label: `${cmd} ${label}`, phase, chunks: [encodeRawFrame(Opcode.Frame, body)] };
}

/** Not an object at all: null, a number, a string, an array, deep nesting. */
function rootFrame(rng: SeededRandom): Draft {
  const hostile = hostileValue(rng);
  return { label: `payload=${hostile.name}`, phase: 'ready', chunks: [encodeRawFrame(Opcode.Frame, stringifyWithRaw(hostile.value))] };
}

/** A command under another opcode. */
function opcodeFrame(rng: SeededRandom, t: FuzzTargets, index: number): Draft {
  const { payload, cmd } = commandPayload(rng, t, index);
  const opcode = rng.pick([Opcode.Handshake, Opcode.Close, Opcode.Pong, Opcode.Pong, 5, 255, 0xffffffff]);
  const frame = encodeRawFrame(opcode, stringifyWithRaw(payload));
  const label = `${cmd} as opcode ${opcode}`;
  if (opcode === Opcode.Close) return { label, phase: 'ready', chunks: [frame], expect: 'ended' };
  return { label, phase: 'ready', chunks: [frame], barrier: opcode === Opcode.Pong, expect: 'reply-or-close' };
}

const PING_BODIES: readonly (readonly [string, string | Buffer])[] = [
  ['empty', ''],
  ['null', 'null'],
  ['number', '1e400'],
  ['string', '"ping"'],
  ['object', '{"nonce":{"toString":1},"__proto__":{"x":1}}'],
  ['array', '[1,2,3]'],
  ['invalid JSON', '{"a":'],
  ['200 deep', nested(200, 'array').text],
  ['300 deep', nested(300, 'object').text],
  ['long string', `"${'x'.repeat(60_000)}"`],
  ['invalid UTF-8', Buffer.from([0x22, 0xff, 0xfe, 0x22])],
];

function pingFrame(rng: SeededRandom): Draft {
  const [name, body] = rng.pick(PING_BODIES);
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  let valid = bytes.length === 0 || !exceedsJsonDepth(bytes);
  try {
    if (bytes.length > 0) JSON.parse(bytes.toString('utf8'));
  } catch {
    valid = false;
  }
  return { label: `PING ${name}`, phase: 'ready', chunks: [encodeRawFrame(Opcode.Ping, bytes)], expect: valid ? 'pong' : 'reply-or-close' };
}

const CLIENT_ID_VARIANTS = (t: FuzzTargets): readonly unknown[] => [
  t.clientId, ...t.otherClientIds, Number(t.clientId), 123456789012345, '', null, 'abc', { toString: 1 }, [t.clientId],
  `${t.clientId}0`, '18446744073709551616', '18446744073709551615', `0${t.clientId}`, ' 1234567890123456789', 1.5, -1, true,
];
/** Built afresh each time: mutations change them in place. */
const VERSIONS = (): readonly unknown[] => [1, '1', 2, 0, null, 'abc', {}, [], '2', -1, new RawJson('1e400'), undefined];

/** The first frame of a new connection: HANDSHAKE variants, or something else first. */
function handshakeFrame(rng: SeededRandom, t: FuzzTargets, index: number): Draft {
  const payload: Record<string, unknown> = { v: rng.chance(0.6) ? 1 : rng.pick(VERSIONS()), client_id: rng.chance(0.5) ? t.clientId : rng.pick(CLIENT_ID_VARIANTS(t)) };
  if (payload['v'] === undefined) delete payload['v'];
  let label = `v=${JSON.stringify(payload['v'])} client_id=${String(JSON.stringify(payload['client_id'])).slice(0, 24)}`;
  if (rng.chance(0.3)) label += `; ${mutatePayload(rng, payload)}`;
  const text = stringifyWithRaw(payload);
  const form = rng.weighted<string>([['handshake', 8], ['text', 1], ['frame-first', 1], ['ping-first', 1]]);
  if (form === 'text') {
    const damaged = mutateText(rng, text);
    return { label: `HANDSHAKE ${label}; ${damaged.label}`, phase: 'handshake', chunks: [encodeRawFrame(Opcode.Handshake, damaged.body)], expect: 'handshake' };
  }
  if (form === 'frame-first') {
    return { label: 'FRAME before HANDSHAKE', phase: 'handshake', chunks: [encodeRawFrame(Opcode.Frame, `{"cmd":"SET_ACTIVITY","args":{},"nonce":"n${index}"}`)], expect: 'handshake' };
  }
  const handshake = encodeRawFrame(Opcode.Handshake, text);
  if (form === 'ping-first') return { label: `PING then HANDSHAKE ${label}`, phase: 'handshake', chunks: [Buffer.concat([encodeRawFrame(Opcode.Ping, '{}'), handshake])], expect: 'handshake' };
  return { label: `HANDSHAKE ${label}`, phase: 'handshake', chunks: [handshake], expect: 'handshake' };
}

/** The framing itself: a length over the cap, a frame split across writes, a stream cut inside a frame. */
function framingFrame(rng: SeededRandom, t: FuzzTargets, index: number): Draft {
  const { payload, cmd, phase } = commandPayload(rng, t, index);
  const frame = encodeRawFrame(Opcode.Frame, stringifyWithRaw(payload));
  const kind = rng.pick(['oversize', 'split', 'cut']);
  if (kind === 'oversize') {
    const header = Buffer.alloc(HEADER_SIZE);
    header.writeUInt32LE(Opcode.Frame, 0);
    header.writeUInt32LE(rng.pick([DEFAULT_MAX_INBOUND_PAYLOAD + 1, 0x7fffffff, 0xffffffff]), 4);
    return { label: `${cmd} length header ${header.readUInt32LE(4)}`, phase: 'ready', chunks: [header], expect: 'reply-or-close' };
  }
  if (kind === 'split') {
    const points = [rng.int(1, frame.length - 1), rng.int(1, frame.length - 1)].sort((a, b) => a - b) as [number, number];
    return { label: `${cmd} split at ${points.join(',')}`, phase, chunks: [frame.subarray(0, points[0]), frame.subarray(points[0], points[1]), frame.subarray(points[1])] };
  }
  const at = rng.int(1, frame.length - 1);
  return { label: `${cmd} stream cut at byte ${at}`, phase: 'ready', chunks: [frame.subarray(0, at)], halfClose: true, expect: 'ended' };
}

const FAMILIES = [
  ['command', 70],
  ['text', 8],
  ['root', 3],
  ['opcode', 5],
  ['ping', 5],
  ['handshake', 7],
  ['framing', 2],
] as const;

/** Frame `index` of the run seeded `seed`: the same pair always gives the same frame for the same targets. */
export function fuzzFrame(seed: number, index: number, targets: FuzzTargets): FuzzFrame {
  const rng = new SeededRandom(seed, index);
  const family = rng.weighted(FAMILIES);
  const draft =
    family === 'command' ? commandFrame(rng, targets, index)
    : family === 'text' ? textFrame(rng, targets, index)
    : family === 'root' ? rootFrame(rng)
    : family === 'opcode' ? opcodeFrame(rng, targets, index)
    : family === 'ping' ? pingFrame(rng)
    : family === 'handshake' ? handshakeFrame(rng, targets, index)
    : framingFrame(rng, targets, index);
  const body = (draft.chunks.length === 1 ? (draft.chunks[0] as Buffer) : Buffer.concat(draft.chunks)).subarray(HEADER_SIZE);
  const expect = draft.expect ?? (takesAsObject(body) ? 'reply' : 'reply-or-close');
  return { seed, index, barrier: false, halfClose: false, ...draft, expect };
}
