import {
  activityInvite,
  activityJoin,
  activityJoinRequest,
  guildStatus,
  invitingActivity,
  rpcFullUser,
  type UserLike,
} from '../inject/event-templates.js';
import { isQaOff, qaOffMessage } from '../inject/qa-off.js';
import { StepFailure } from './reply-check.js';
import type { FriendRow, ScenarioContext } from './scenario-context.js';
import type { StepBodies } from './scenario-schema.js';

type InjectBody = StepBodies['inject'];

/** A user for an injected event: a friend (by name or id), else any id (a stranger). */
async function eventUser(ctx: ScenarioContext, user: string): Promise<{ user: UserLike; presence: FriendRow['presence'] | undefined }> {
  const friend = await ctx.friend(user);
  if (friend !== undefined) return { user: friend.user, presence: friend.presence };
  const id = await ctx.userId(user);
  return { user: { id, username: user }, presence: undefined };
}

/** The event and its data for the event kinds, in the shapes the host itself sends. */
async function eventFor(ctx: ScenarioContext, body: InjectBody, game: { client_id: string; application_name: string }): Promise<{ evt: string; data: unknown }> {
  switch (body.kind) {
    case 'event':
      return { evt: body.evt as string, data: await ctx.resolve(body.data ?? null) };
    case 'join':
      return { evt: 'ACTIVITY_JOIN', data: activityJoin(body.secret as string) };
    case 'spectate':
      return { evt: 'ACTIVITY_SPECTATE', data: activityJoin(body.secret as string) };
    case 'join_request':
      return { evt: 'ACTIVITY_JOIN_REQUEST', data: activityJoinRequest((await eventUser(ctx, body.user as string)).user) };
    case 'invite': {
      const friend = await eventUser(ctx, body.user as string);
      return { evt: 'ACTIVITY_INVITE', data: activityInvite(friend.user, invitingActivity(friend.presence?.activities, game, body.party)) };
    }
    case 'authorize_request':
      return { evt: 'AUTHORIZE_REQUEST', data: null };
    case 'current_user': {
      const me = await ctx.currentUser();
      return { evt: 'CURRENT_USER_UPDATE', data: rpcFullUser({ ...me, ...(body.username === undefined ? {} : { username: body.username }) }) };
    }
    case 'guild_status':
      return { evt: 'GUILD_STATUS', data: guildStatus({ id: body.guild as string, name: body.name ?? `Guild ${body.guild as string}` }, body.online ?? 0) };
    default:
      throw new StepFailure(`${body.kind} is not an event kind`);
  }
}

/** A `/v1/inject/*` request that must succeed; a host without QA mode fails the step saying how to start it. */
async function injected(ctx: ScenarioContext, method: string, route: string, body?: unknown): Promise<unknown> {
  const answer = await ctx.control(method, route, body);
  const message = (answer.body as { message?: unknown } | null)?.message;
  if (isQaOff(answer.status, message)) throw new StepFailure(qaOffMessage(ctx.host.label));
  if (answer.status >= 400) throw new StepFailure(`${method} ${route} answered ${answer.status}${typeof message === 'string' ? `: ${message}` : ''}`);
  return answer.body;
}

/** Injects through the host's control API (`/v1/inject/*`, and `DELETE /v1/grants/:app` for revoke). */
export async function injectStep(ctx: ScenarioContext, body: InjectBody): Promise<string | void> {
  switch (body.kind) {
    case 'gateway':
      await injected(ctx, 'POST', '/v1/inject/gateway', body.action === 'pause' ? { action: 'pause', duration_ms: body.duration_ms } : { action: 'drop' });
      return;
    case 'revoke':
      await ctx.controlOk('DELETE', `/v1/grants/${body.app as string}`);
      return;
    case 'token_error': {
      const { kind: _kind, app, ...rest } = body;
      const armed = (await injected(ctx, 'POST', '/v1/inject/token-error', { ...rest, ...(app === undefined ? {} : { application_id: app }) })) as { pending: number };
      return `${armed.pending} armed`;
    }
    case 'token_error_clear': {
      const cleared = (await injected(ctx, 'DELETE', '/v1/inject/token-error')) as { cleared: number };
      return `${cleared.cleared} cleared`;
    }
    case 'output': {
      const game = await ctx.connectionOf(ctx.game(body.game as string));
      const shaping = {
        ...(body.delay_ms === undefined ? {} : { delay_ms: body.delay_ms }),
        ...(body.split === undefined ? {} : { split: body.split }),
        ...(body.coalesce === undefined ? {} : { coalesce: body.coalesce }),
      };
      await injected(ctx, 'POST', '/v1/inject/output', { connection_id: game.connection_id, ...shaping });
      return Object.keys(shaping).length === 0 ? 'reset' : undefined;
    }
    default: {
      const game = await ctx.connectionOf(ctx.game(body.game as string));
      const { evt, data } = await eventFor(ctx, body, game);
      const result = (await injected(ctx, 'POST', '/v1/inject/event', { connection_id: game.connection_id, evt, data, force: body.force === true })) as { delivered: boolean; subscribed: boolean };
      const wanted = body.delivered ?? true;
      if (result.delivered !== wanted) {
        throw new StepFailure(
          wanted ? `${evt} was not delivered: ${body.game as string} did not subscribe to it (force: true sends it anyway)` : `${evt} was delivered, expected it not to be`,
        );
      }
      return result.delivered ? `${evt} delivered` : `${evt} not delivered`;
    }
  }
}
