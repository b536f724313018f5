import { RpcRequestError } from '../../../../rpc/client/index.js';
import { formatValue } from './redact.js';
import type { ReplyExpect } from './scenario-schema.js';
import { describeMismatch, findMismatch, patternOf } from './subset-match.js';

/** A step's expectation was not met: the message says what was expected and what came. */
export class StepFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StepFailure';
  }
}

/** A command's outcome: its reply data, or how it failed (an ERROR reply, a timeout, a drop). */
export type ReplyResult =
  | { readonly ok: true; readonly data: unknown }
  | { readonly ok: false; readonly code: number | null; readonly message: string; readonly kind: string };

/** The result of a request promise, never a rejection. */
export async function settleReply(request: Promise<unknown>): Promise<ReplyResult> {
  try {
    return { ok: true, data: await request };
  } catch (error) {
    if (error instanceof RpcRequestError) return { ok: false, code: error.code, message: error.message, kind: error.kind };
    return { ok: false, code: null, message: error instanceof Error ? error.message : String(error), kind: 'error' };
  }
}

export function describeFailure(result: Extract<ReplyResult, { ok: false }>): string {
  if (result.kind === 'rpc-error') return `ERROR ${result.code ?? '?'} ${formatValue(result.message)}`;
  return result.message;
}

/** A message against an expected text: contained in it, or matching it when written `/regex/`. */
export function textMatches(expected: string, actual: string): boolean {
  const pattern = patternOf(expected);
  return pattern !== null ? pattern.test(actual) : actual.includes(expected);
}

/**
 * Checks a reply against `expect` (see the format): no expectation means it must succeed;
 * `error` means it must fail with that code / text; `data` is matched as a subset.
 */
export function checkReply(result: ReplyResult, expect: ReplyExpect | undefined): void {
  if (expect?.error !== undefined) {
    const wanted = expect.error;
    const what = `an ERROR${wanted.code === undefined ? '' : ` ${wanted.code}`}${wanted.message === undefined ? '' : ` with ${formatValue(wanted.message)}`}`;
    if (result.ok) throw new StepFailure(`expected ${what}, got a reply: ${formatValue(result.data, 'data')}`);
    if (wanted.code !== undefined && result.code !== wanted.code) throw new StepFailure(`expected ${what}, got ${describeFailure(result)}`);
    if (wanted.message !== undefined && !textMatches(wanted.message, result.message)) throw new StepFailure(`expected ${what}, got ${describeFailure(result)}`);
    return;
  }
  if (!result.ok) throw new StepFailure(`failed: ${describeFailure(result)}`);
  if (expect !== undefined && Object.hasOwn(expect, 'data')) {
    const mismatch = findMismatch(expect.data, result.data);
    if (mismatch !== null) throw new StepFailure(describeMismatch(mismatch, 'data'));
  }
}
