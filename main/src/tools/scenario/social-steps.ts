import { randomBytes } from 'node:crypto';
import { runSetActivity, RpcError } from '../../../../rpc/src/index.js';
import type { WireActivity } from '../../../../platform/src/wire/index.js';
import { toWireActivity } from '../../host/presence/to-wire-activity.js';
import type { SeenPresence } from './friend-observer.js';
import { formatValue } from './redact.js';
import { StepFailure } from './reply-check.js';
import type { ScenarioContext } from './scenario-context.js';
import type { StepBodies } from './scenario-schema.js';
import { describeMismatch, findMismatch, matches } from './subset-match.js';
import { sleep } from './waiting.js';

type FriendBody = StepBodies['friend'];

const ROUTES: Readonly<Record<FriendBody['action'], string>> = {
  presence: 'presence',
  offline: 'presence',
  ask_to_join: 'ask-to-join',
  invite: 'invite',
  accept: 'accept',
  decline: 'decline',
};

/** The friend's activity as a host would send it: checked with the server's SET_ACTIVITY rules. */
function friendActivity(app: string, activity: Record<string, unknown> | undefined): WireActivity {
  const input = activity ?? {
    state: 'Looking for players',
    party: { id: `party-${randomBytes(4).toString('hex')}`, size: [1, 4] },
    secrets: { join: `join-${randomBytes(12).toString('hex')}` },
  };
  try {
    const result = runSetActivity({ pid: 1, activity: input }, { applicationId: app, applicationName: '', transport: 'ipc', now: Date.now });
    if (result.activity === null) throw new StepFailure("'activity' holds no activity");
    return toWireActivity(result.activity, app);
  } catch (error) {
    if (error instanceof RpcError) throw new StepFailure(`the friend's activity is not valid: ${error.message}`);
    throw error;
  }
}

/** The simulated friend on the emulator (`/_emulator/simulated-friend/*`, as `companion platform friend`). */
export async function friendStep(ctx: ScenarioContext, body: FriendBody): Promise<string | void> {
  const admin = ctx.host.platformAdmin;
  if (admin === null) throw new StepFailure(`the simulated friend needs the platform emulator's admin API: ${ctx.host.label} has none`);
  let request: Record<string, unknown>;
  switch (body.action) {
    case 'presence': {
      const activity = body.app === undefined ? null : friendActivity(body.app, body.activity === undefined ? undefined : await ctx.resolve(body.activity));
      request = { as: body.as, activity, ...(body.status === undefined ? {} : { status: body.status }) };
      break;
    }
    case 'offline':
      request = { as: body.as, status: 'offline', activity: null };
      break;
    default:
      request = {
        as: body.as,
        to: body.to ?? (await ctx.currentUser()).username,
        ...(body.app === undefined ? {} : { application_id: body.app }),
        ...(body.message === undefined ? {} : { content: body.message }),
        ...(body.message_id === undefined ? {} : { message_id: await ctx.resolve(body.message_id) }),
      };
  }
  let response: Response;
  try {
    response = await fetch(`${admin.url}/_emulator/simulated-friend/${ROUTES[body.action]}`, {
      method: 'POST',
      headers: { Authorization: `Admin ${admin.adminToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(request),
      signal: AbortSignal.timeout(5000),
    });
  } catch {
    throw new StepFailure(`the platform emulator at ${admin.url} does not answer`);
  }
  const answer = (await response.json().catch(() => null)) as { message?: string; id?: string; accepted?: string; declined?: string } | null;
  if (!response.ok) throw new StepFailure(`the emulator refused: ${answer?.message ?? `HTTP ${response.status}`}`);
  if (answer?.accepted !== undefined) return `accepted your ${answer.accepted}`;
  if (answer?.declined !== undefined) return `declined your ${answer.declined}`;
  return undefined;
}

function describePresence(presence: SeenPresence): string {
  if (presence.activities.length === 0) return `${presence.status}, no activity`;
  return `${presence.status}, ${formatValue(presence.activities.map((activity) => ({ name: activity.name, application_id: activity.application_id, state: activity.state, details: activity.details, party: activity.party })))}`;
}

/** null when the presence is what the step expects, else why not. */
function presenceProblem(body: StepBodies['expect_presence'], presence: SeenPresence, expected: unknown): string | null {
  if (body.status !== undefined && presence.status !== body.status) return `expected status '${body.status}', got '${presence.status}'`;
  const activities = presence.activities.filter((activity) => body.app === undefined || activity.application_id === body.app);
  if (body.activity === 'none') return activities.length === 0 ? null : `expected no activity${body.app === undefined ? '' : ` of ${body.app}`}, got ${describePresence({ ...presence, activities })}`;
  if (expected === undefined) return null;
  if (activities.some((activity) => matches(expected, activity))) return null;
  const nearest = activities.at(-1);
  if (nearest === undefined) return `expected an activity${body.app === undefined ? '' : ` of ${body.app}`}, got none (${presence.status})`;
  return describeMismatch(findMismatch(expected, nearest) ?? { path: '', expected, actual: nearest, problem: 'different' }, 'activity');
}

/** Polls `read` until `problem` finds none or the time is up; `wake` re-checks at once on a change. */
async function waitForPresence(
  read: () => Promise<SeenPresence>,
  problem: (presence: SeenPresence) => string | null,
  timeoutMs: number,
  wake?: (notify: () => void) => () => void,
): Promise<string | null> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const last = problem(await read());
    if (last === null || Date.now() > deadline) return last;
    const controller = new AbortController();
    const stop = wake?.(() => controller.abort());
    await sleep(Math.min(50, Math.max(1, deadline - Date.now())), controller.signal);
    stop?.();
  }
}

/**
 * What a friend sees: with `seen_by`, a friend's own gateway session watching `user` (the
 * host's user by default); without, the host's friend list (GET /v1/friends) for `user`.
 */
export async function expectPresenceStep(ctx: ScenarioContext, body: StepBodies['expect_presence']): Promise<void> {
  const timeoutMs = body.timeout_ms ?? ctx.timeoutMs;
  const expected = body.activity === undefined || body.activity === 'none' ? undefined : await ctx.resolve(body.activity);
  const check = (presence: SeenPresence): string | null => presenceProblem(body, presence, expected);
  if (body.seen_by !== undefined) {
    const observer = await ctx.observer(body.seen_by);
    const user = body.user === undefined ? (await ctx.currentUser()).id : await ctx.resolve(body.user);
    const userId = observer.friendId(user) ?? observer.friendId(await ctx.userId(user));
    if (userId === undefined) throw new StepFailure(`${user} is not a friend of ${body.seen_by}: only friends see a presence`);
    const problem = await waitForPresence(
      async () => observer.presenceOf(userId),
      check,
      timeoutMs,
      (notify) => {
        observer.on('change', notify);
        return () => observer.off('change', notify);
      },
    );
    if (problem !== null) throw new StepFailure(`${body.seen_by} sees ${body.user ?? "the host's user"}: ${problem} (after ${timeoutMs} ms)`);
    return;
  }
  const user = await ctx.resolve(body.user as string);
  const problem = await waitForPresence(
    async () => {
      const friend = await ctx.friend(user);
      if (friend === undefined) throw new StepFailure(`${user} is not a friend of the host's user`);
      return { status: friend.presence.status, activities: friend.presence.activities as unknown as WireActivity[] };
    },
    check,
    timeoutMs,
  );
  if (problem !== null) throw new StepFailure(`the host sees ${user}: ${problem} (after ${timeoutMs} ms)`);
}
