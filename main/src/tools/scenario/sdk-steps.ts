import { formatValue } from './redact.js';
import { checkReply, StepFailure, type ReplyResult } from './reply-check.js';
import type { ScenarioContext } from './scenario-context.js';
import type { StepBodies } from './scenario-schema.js';
import { callSdk } from './sdk-calls.js';
import { SdkEntry, type SdkEvent } from './sdk-entry.js';
import { matches, valueAt } from './subset-match.js';

/** The Social SDK's default communication scopes: lobbies, DMs, relationships and the gateway. */
const DEFAULT_SCOPES = 'openid sdk.social_layer';

/** Opens a Social SDK game for an emulator user: signed in, authorized, its own platform session ready. */
export async function sdkStep(ctx: ScenarioContext, body: StepBodies['sdk']): Promise<string> {
  if (ctx.sdks.has(body.name)) throw new StepFailure(`an SDK game named ${body.name} is open already`);
  if (ctx.host.platformAdmin === null) throw new StepFailure(`an SDK game needs the platform emulator (its dev login): ${ctx.host.label} uses another platform`);
  const scopes = Array.isArray(body.scopes) ? body.scopes.join(' ') : (body.scopes ?? DEFAULT_SCOPES);
  let entry: SdkEntry;
  try {
    entry = await SdkEntry.open({ name: body.name, platformUrl: ctx.host.platformUrl, username: await ctx.resolve(body.user), applicationId: body.app, scopes, timeoutMs: body.timeout_ms ?? ctx.timeoutMs });
  } catch (error) {
    throw new StepFailure(error instanceof Error ? error.message : String(error));
  }
  if (ctx.closed) {
    await entry.close();
    throw new StepFailure('the scenario has ended');
  }
  ctx.sdks.set(body.name, entry);
  return `${body.user} (${entry.userId}) ready`;
}

/** Calls one SDK method and checks its ClientResult (and data) as `expect` says; `save` keeps values. */
export async function sdkCallStep(ctx: ScenarioContext, body: StepBodies['sdk_call']): Promise<string | void> {
  const entry = ctx.sdk(body.sdk);
  const args = await ctx.resolve(body.args ?? []);
  const outcome = await callSdk(entry.client, body.call, args);
  const reply: ReplyResult =
    outcome.result !== null && !outcome.result.successful
      ? { ok: false, code: outcome.result.errorCode === 0 ? null : outcome.result.errorCode, message: outcome.result.error, kind: 'rpc-error' }
      : { ok: true, data: outcome.data };
  checkReply(reply, await ctx.resolve(body.expect));
  if (reply.ok) ctx.save(body.save, reply.data, 'the data', valueAt);
  return reply.ok && body.expect === undefined && outcome.data !== null ? formatValue(outcome.data, 'data') : undefined;
}

/** Waits for a callback of the SDK game (`messageCreated`, `memberAdded`, ...) whose data matches. */
export async function expectSdkEventStep(ctx: ScenarioContext, body: StepBodies['expect_sdk_event']): Promise<void> {
  const entry = ctx.sdk(body.sdk);
  const expected = body.match === undefined ? undefined : await ctx.resolve(body.match);
  const timeoutMs = body.timeout_ms ?? ctx.timeoutMs;
  const found = await entry.waitFor(() => entry.unused(body.event).find((event: SdkEvent) => expected === undefined || matches(expected, event.data)), timeoutMs);
  if (found === undefined) {
    const seen = entry.unused(body.event).map((event) => formatValue(event.data, 'data'));
    throw new StepFailure(`${body.sdk} had no ${body.event}${expected === undefined ? '' : ` matching ${formatValue(expected)}`} within ${timeoutMs} ms${seen.length > 0 ? ` (it had: ${seen.slice(-3).join('; ')})` : ''}`);
  }
  entry.use(found);
  ctx.save(body.save, found.data, 'the event', valueAt);
}
