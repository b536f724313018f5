import * as v from 'valibot';
import { declineDmRequest, postDmMessage, toPlatformMessage } from '../invites/dm-messages.js';
import { MessageNonces } from '../invites/message-nonces.js';
import type { ChannelRecord } from '../state/model.js';
import type { Store } from '../state/store.js';
import { GAME_SCOPES } from './game-scopes.js';
import { me, noContent, ok, parseBody, withInviteErrors } from './api-kit.js';
import { plainObject } from './body-schemas.js';
import type { HttpDeps } from './deps.js';
import { invalidField, missingAccess, unknownChannel } from './errors.js';
import type { RequestContext, Route, RouteResult } from './router.js';

const MessageBody = plainObject({
  content: v.optional(v.pipe(v.string(), v.maxLength(2000))),
  activity: v.optional(plainObject({ type: v.pipe(v.number(), v.integer()), party_id: v.optional(v.string()) })),
  application_id: v.optional(v.string()),
  nonce: v.optional(v.union([v.pipe(v.string(), v.maxLength(25)), v.number()])),
  enforce_nonce: v.optional(v.boolean()),
});
const JoinBody = plainObject({ message_id: v.optional(v.string()), session_id: v.optional(v.string()) });

/** The DM channel `channelId`, when the user is one of its recipients. */
export function dmOf(store: Store, ctx: RequestContext, channelId: string): ChannelRecord {
  const channel = store.channel(channelId);
  if (channel === undefined) throw unknownChannel();
  if (channel.type !== 1 || channel.recipient_ids?.includes(me(ctx).id) !== true) throw missingAccess();
  return channel;
}

function listMessages(store: Store, ctx: RequestContext): RouteResult {
  const channel = dmOf(store, ctx, ctx.params.id as string);
  const raw = ctx.query.get('limit');
  const limit = raw === null ? 50 : Number(raw);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw invalidField('limit', 'NUMBER_TYPE_MAX', 'limit must be 1-100');
  // A game's token sees its own moderation metadata on the messages.
  const viewer = ctx.oauth?.applicationId ?? null;
  return ok(store.messages(channel.id, limit).map((message) => toPlatformMessage(store, message, viewer)));
}

function postMessage(deps: HttpDeps, nonces: MessageNonces, ctx: RequestContext): RouteResult {
  const channel = dmOf(deps.store, ctx, ctx.params.id as string);
  const body = parseBody(MessageBody, ctx.body);
  if ((body.content ?? '').length === 0 && body.activity === undefined) throw invalidField('content', 'BASE_TYPE_REQUIRED', 'Cannot send an empty message');
  const author = me(ctx);
  const nonce = body.enforce_nonce === true && body.nonce !== undefined ? String(body.nonce) : undefined;
  if (nonce !== undefined) {
    // The same author and nonce within the window: the first message, not a second one.
    const earlier = nonces.find(author.id, nonce);
    const message = earlier === undefined ? undefined : deps.store.message(earlier.channelId, earlier.messageId);
    if (message !== undefined) return ok(toPlatformMessage(deps.store, message, ctx.oauth?.applicationId ?? null));
  }
  // A game's own token: the message is the game's (the desktop client shows which game sent it).
  const fromGame = ctx.oauth === undefined || body.application_id !== undefined ? body : { ...body, application_id: ctx.oauth.applicationId };
  const created = withInviteErrors(() => postDmMessage(deps, author, channel, fromGame));
  if (nonce !== undefined) nonces.remember(author.id, nonce, channel.id, created.id);
  // A game's DM: the game's server hears of it, for moderation.
  if (ctx.oauth !== undefined && body.activity === undefined) deps.appEvent?.(ctx.oauth.applicationId, 'GAME_DIRECT_MESSAGE_CREATE', created);
  return ok(created);
}

/** DM messages (with activity invites and join requests), declining a request, and joining a friend's activity. */
export function messageRoutes(deps: HttpDeps): Route[] {
  const nonces = new MessageNonces(deps.now);
  return [
    { method: 'GET', pattern: '/channels/:id/messages', auth: 'user', bearerScopes: GAME_SCOPES.dmMessagesRead, handle: (ctx) => listMessages(deps.store, ctx) },
    {
      method: 'POST',
      pattern: '/channels/:id/messages',
      auth: 'user',
      bearerScopes: GAME_SCOPES.dmWrite,
      rateLimit: { bucket: 'channel-messages-create', limit: () => deps.limits.http.messageCreate, by: 'user' },
      handle: (ctx) => postMessage(deps, nonces, ctx),
    },
    {
      method: 'POST',
      pattern: '/channels/:cid/messages/:mid/decline-activity-request',
      auth: 'user',
      handle: (ctx) => {
        const channel = dmOf(deps.store, ctx, ctx.params.cid as string);
        withInviteErrors(() => declineDmRequest(deps, me(ctx), channel, ctx.params.mid as string));
        return noContent;
      },
    },
    {
      method: 'POST',
      pattern: '/users/:id/activities/:app/join',
      auth: 'user',
      handle: (ctx) => {
        const body = parseBody(JoinBody, ctx.body);
        const secret = withInviteErrors(() => deps.invites.join(me(ctx), ctx.params.id as string, ctx.params.app as string, body.message_id, body.session_id));
        return ok({ secret });
      },
    },
  ];
}
