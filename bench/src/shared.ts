import { Buffer } from 'node:buffer';
import { encodeFrame, HEADER_SIZE } from '../../rpc/src/framing/frame-codec.js';

/** Opcodes of the discord-ipc framing (kept local so the bench does not depend on rpc's protocol module). */
export const OP = { Handshake: 0, Frame: 1, Close: 2, Ping: 3, Pong: 4 } as const;

/** The application id every bench client announces. */
export const CLIENT_ID = '1234567890123456789';

/** READY user/config of the baseline server and the fallback runner (same shape as Companion's). */
export const BENCH_USER = {
  id: '100000000000000001',
  username: 'bench',
  discriminator: '0',
  global_name: 'Bench User',
  avatar: null,
  avatar_decoration_data: null,
  bot: false,
  flags: 0,
  premium_type: 0,
} as const;

export const BENCH_CONFIG = {
  cdn_host: 'cdn.discordapp.com',
  api_endpoint: '//discord.com/api',
  environment: 'production',
} as const;

/** Timestamp used by every SET_ACTIVITY of a run (milliseconds, as most libraries send). */
export const ACTIVITY_START_MS = Date.now();

/** A realistic rich presence (about 500 bytes as JSON, 600 with the envelope). */
export const ACTIVITY = {
  state: 'In a party - Ranked (Duo Queue)',
  details: 'Competitive match on Ascent, round 14 of 24',
  timestamps: { start: ACTIVITY_START_MS },
  assets: {
    large_image: 'map_ascent_large_2024',
    large_text: 'Ascent - Competitive - Patch 9.04',
    small_image: 'rank_diamond_3',
    small_text: 'Diamond 3 (74 RR)',
  },
  party: { id: 'party-7f3c2a9e-1b4d-4e8a-9c6f-2d1e0b5a3c7d', size: [1, 4] },
  buttons: [
    { label: 'Join the match', url: 'https://play.example.com/join/7f3c2a9e-1b4d-4e8a' },
    { label: 'View profile', url: 'https://play.example.com/players/companion-bench' },
  ],
  instance: false,
} as const;

/** Nonces are fixed-width decimal strings so they can be patched into a pre-encoded frame. */
export const NONCE_DIGITS = 12;
const NONCE_PLACEHOLDER = '0'.repeat(NONCE_DIGITS);

export interface RequestTemplate {
  /** One complete FRAME (header included) whose nonce is NONCE_PLACEHOLDER. */
  readonly frame: Buffer;
  /** Offset of the first nonce digit inside `frame`. */
  readonly nonceOffset: number;
}

/** A SET_ACTIVITY frame, encoded once; `stampRequest` writes a nonce into a copy. */
export function setActivityTemplate(pid: number): RequestTemplate {
  const payload = { cmd: 'SET_ACTIVITY', args: { pid, activity: ACTIVITY }, nonce: NONCE_PLACEHOLDER };
  const frame = encodeFrame(OP.Frame, payload);
  const marker = `"nonce":"${NONCE_PLACEHOLDER}"`;
  const at = frame.indexOf(marker, HEADER_SIZE);
  if (at < 0) throw new Error('nonce placeholder not found in the request template');
  return { frame, nonceOffset: at + '"nonce":"'.length };
}

/** Copies the template `count` times into one buffer, with nonces first, first+1, ... */
export function stampRequests(template: RequestTemplate, first: number, count: number): Buffer {
  const size = template.frame.length;
  const out = Buffer.allocUnsafe(size * count);
  for (let i = 0; i < count; i += 1) {
    const base = i * size;
    template.frame.copy(out, base);
    writeNonceDigits(out, base + template.nonceOffset, first + i);
  }
  return out;
}

function writeNonceDigits(buf: Buffer, offset: number, value: number): void {
  let n = value;
  for (let i = NONCE_DIGITS - 1; i >= 0; i -= 1) {
    buf[offset + i] = 48 + (n % 10);
    n = Math.floor(n / 10);
  }
}

export function formatNonce(value: number): string {
  return String(value).padStart(NONCE_DIGITS, '0');
}

const REPLY_TAIL = Buffer.from('"evt":null,"nonce":"');

/**
 * Fast path for a successful reply: both servers serialise `{cmd, data, evt, nonce}` in that
 * order, so a reply ends with `"evt":null,"nonce":"<digits>"}`. Returns the nonce, or -1 when
 * the body does not end that way (the caller then parses the whole JSON).
 */
export function fastReplyNonce(body: Buffer): number {
  const len = body.length;
  const digitsAt = len - 2 - NONCE_DIGITS;
  const tailAt = digitsAt - REPLY_TAIL.length;
  if (tailAt < 0 || body[len - 1] !== 0x7d || body[len - 2] !== 0x22) return -1;
  if (REPLY_TAIL.compare(body, tailAt, digitsAt) !== 0) return -1;
  let n = 0;
  for (let i = digitsAt; i < len - 2; i += 1) {
    const d = (body[i] as number) - 48;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n;
}

export interface ParsedReply {
  readonly nonce: number;
  readonly error: boolean;
  /** Why the reply does not look like a valid SET_ACTIVITY answer, if it does not. */
  readonly problem: string | null;
}

/** echo: data null (baseline); activity: Companion's normalised activity; echo-activity: the activity sent. */
export type ReplyExpectation = 'echo' | 'activity' | 'echo-activity';

/** Full parse and validation of one reply (used for every latency sample and a sample of load replies). */
export function parseReply(body: Buffer, expect: ReplyExpectation): ParsedReply {
  let message: unknown;
  try {
    message = JSON.parse(body.toString('utf8'));
  } catch {
    return { nonce: -1, error: false, problem: 'reply is not JSON' };
  }
  if (typeof message !== 'object' || message === null) return { nonce: -1, error: false, problem: 'reply is not an object' };
  const { cmd, data, evt, nonce } = message as Record<string, unknown>;
  const n = typeof nonce === 'string' && /^[0-9]+$/.test(nonce) ? Number(nonce) : -1;
  if (evt === 'ERROR') {
    return { nonce: n, error: true, problem: `ERROR reply: ${JSON.stringify(data)}` };
  }
  if (cmd !== 'SET_ACTIVITY') return { nonce: n, error: false, problem: `cmd is ${String(cmd)}` };
  if (evt !== null) return { nonce: n, error: false, problem: `evt is ${String(evt)}` };
  if (n < 0) return { nonce: n, error: false, problem: 'nonce is not one of ours' };
  let problem: string | null;
  if (expect === 'echo') problem = data === null ? null : 'data is not null';
  else if (expect === 'activity') problem = activityProblem(data);
  else problem = (data as { state?: unknown } | null)?.state === ACTIVITY.state ? null : 'data is not the activity sent';
  return { nonce: n, error: false, problem };
}

/** Checks the normalised activity Companion returns against what was sent. */
function activityProblem(data: unknown): string | null {
  if (typeof data !== 'object' || data === null) return 'data is not an object';
  const a = data as Record<string, unknown>;
  if (a.state !== ACTIVITY.state || a.details !== ACTIVITY.details) return 'state/details differ';
  if (a.application_id !== CLIENT_ID) return 'application_id differs';
  const timestamps = a.timestamps as Record<string, unknown> | undefined;
  if (timestamps?.start !== ACTIVITY_START_MS) return 'timestamps.start differs';
  const buttons = a.buttons as unknown;
  if (!Array.isArray(buttons) || buttons[0] !== ACTIVITY.buttons[0].label) return 'buttons differ';
  const party = a.party as Record<string, unknown> | undefined;
  if (!Array.isArray(party?.size) || party.size[1] !== 4) return 'party.size differs';
  return null;
}

export function handshakeFrame(): Buffer {
  return encodeFrame(OP.Handshake, { v: 1, client_id: CLIENT_ID });
}

/** Null when `body` is a READY dispatch with a user object, else the problem. */
export function readyProblem(opcode: number, body: Buffer): string | null {
  if (opcode !== OP.Frame) return `opcode ${opcode} instead of FRAME`;
  try {
    const message = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
    if (message.cmd !== 'DISPATCH' || message.evt !== 'READY' || message.nonce !== null) return 'not a READY dispatch';
    const data = message.data as Record<string, unknown> | null;
    const user = data?.user as Record<string, unknown> | undefined;
    if (typeof user?.id !== 'string') return 'READY without user.id';
    return null;
  } catch {
    return 'READY is not JSON';
  }
}

/** A non-negative integer from the environment (BENCH_* knobs), or the fallback. */
export function envInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got '${raw}'`);
  return value;
}
