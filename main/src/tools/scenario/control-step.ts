import { formatValue } from './redact.js';
import { StepFailure } from './reply-check.js';
import type { ControlAnswer, ScenarioContext } from './scenario-context.js';
import type { StepBodies } from './scenario-schema.js';
import { describeMismatch, findMismatch, valueAt } from './subset-match.js';
import { sleep } from './waiting.js';

/** null when the answer is what the step expects (status 2xx unless given, and the match). */
function answerProblem(answer: ControlAnswer, expect: { status?: number | undefined; match?: unknown } | undefined): string | null {
  const okStatus = expect?.status === undefined ? answer.status >= 200 && answer.status < 300 : answer.status === expect.status;
  if (!okStatus) {
    const message = (answer.body as { message?: unknown } | null)?.message;
    return `expected status ${expect?.status ?? '2xx'}, got ${answer.status}${typeof message === 'string' ? ` (${formatValue(message)})` : ''}`;
  }
  if (expect === undefined || !Object.hasOwn(expect, 'match')) return null;
  const mismatch = findMismatch(expect.match, answer.body);
  return mismatch === null ? null : describeMismatch(mismatch, 'body');
}

/** Calls the host's control API; a GET is retried until it matches or the timeout passes. */
export async function controlStep(ctx: ScenarioContext, body: StepBodies['control']): Promise<void> {
  const method = body.method ?? 'GET';
  const route = await ctx.resolve(body.route);
  const requestBody = body.body === undefined ? undefined : await ctx.resolve(body.body);
  const expect = body.expect === undefined ? undefined : await ctx.resolve(body.expect);
  const timeoutMs = body.timeout_ms ?? ctx.timeoutMs;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = await ctx.control(method, route, requestBody);
    const problem = answerProblem(answer, expect);
    if (problem === null) {
      ctx.save(body.save, answer.body, 'the answer', valueAt);
      return;
    }
    if (method !== 'GET' || Date.now() > deadline) throw new StepFailure(method === 'GET' ? `${problem} (after ${timeoutMs} ms)` : problem);
    await sleep(20, ctx.signal);
  }
}
