import { FakeGameError } from '../fake-game/fake-game.js';
import { GameEntry } from './game-entry.js';
import { formatValue } from './redact.js';
import { checkReply, describeFailure, settleReply, StepFailure } from './reply-check.js';
import type { GameRow, ScenarioContext } from './scenario-context.js';
import { DEFAULT_NO_EVENT_WINDOW_MS, type StepBodies } from './scenario-schema.js';
import { describeMismatch, findMismatch, matches, valueAt } from './subset-match.js';
import { sleep, within } from './waiting.js';

/** How long an async command's reply may take at most (expect_reply has its own wait). */
const ASYNC_REPLY_MS = 10 * 60_000;

/** Connects the game, finds its connection on the host, sets its activity and subscribes. */
export async function gameStep(ctx: ScenarioContext, body: StepBodies['game']): Promise<string> {
  const timeoutMs = body.timeout_ms ?? ctx.timeoutMs;
  const before = new Set(((await ctx.controlOk('GET', '/v1/games')) as { games: GameRow[] }).games.map((row) => row.connection_id));
  let entry: GameEntry;
  try {
    entry = await GameEntry.connect(body.name, body.client_id, ctx.host.socketPath);
  } catch (error) {
    if (error instanceof FakeGameError) throw new StepFailure(error.message);
    throw error;
  }
  if (ctx.closed) {
    await entry.close();
    throw new StepFailure('the scenario has ended');
  }
  ctx.games.set(body.name, entry);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { games } = (await ctx.controlOk('GET', '/v1/games')) as { games: GameRow[] };
    const fresh = games.filter((row) => row.client_id === body.client_id && !before.has(row.connection_id));
    if (fresh.length === 1) {
      entry.connectionId = (fresh[0] as GameRow).connection_id;
      break;
    }
    if (Date.now() > deadline) throw new StepFailure(`the host did not list the game's connection within ${timeoutMs} ms (GET /v1/games)`);
    await sleep(10);
  }
  if (body.activity !== undefined) {
    const result = await settleReply(entry.game.client.connection.setPresence(await ctx.resolve(body.activity)));
    if (!result.ok) throw new StepFailure(`its activity was refused: ${describeFailure(result)}`);
  }
  for (const evt of body.subscribe ?? []) {
    const subscribed = await entry.game.subscribe(evt);
    if (!subscribed.ok) throw new StepFailure(`SUBSCRIBE ${evt} was refused: ${subscribed.error ?? 'unknown error'}`);
  }
  const user = entry.game.client.getCurrentUser();
  return `READY as ${user?.username ?? '?'}, connection ${entry.connectionId ?? '?'}`;
}

export async function commandStep(ctx: ScenarioContext, body: StepBodies['command']): Promise<void> {
  const entry = ctx.game(body.game);
  const args = await ctx.resolve(body.args ?? {});
  const timeoutMs = body.async === undefined ? (body.timeout_ms ?? ctx.timeoutMs) : ASYNC_REPLY_MS;
  const request = entry.game.client.connection.request(body.cmd, args, { timeoutMs, ...(body.evt === undefined ? {} : { evt: body.evt }) });
  if (body.async !== undefined) {
    ctx.replies.set(body.async, settleReply(request));
    return;
  }
  const result = await settleReply(request);
  checkReply(result, body.expect === undefined ? undefined : await ctx.resolve(body.expect));
  if (result.ok) ctx.save(body.save, result.data, 'the reply data', valueAt);
}

export async function expectReplyStep(ctx: ScenarioContext, body: StepBodies['expect_reply']): Promise<void> {
  const reply = ctx.replies.get(body.ref);
  if (reply === undefined) throw new StepFailure(`no async command named ${body.ref}`);
  ctx.replies.delete(body.ref);
  const timeoutMs = body.timeout_ms ?? ctx.timeoutMs;
  const result = await within(reply, timeoutMs);
  if (result === undefined) throw new StepFailure(`no reply to ${body.ref} within ${timeoutMs} ms`);
  checkReply(result, body.expect === undefined ? undefined : await ctx.resolve(body.expect));
  if (result.ok) ctx.save(body.save, result.data, 'the reply data', valueAt);
}

/** SET_ACTIVITY through the SDK's connection: kept and sent again after a reconnect, like a game's. */
export async function setActivityStep(ctx: ScenarioContext, body: StepBodies['set_activity']): Promise<void> {
  const entry = ctx.game(body.game);
  const activity = body.activity === null ? null : await ctx.resolve(body.activity);
  const result = await settleReply(entry.game.client.connection.setPresence(activity));
  checkReply(result, body.expect === undefined ? undefined : await ctx.resolve(body.expect));
}

export async function expectEventStep(ctx: ScenarioContext, body: StepBodies['expect_event']): Promise<void> {
  const entry = ctx.game(body.game);
  const match = body.match === undefined ? undefined : await ctx.resolve(body.match);
  const timeoutMs = body.timeout_ms ?? ctx.timeoutMs;
  const fits = (data: unknown): boolean => match === undefined || matches(match, data);
  const line = await entry.waitFor(() => entry.unusedEvents(body.evt).find((candidate) => fits(candidate.data)), timeoutMs);
  if (line === undefined) {
    const others = entry.unusedEvents(body.evt);
    const nearest = others.at(-1);
    const mismatch = nearest === undefined || match === undefined ? null : findMismatch(match, nearest.data);
    const detail = mismatch === null ? '' : `; ${others.length} did not match, the last: ${describeMismatch(mismatch, 'data')}`;
    throw new StepFailure(`no ${body.evt} on ${body.game} within ${timeoutMs} ms${detail}`);
  }
  entry.use(line);
  ctx.save(body.save, line.data, `the ${body.evt} data`, valueAt);
}

export async function expectNoEventStep(ctx: ScenarioContext, body: StepBodies['expect_no_event']): Promise<void> {
  const entry = ctx.game(body.game);
  const match = body.match === undefined ? undefined : await ctx.resolve(body.match);
  const windowMs = body.window_ms ?? DEFAULT_NO_EVENT_WINDOW_MS;
  const fits = (data: unknown): boolean => match === undefined || matches(match, data);
  const line = await entry.waitFor(() => entry.unusedEvents(body.evt).find((candidate) => fits(candidate.data)), windowMs);
  if (line !== undefined) throw new StepFailure(`${body.game} received ${body.evt}: ${formatValue(line.data, 'data')}`);
}

export async function expectStatusStep(ctx: ScenarioContext, body: StepBodies['expect_status']): Promise<string> {
  const entry = ctx.game(body.game);
  const timeoutMs = body.timeout_ms ?? ctx.timeoutMs;
  if (body.closed === false) {
    const closed = entry.statusLines().find((line) => line.close_code !== null || line.status === 'reconnecting' || line.status === 'disconnected');
    if (closed !== undefined) throw new StepFailure(`${body.game}'s connection closed (${closed.close_code ?? 'no code'}${closed.detail === null ? '' : `: ${closed.detail}`})`);
  }
  if (body.close_code !== undefined) {
    const code = body.close_code;
    const closed = await entry.waitFor(() => entry.statusLines().find((line) => line.close_code === code), timeoutMs);
    if (closed === undefined) {
      const seen = entry.statusLines().map((line) => line.close_code).filter((seenCode) => seenCode !== null);
      throw new StepFailure(`${body.game}'s connection was not closed with ${code} within ${timeoutMs} ms${seen.length === 0 ? '' : ` (closes seen: ${seen.join(', ')})`}`);
    }
  }
  if (body.status !== undefined) {
    const wanted = body.status;
    const reached = await entry.waitFor(() => (entry.game.client.connection.status === wanted ? true : undefined), timeoutMs);
    if (reached === undefined) throw new StepFailure(`${body.game}'s connection is ${entry.game.client.connection.status}, not ${wanted}, after ${timeoutMs} ms`);
  }
  return `now ${entry.game.client.connection.status}`;
}

export async function disconnectStep(ctx: ScenarioContext, body: StepBodies['disconnect']): Promise<void> {
  const name = typeof body === 'string' ? body : body.game;
  const entry = ctx.game(name);
  ctx.games.delete(name);
  await entry.close();
}
