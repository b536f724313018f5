import * as v from 'valibot';
import { ProvisionalError } from '../provisional/provisional-error.js';
import type { ChildTokens } from '../provisional/child-tokens.js';
import type { IdentityBook } from '../provisional/identity-book.js';
import type { ProvisionalService } from '../provisional/provisional-service.js';
import type { AppRecord } from '../state/model.js';
import type { PlatformLimits } from '../support/limits.js';
import { noContent, parseBody, refusalsAs } from './api-kit.js';
import { plainObject, Snowflake } from './body-schemas.js';
import { ApiError } from './errors.js';
import type { RequestContext, Route, RouteResult } from './router.js';

const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' } as const;
const Token = v.pipe(v.string(), v.minLength(1), v.maxLength(8192));
const Credentials = plainObject({
  client_id: Snowflake,
  client_secret: v.optional(v.pipe(v.string(), v.maxLength(256))),
  external_auth_type: v.pipe(v.string(), v.maxLength(64)),
  external_auth_token: Token,
});
const BotTokenBody = plainObject({
  external_user_id: v.pipe(v.string(), v.minLength(1), v.maxLength(128)),
  preferred_global_name: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(32))),
});
const BotUnmergeBody = plainObject({ external_user_id: v.pipe(v.string(), v.minLength(1), v.maxLength(128)) });
const ChildTokenBody = plainObject({
  parent_access_token: Token,
  child_application_id: Snowflake,
  parent_client_secret: v.optional(v.pipe(v.string(), v.maxLength(256))),
});

export interface PartnerSdkDeps {
  readonly provisional: ProvisionalService;
  readonly childTokens: ChildTokens;
  readonly book: IdentityBook;
  /** The app for an id (its OIDC issuer names the profile's provider). */
  readonly resolveApp: (id: string) => AppRecord | undefined;
  readonly limits: PlatformLimits;
}

/** A provisional-account refusal as the API's `{code, message}` error. */
export const partnerAnswer = refusalsAs(ProvisionalError, (error) => new ApiError(error.status, error.code, error.message));

const tokenAnswer = (body: unknown): RouteResult => ({ status: 200, body, headers: NO_STORE });

/**
 * The Social SDK's account endpoints under /api: the external credentials exchange, the bot
 * token endpoint, unmerging (by credentials or by the bot's `external_user_id`), and the
 * publisher's child tokens. JSON bodies; the client secret may be left out by public clients.
 */
export function partnerSdkRoutes(deps: PartnerSdkDeps): Route[] {
  const { provisional, childTokens } = deps;
  // One bucket per address for the token, unmerge and child-token calls **(ours)**.
  const rateLimit = { bucket: 'partner-sdk', limit: () => deps.limits.http.partnerSdk, by: 'ip' as const };
  const bot = (ctx: RequestContext): AppRecord => ctx.bot as AppRecord;
  return [
    { method: 'POST', pattern: '/partner-sdk/token', access: {}, auth: 'none', rateLimit, handle: (ctx) => partnerAnswer(async () => tokenAnswer(await provisional.exchange(parseBody(Credentials, ctx.body)))) },
    {
      method: 'POST',
      pattern: '/partner-sdk/token/bot',
      access: {},
      auth: 'bot',
      rateLimit,
      handle: (ctx) =>
        partnerAnswer(() => {
          const body = parseBody(BotTokenBody, ctx.body);
          return tokenAnswer(provisional.botToken(bot(ctx), body.external_user_id, body.preferred_global_name));
        }),
    },
    {
      method: 'POST',
      pattern: '/partner-sdk/provisional-accounts/unmerge',
      access: {},
      auth: 'none',
      rateLimit,
      handle: (ctx) => partnerAnswer(async () => (await provisional.unmerge(parseBody(Credentials, ctx.body)), noContent)),
    },
    {
      method: 'POST',
      pattern: '/partner-sdk/provisional-accounts/unmerge/bot',
      access: {},
      auth: 'bot',
      rateLimit,
      handle: (ctx) => partnerAnswer(() => (provisional.unmergeBot(bot(ctx), parseBody(BotUnmergeBody, ctx.body).external_user_id), noContent)),
    },
    {
      // The Social SDK's GetUserApplicationProfiles: the player's external identity in the token's game **(ours: the route)**.
      method: 'GET',
      pattern: '/users/@me/application-profiles',
      access: {},
      auth: 'bearer',
      handle: (ctx) => {
        const auth = ctx.oauth;
        if (auth === undefined) return { status: 200, body: [] };
        const issuerOf = (type: string): string | null => {
          const provider = deps.resolveApp(auth.applicationId)?.external_auth?.find((candidate) => candidate.type === type);
          return provider?.type === 'OIDC' ? provider.issuer : null;
        };
        return { status: 200, body: deps.book.profileOf(auth.applicationId, auth.user.id, issuerOf) };
      },
    },
    { method: 'POST', pattern: '/partner-sdk/child-token', access: {}, auth: 'none', rateLimit, handle: (ctx) => partnerAnswer(() => tokenAnswer(childTokens.exchange(parseBody(ChildTokenBody, ctx.body)))) },
  ];
}
