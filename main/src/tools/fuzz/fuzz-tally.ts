import { CloseCode, HEADER_SIZE, Opcode, RpcErrorCode } from '../../../../rpc/src/index.js';
import type { FuzzFrame } from './fuzz-frames.js';
import type { Outcome } from './fuzz-socket.js';

const KNOWN_ERROR_CODES = new Set<unknown>(Object.values(RpcErrorCode));
const KNOWN_CLOSE_CODES = new Set<unknown>(Object.values(CloseCode));

/**
 * Something the host must never do, whatever a client sends:
 * - `internal-error`: CLOSE "internal error", or ERROR 1000 "Unknown Error" (a handler threw);
 * - `unknown-code`: an ERROR or CLOSE code the protocol does not have;
 * - `unexpected-close`: the connection closed where the real client keeps it (a JSON object
 *   in a FRAME, however wrong its fields; a PING);
 * - `dropped`: the socket ended without a CLOSE frame saying why;
 * - `hang`: no answer in time;
 * - `bad-reply`: the host sent a frame that is not JSON, or an answer of the wrong kind;
 * - `setup`: a well-behaved connection could not be opened;
 * - `bystander`: the well-behaved game beside the fuzz lost its connection or a reply.
 */
export type FindingKind = 'internal-error' | 'unknown-code' | 'unexpected-close' | 'dropped' | 'hang' | 'bad-reply' | 'setup' | 'bystander';

export interface Finding {
  readonly kind: FindingKind;
  readonly seed: number;
  readonly index: number;
  readonly label: string;
  readonly detail: string;
  /** The start of what was sent (secrets replaced). */
  readonly sent: string;
}

const EXAMPLES_PER_KIND = 5;
/** Codes counted by message too: their texts tell an outage from a refusal. */
const BY_MESSAGE = new Set<unknown>([RpcErrorCode.UnknownError, RpcErrorCode.ServiceUnavailable, RpcErrorCode.OAuth2Error]);

/** Client text quoted in messages, and numbers, left out so that messages group. */
function normalized(message: unknown): string {
  if (typeof message !== 'string') return `<${typeof message}>`;
  return message
    .replace(/^((?:invalid JSON in )?\w+ frame): .*$/s, '$1: …')
    .replace(/^(Invalid Version|Invalid command|Invalid event): .*$/s, '$1: …')
    .replace(/^(OAuth2 Error: \w+): .*$/s, '$1: …')
    .replace(/^[A-Z0-9_]+ (is not available in this version of Companion)$/, 'COMMAND $1')
    .replace(/\d{3,}/g, 'N')
    .slice(0, 120);
}

function bump(counts: Record<string, number>, key: string): void {
  counts[key] = (counts[key] ?? 0) + 1;
}

/** Counts what the host answered, and judges each answer against what the frame allows. */
export class FuzzTally {
  frames = 0;
  readonly replies: Record<string, number> = {};
  readonly closes: Record<string, number> = {};
  /** CLOSE 1003: the client broke the protocol (bad JSON, wrong opcode...); allowed. */
  protocolViolations = 0;
  pongs = 0;
  handshakesReady = 0;
  /** Sockets ended as expected (the client sent CLOSE or cut its stream). */
  ended = 0;
  readonly findingCounts: Partial<Record<FindingKind, number>> = {};
  readonly examples: Finding[] = [];

  constructor(private readonly secrets: () => readonly string[]) {}

  get findings(): number {
    return Object.values(this.findingCounts).reduce((sum, n) => sum + (n ?? 0), 0);
  }

  get internalErrors(): number {
    return this.findingCounts['internal-error'] ?? 0;
  }

  record(frame: FuzzFrame, outcome: Outcome): void {
    this.frames += 1;
    switch (outcome.kind) {
      case 'frame':
        return this.answered(frame, outcome.opcode, outcome.payload);
      case 'close':
        return this.closed(frame, outcome.code, outcome.message);
      case 'ended':
        if (frame.expect === 'ended') this.ended += 1;
        else this.find('dropped', frame, 'the socket ended without a CLOSE frame');
        return;
      case 'timeout':
        return this.find('hang', frame, 'no answer in time');
      default:
        return this.find('bad-reply', frame, outcome.detail);
    }
  }

  /** A failure outside any one frame (a bystander, a setup step). */
  note(kind: FindingKind, detail: string, frame?: FuzzFrame): void {
    this.find(kind, frame, detail);
  }

  private answered(frame: FuzzFrame, opcode: number, payload: unknown): void {
    if (opcode === Opcode.Pong) {
      this.pongs += 1;
      if (frame.expect !== 'pong' && frame.expect !== 'reply-or-close') this.find('bad-reply', frame, 'PONG where a reply was due');
      return;
    }
    const reply = payload as { cmd?: unknown; evt?: unknown; data?: { code?: unknown; message?: unknown } } | null;
    if (opcode !== Opcode.Frame || typeof reply !== 'object' || reply === null) return this.find('bad-reply', frame, `opcode ${opcode}`);
    if (reply.evt === 'READY') {
      this.handshakesReady += 1;
      if (frame.expect !== 'handshake') this.find('bad-reply', frame, 'READY where a reply was due');
      return;
    }
    if (frame.expect === 'pong') return this.find('bad-reply', frame, 'a reply where PONG was due');
    if (reply.evt !== 'ERROR') return bump(this.replies, 'ok');
    const { code, message } = reply.data ?? {};
    bump(this.replies, BY_MESSAGE.has(code) ? `${String(code)} ${normalized(message)}` : String(code));
    if (!KNOWN_ERROR_CODES.has(code)) this.find('unknown-code', frame, `ERROR ${String(code)} ${normalized(message)}`);
    else if (code === RpcErrorCode.UnknownError && message === 'Unknown Error') this.find('internal-error', frame, 'ERROR 1000 Unknown Error');
  }

  private closed(frame: FuzzFrame, code: unknown, message: unknown): void {
    bump(this.closes, `${String(code)} ${normalized(message)}`);
    if (code === CloseCode.Unsupported) this.protocolViolations += 1;
    if (!KNOWN_CLOSE_CODES.has(code)) this.find('unknown-code', frame, `CLOSE ${String(code)} ${normalized(message)}`);
    if (message === 'internal error') this.find('internal-error', frame, `CLOSE ${String(code)} internal error`);
    else if (frame.expect === 'reply' || frame.expect === 'pong') this.find('unexpected-close', frame, `CLOSE ${String(code)} ${normalized(message)}`);
  }

  private find(kind: FindingKind, frame: FuzzFrame | undefined, detail: string): void {
    this.findingCounts[kind] = (this.findingCounts[kind] ?? 0) + 1;
    if (this.examples.filter((example) => example.kind === kind).length >= EXAMPLES_PER_KIND) return;
    this.examples.push({
      kind,
      seed: frame?.seed ?? -1,
      index: frame?.index ?? -1,
      label: frame?.label ?? '',
      detail,
      sent: frame === undefined ? '' : this.preview(frame),
    });
  }

  /** The first 300 characters of the frame's body, with every secret replaced. */
  private preview(frame: FuzzFrame): string {
    let text = Buffer.concat(frame.chunks).subarray(HEADER_SIZE, HEADER_SIZE + 4000).toString('utf8');
    for (const secret of this.secrets()) if (secret !== '') text = text.split(secret).join('[redacted]');
    return text.slice(0, 300);
  }
}
