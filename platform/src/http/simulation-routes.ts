import * as v from 'valibot';
import { InviteError } from '../invites/invites.js';
import { TokenFaultError, type TokenFaults } from '../oauth/token-faults.js';
import type { FriendSimulator } from '../simulation/friend-simulator.js';
import type { WireActivity } from '../wire/index.js';
import { inviteErrorToApi, parseBody } from './api-routes.js';
import { dictionaryOf, plainObject } from './body-schemas.js';
import { invalidField } from './errors.js';
import type { Route, RouteResult } from './router.js';

const text = (max: number) => v.pipe(v.string(), v.maxLength(max));
const snowflake = v.pipe(v.string(), v.regex(/^[0-9]{1,20}$/, 'must be an id of 1 to 20 digits'));
const userRef = v.pipe(v.string(), v.minLength(1), v.maxLength(64));

/** A gateway activity as a game's host would send it (secrets included: the emulator keeps them). */
const ActivityBody = plainObject({
  name: v.optional(text(128), ''),
  type: v.optional(v.picklist([0, 1, 2, 3, 4, 5]), 0),
  application_id: v.optional(snowflake),
  details: v.optional(text(128)),
  state: v.optional(text(128)),
  details_url: v.optional(text(256)),
  state_url: v.optional(text(256)),
  status_display_type: v.optional(v.picklist([0, 1, 2])),
  created_at: v.optional(v.pipe(v.number(), v.integer())),
  timestamps: v.optional(plainObject({ start: v.optional(v.pipe(v.number(), v.integer())), end: v.optional(v.pipe(v.number(), v.integer())) })),
  assets: v.optional(dictionaryOf(text(300))),
  party: v.optional(
    plainObject({
      id: v.optional(text(128)),
      size: v.optional(v.tuple([v.pipe(v.number(), v.integer(), v.minValue(0)), v.pipe(v.number(), v.integer(), v.minValue(0))])),
      privacy: v.optional(v.picklist([0, 1])),
    }),
  ),
  secrets: v.optional(plainObject({ join: v.optional(text(128)), spectate: v.optional(text(128)), match: v.optional(text(128)) })),
  instance: v.optional(v.boolean()),
  flags: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
  buttons: v.optional(v.array(plainObject({ label: text(32), url: text(512) }))),
});

const PresenceBody = plainObject({
  as: userRef,
  status: v.optional(v.picklist(['online', 'idle', 'dnd', 'invisible', 'offline'])),
  activity: v.nullable(ActivityBody),
});
const AskBody = plainObject({ as: userRef, to: userRef, application_id: v.optional(snowflake) });
const InviteBody = plainObject({ as: userRef, to: userRef, application_id: snowflake, content: v.optional(text(2000)) });
const AnswerBody = plainObject({ as: userRef, to: userRef, message_id: v.optional(snowflake), application_id: v.optional(snowflake) });
const TokenErrorBody = plainObject({
  error: v.pipe(v.string(), v.maxLength(64)),
  error_description: v.optional(text(512)),
  status: v.optional(v.pipe(v.number(), v.integer())),
  application_id: v.optional(v.string()),
  grant_type: v.optional(v.picklist(['authorization_code', 'refresh_token'])),
  count: v.optional(v.pipe(v.number(), v.integer())),
});

/** Drops undefined values, so optional fields stay absent (exactOptionalPropertyTypes). */
function defined<T extends object>(input: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined)) as { [K in keyof T]: Exclude<T[K], undefined> };
}

function invites<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof InviteError) throw inviteErrorToApi(error);
    throw error;
  }
}

const ok = (body: unknown): RouteResult => ({ status: 200, body });

/**
 * Admin routes for QA: a simulated friend (`/_emulator/simulated-friend/...`) and token
 * endpoint errors on demand (`/_emulator/oauth/token-errors`).
 */
export function simulationRoutes(simulator: FriendSimulator, tokenFaults: TokenFaults): Route[] {
  return [
    {
      method: 'POST',
      pattern: '/_emulator/simulated-friend/presence',
      auth: 'admin',
      handle: (ctx) => {
        const body = parseBody(PresenceBody, ctx.body);
        const activity = body.activity === null ? null : (defined(body.activity) as unknown as WireActivity);
        return ok(simulator.setPresence(body.as, { activity, ...(body.status === undefined ? {} : { status: body.status }) }));
      },
    },
    {
      method: 'POST',
      pattern: '/_emulator/simulated-friend/ask-to-join',
      auth: 'admin',
      handle: (ctx) => {
        const body = parseBody(AskBody, ctx.body);
        return ok(invites(() => simulator.askToJoin(body.as, body.to, body.application_id)));
      },
    },
    {
      method: 'POST',
      pattern: '/_emulator/simulated-friend/invite',
      auth: 'admin',
      handle: (ctx) => {
        const body = parseBody(InviteBody, ctx.body);
        return ok(invites(() => simulator.invite(body.as, body.to, body.application_id, body.content)));
      },
    },
    {
      method: 'POST',
      pattern: '/_emulator/simulated-friend/accept',
      auth: 'admin',
      handle: (ctx) => {
        const { as, to, ...options } = parseBody(AnswerBody, ctx.body);
        return ok(invites(() => simulator.accept(as, to, defined({ messageId: options.message_id, applicationId: options.application_id }))));
      },
    },
    {
      method: 'POST',
      pattern: '/_emulator/simulated-friend/decline',
      auth: 'admin',
      handle: (ctx) => {
        const { as, to, ...options } = parseBody(AnswerBody, ctx.body);
        return ok(invites(() => simulator.decline(as, to, defined({ messageId: options.message_id, applicationId: options.application_id }))));
      },
    },
    { method: 'GET', pattern: '/_emulator/oauth/token-errors', auth: 'admin', handle: () => ok({ armed: tokenFaults.list() }) },
    {
      method: 'POST',
      pattern: '/_emulator/oauth/token-errors',
      auth: 'admin',
      handle: (ctx) => {
        const body = parseBody(TokenErrorBody, ctx.body);
        try {
          const fault = tokenFaults.arm(defined(body));
          return { status: 201, body: { armed: fault, pending: tokenFaults.list().length } };
        } catch (error) {
          if (error instanceof TokenFaultError) throw invalidField(error.field, 'BASE_TYPE_BAD', error.message);
          throw error;
        }
      },
    },
    { method: 'DELETE', pattern: '/_emulator/oauth/token-errors', auth: 'admin', handle: () => ok({ cleared: tokenFaults.clear() }) },
  ];
}
