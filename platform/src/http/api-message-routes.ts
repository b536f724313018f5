import * as v from 'valibot';
import { callerApplication } from '../access/caller.js';
import { declineDmRequest, postDmMessage, toPlatformMessage } from '../invites/dm-messages.js';
import { MessageNonces } from '../invites/message-nonces.js';
import type { ChannelRecord } from '../state/model.js';
import type { Store } from '../state/store.js';
import { GAME_SCOPES } from './game-scopes.js';
import { me, noContent, ok, parseBody, withInviteErrors } from './api-kit.js';
import { plainObject, StringMap } from './body-schemas.js';
import { LOBBY_LIMITS } from '../wire/lobbies.js';
import { metadataLength } from '../lobbies/lobby-rules.js';
import type { HttpDeps } from './deps.js';
import { invalidField } from './errors.js';
import type { RequestContext, Route, RouteResult } from './router.js';

const MessageBody = plainObject({
  content: v.optional(v.pipe(v.string(), v.maxLength(2000))),
  activity: v.optional(plainObject({ type: v.pipe(v.number(), v.integer()), party_id: v.optional(v.string()) })),
  application_id: v.optional(v.string()),
  nonce: v.optional(v.union([v.pipe(v.string(), v.maxLength(25)), v.number()])),
  enforce_nonce: v.optional(v.boolean()),
  /** The game's own key/value pairs on the message (the Social SDK's SendUserMessageWithMetadata), returned as sent. */
  metadata: v.optional(StringMap),
});
const JoinBody = plainObject({ message_id: v.optional(v.string()), session_id: v.optional(v.string()) });

/** The route's DM channel, as the access policy resolved it (one the caller's user is a recipient of). */
export function dmOf(ctx: RequestContext): ChannelRecord {
  const channel = ctx.resolved.channel;
  if (channel === undefined) throw new Error(`${ctx.method} ${ctx.path}: the route resolves no channel`);
  return channel;
}

/** The other recipient of a DM (yourself, in a DM with yourself). */
export function otherRecipient(channel: ChannelRecord, userId: string): string {
  return channel.recipient_ids?.find((id) => id !== userId) ?? userId;
}

function listMessages(store: Store, ctx: RequestContext): RouteResult {
  const channel = dmOf(ctx);
  const raw = ctx.query.get('limit');
  const limit = raw === null ? 50 : Number(raw);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw invalidField('limit', 'NUMBER_TYPE_MAX', 'limit must be 1-100');
  // A game's token sees its own moderation metadata on the messages.
  const viewer = ctx.oauth?.applicationId ?? null;
  return ok(store.messages(channel.id, limit).map((message) => toPlatformMessage(store, message, viewer)));
}

function postMessage(deps: HttpDeps, nonces: MessageNonces, ctx: RequestContext): RouteResult {
  const channel = dmOf(ctx);
  const body = parseBody(MessageBody, ctx.body);
  if ((body.content ?? '').length === 0 && body.activity === undefined) throw invalidField('content', 'BASE_TYPE_REQUIRED', 'Cannot send an empty message');
  if (body.metadata !== undefined && metadataLength(body.metadata) > LOBBY_LIMITS.metadataChars) {
    throw invalidField('metadata', 'BASE_TYPE_MAX_LENGTH', `metadata is ${metadataLength(body.metadata)} characters long (keys and values); at most ${LOBBY_LIMITS.metadataChars}`);
  }
  const author = me(ctx);
  deps.policy.mayMessage(author.id, otherRecipient(channel, author.id));
  // A game's DM is its token's application's, never the body's (access/policy.ts).
  const applicationId = deps.policy.dmApplication(ctx.caller, body);
  const nonce = body.enforce_nonce === true && body.nonce !== undefined ? String(body.nonce) : undefined;
  // Whose nonces these are: the author's, within the sending game (or their own client) and this
  // channel, so that one game's nonces never swallow another game's messages.
  const sender = `${author.id}:${callerApplication(ctx.caller) ?? ''}:${channel.id}`;
  if (nonce !== undefined) {
    // The same author and nonce within the window: the first message, not a second one.
    const earlier = nonces.find(sender, nonce);
    const message = earlier === undefined ? undefined : deps.store.message(earlier.channelId, earlier.messageId);
    if (message !== undefined) return ok(toPlatformMessage(deps.store, message, ctx.oauth?.applicationId ?? null));
  }
  // A game's own token: the message is the game's (the desktop client shows which game sent it).
  const created = withInviteErrors(() => postDmMessage(deps, author, channel, { ...body, application_id: applicationId }));
  if (nonce !== undefined) nonces.remember(sender, nonce, channel.id, created.id);
  // A game's DM: the game's server hears of it, for moderation.
  if (ctx.caller.kind === 'game-player' && body.activity === undefined) deps.appEvent?.(ctx.caller.applicationId, 'GAME_DIRECT_MESSAGE_CREATE', created);
  return ok(created);
}

/** DM messages (with activity invites and join requests), declining a request, and joining a friend's activity. */
export function messageRoutes(deps: HttpDeps): Route[] {
  const nonces = new MessageNonces(deps.now);
  return [
    { method: 'GET', pattern: '/channels/:id/messages', access: { id: 'dm-channel' }, auth: 'user', bearerScopes: GAME_SCOPES.dmMessagesRead, handle: (ctx) => listMessages(deps.store, ctx) },
    {
      method: 'POST',
      pattern: '/channels/:id/messages',
      access: { id: 'dm-channel' },
      auth: 'user',
      bearerScopes: GAME_SCOPES.dmWrite,
      rateLimit: { bucket: 'channel-messages-create', limit: () => deps.limits.http.messageCreate, by: 'user' },
      handle: (ctx) => postMessage(deps, nonces, ctx),
    },
    {
      method: 'POST',
      pattern: '/channels/:cid/messages/:mid/decline-activity-request',
      access: { cid: 'dm-channel', mid: 'message' },
      auth: 'user',
      handle: (ctx) => {
        const channel = dmOf(ctx);
        withInviteErrors(() => declineDmRequest(deps, me(ctx), channel, ctx.params.mid as string));
        return noContent;
      },
    },
    {
      method: 'POST',
      pattern: '/users/:id/activities/:app/join',
      access: { id: 'user', app: 'application' },
      auth: 'user',
      handle: (ctx) => {
        const body = parseBody(JoinBody, ctx.body);
        // A block either way: no join, whatever invite came before it.
        deps.policy.mayJoin(me(ctx).id, ctx.params.id as string);
        const secret = withInviteErrors(() => deps.invites.join(me(ctx), ctx.params.id as string, ctx.params.app as string, body.message_id, body.session_id));
        return ok({ secret });
      },
    },
  ];
}
