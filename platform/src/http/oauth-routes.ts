import * as v from 'valibot';
import { parseBody } from './api-routes.js';
import { partnerAnswer } from './partner-sdk-routes.js';
import { ErrorCode, ApiError } from './errors.js';
import type { RequestContext, Route, RouteResult } from './router.js';
import type { WindowLimit } from '../support/limits.js';
import type { UserRecord } from '../state/model.js';
import type { Store } from '../state/store.js';
import { KNOWN_SCOPES } from '../wire/index.js';
import { ACCESS_DENIED_DESCRIPTION, OAuthError, invalidRequest } from '../oauth/errors.js';
import type { OidcKeys } from '../oauth/jwt.js';
import { DEVICE_CODE_GRANT, type DeviceFlow } from '../oauth/device.js';
import { renderActivatePage, renderAuthorizeError, renderAuthorizePage } from '../oauth/page.js';
import { withQuery, type AuthorizeRequest, type OAuthService } from '../oauth/service.js';
import { tokenRequestClientId, type TokenFaults } from '../oauth/token-faults.js';

const AuthorizeBody = v.object({ authorize: v.boolean(), rpc: v.optional(v.boolean()) });
const UserCode = v.pipe(v.string(), v.minLength(1), v.maxLength(32));
const DeviceVerifyBody = v.object({ user_code: UserCode, authorize: v.boolean() });

const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' } as const;

/** The form of a form-encoded OAuth2 request; any other body is invalid_request. */
const IntrospectBody = v.object({ token: v.pipe(v.string(), v.minLength(1), v.maxLength(512)) });

function form(ctx: RequestContext): URLSearchParams {
  if (ctx.contentType !== 'application/x-www-form-urlencoded') {
    throw invalidRequest('The request body must be application/x-www-form-urlencoded.');
  }
  return new URLSearchParams(ctx.rawBody);
}

function authorizationHeader(ctx: RequestContext): string | undefined {
  return ctx.request.headers.authorization;
}

export interface OAuthRouteDeps {
  readonly oauth: OAuthService;
  readonly keys: OidcKeys;
  readonly store: Store;
  /** The emulator's URL (the OIDC issuer). */
  readonly url: () => string;
  /** The dev-login bucket, shared by the browser page's login. */
  readonly devLoginLimit: () => WindowLimit;
  /** Errors armed through the admin API that the token endpoint answers instead (QA). */
  readonly tokenFaults?: TokenFaults;
  /** The device authorization grant (RFC 8628). */
  readonly deviceFlow: DeviceFlow;
}

/** A banned account asks to authorize: refused in OAuth2's form, as the service refuses it. */
const bannedAccount = (): Error => new OAuthError(403, 'access_denied', 'The account is banned');

/** The OAuth2 routes under /api, /api/v9 and /api/v10. */
export function oauthApiRoutes(deps: OAuthRouteDeps): Route[] {
  const { oauth } = deps;
  const me = (ctx: RequestContext): UserRecord => ctx.user as UserRecord;
  return [
    {
      method: 'GET',
      pattern: '/oauth2/authorize',
      access: {},
      auth: 'user',
      bannedAnswer: bannedAccount,
      handle: (ctx) => ({ status: 200, body: oauth.preview(oauth.parseAuthorize(ctx.query), me(ctx)) }),
    },
    {
      method: 'POST',
      pattern: '/oauth2/authorize',
      access: {},
      auth: 'user',
      bannedAnswer: bannedAccount,
      handle: (ctx) => {
        const body = parseBody(AuthorizeBody, ctx.body);
        const request = oauth.parseAuthorize(ctx.query);
        const flow = body.rpc === true ? 'rpc' : 'browser';
        if (!body.authorize) {
          if (flow === 'rpc') throw new OAuthError(400, 'access_denied', ACCESS_DENIED_DESCRIPTION);
          return { status: 200, body: { location: oauth.denyLocation(request) } };
        }
        return { status: 200, body: oauth.approve(request, me(ctx), flow), headers: NO_STORE };
      },
    },
    {
      method: 'POST',
      pattern: '/oauth2/token',
      access: {},
      auth: 'none',
      body: 'raw',
      handle: async (ctx) => {
        const fields = form(ctx);
        const fault = deps.tokenFaults?.take(tokenRequestClientId(fields, authorizationHeader(ctx)), fields.get('grant_type'));
        if (fault !== undefined) return { status: fault.status, body: { error: fault.error, error_description: fault.error_description }, headers: NO_STORE };
        // A merge's refusal (external credentials with the code) is the platform's JSON error.
        return partnerAnswer(async () => ({ status: 200, body: await oauth.token(fields, authorizationHeader(ctx)), headers: NO_STORE }));
      },
    },
    {
      method: 'POST',
      pattern: '/oauth2/token/revoke',
      access: {},
      auth: 'none',
      body: 'raw',
      handle: (ctx) => {
        oauth.revoke(form(ctx), authorizationHeader(ctx));
        return { status: 200, body: {} };
      },
    },
    {
      method: 'GET',
      pattern: '/oauth2/@me',
      access: {},
      auth: 'bearer',
      handle: (ctx) => ({ status: 200, body: oauth.me(ctx.oauth as NonNullable<RequestContext['oauth']>) }),
    },
    {
      // Ours (RFC 7662 in spirit): the companion host, signed in as the user, asks what a game's
      // access token stands for, whatever its scopes. Only the token's own user gets an answer.
      method: 'POST',
      pattern: '/oauth2/token/introspect',
      access: {},
      auth: 'user',
      handle: (ctx) => {
        const { token } = parseBody(IntrospectBody, ctx.body);
        const auth = oauth.bearer(token);
        if (auth === undefined || auth.user.id !== me(ctx).id) return { status: 200, body: { active: false } };
        return { status: 200, body: { active: true, user_id: auth.user.id, ...oauth.me(auth) } };
      },
    },
    { method: 'GET', pattern: '/oauth2/tokens', access: {}, auth: 'user', handle: (ctx) => ({ status: 200, body: oauth.grantsOf(me(ctx)) }) },
    {
      method: 'DELETE',
      pattern: '/oauth2/tokens/:id',
      access: { id: 'grant' },
      auth: 'user',
      handle: (ctx) => {
        if (!oauth.deleteGrant(me(ctx), ctx.params.id as string)) throw new ApiError(404, ErrorCode.General, 'Unknown Grant');
        return { status: 204 };
      },
    },
    ...deviceRoutes(deps),
    { method: 'GET', pattern: '/oauth2/keys', access: {}, auth: 'none', handle: () => ({ status: 200, body: deps.keys.jwks() }) },
  ];
}

/**
 * The device authorization grant (RFC 8628): a console asks for codes (form-encoded, as the
 * token endpoint), and the signed-in player looks a user code up and approves or denies it
 * (JSON, our verification route **(ours)**: the real one is a web page).
 */
function deviceRoutes(deps: OAuthRouteDeps): Route[] {
  const { oauth, deviceFlow } = deps;
  const userCodeLimit = { bucket: 'device-verify', limit: deps.devLoginLimit, by: 'user' } as const;
  return [
    {
      method: 'POST',
      pattern: '/oauth2/device/authorize',
      access: {},
      auth: 'none',
      body: 'raw',
      rateLimit: { bucket: 'device-authorize', limit: deps.devLoginLimit, by: 'ip' },
      handle: (ctx) => {
        const fields = form(ctx);
        const query = new URLSearchParams({ client_id: fields.get('client_id') ?? '', scope: fields.get('scope') ?? '' });
        return { status: 200, body: deviceFlow.start(oauth.parseAuthorize(query)), headers: NO_STORE };
      },
    },
    {
      method: 'GET',
      pattern: '/oauth2/device/verify',
      access: {},
      auth: 'user',
      bannedAnswer: bannedAccount,
      rateLimit: userCodeLimit,
      handle: (ctx) => ({ status: 200, body: deviceFlow.preview(ctx.query.get('user_code') ?? '') }),
    },
    {
      method: 'POST',
      pattern: '/oauth2/device/verify',
      access: {},
      auth: 'user',
      bannedAnswer: bannedAccount,
      rateLimit: userCodeLimit,
      handle: (ctx) => {
        const body = parseBody(DeviceVerifyBody, ctx.body);
        if (!body.authorize) {
          deviceFlow.decide(body.user_code, { approved: false });
          return { status: 200, body: { approved: false } };
        }
        const result = oauth.approve(deviceFlow.requestOf(body.user_code), ctx.user as UserRecord, 'rpc');
        if (!('code' in result)) throw new Error('rpc flow answered without a code');
        deviceFlow.decide(body.user_code, { approved: true, code: result.code });
        return { status: 200, body: { approved: true } };
      },
    },
  ];
}

const HTML = 'text/html; charset=utf-8';
const PAGE_HEADERS = { 'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'", 'X-Frame-Options': 'DENY', 'Cache-Control': 'no-store' } as const;

function page(status: number, html: string): RouteResult {
  return { status, text: html, contentType: HTML, headers: PAGE_HEADERS };
}

function redirect(location: string): RouteResult {
  return { status: 302, headers: { Location: location, 'Cache-Control': 'no-store' } };
}

/** The device flow's verification page, `verification_uri` (`/activate`), with the dev login **(ours)**. */
function activateRoutes(deps: OAuthRouteDeps): Route[] {
  const { oauth, deviceFlow } = deps;
  const decide = (fields: URLSearchParams): RouteResult => {
    const userCode = (fields.get('user_code') ?? '').trim();
    const username = (fields.get('username') ?? '').trim();
    const user = username.length > 0 ? deps.store.userByName(username) : undefined;
    if (user === undefined) return page(400, renderActivatePage(userCode, { text: `Unknown username "${username}".`, error: true }, username));
    try {
      if (fields.get('decision') !== 'approve') {
        deviceFlow.decide(userCode, { approved: false });
        return page(200, renderActivatePage('', { text: 'Cancelled: the device was not signed in.', error: false }));
      }
      const result = oauth.approve(deviceFlow.requestOf(userCode), user, 'rpc');
      if (!('code' in result)) throw new Error('rpc flow answered without a code');
      deviceFlow.decide(userCode, { approved: true, code: result.code });
      return page(200, renderActivatePage('', { text: 'Done: go back to your device.', error: false }));
    } catch (error) {
      if (error instanceof OAuthError) return page(error.status === 404 ? 404 : 400, renderActivatePage(userCode, { text: error.description, error: true }, username));
      throw error;
    }
  };
  return [
    { method: 'GET', pattern: '/activate', access: {}, auth: 'none', handle: (ctx) => page(200, renderActivatePage(ctx.query.get('user_code') ?? '')) },
    {
      method: 'POST',
      pattern: '/activate',
      access: {},
      auth: 'none',
      body: 'raw',
      rateLimit: { bucket: 'auth-login', limit: deps.devLoginLimit, by: 'ip' },
      handle: (ctx) => decide(ctx.contentType === 'application/x-www-form-urlencoded' ? new URLSearchParams(ctx.rawBody) : new URLSearchParams()),
    },
  ];
}

/** Routes outside /api: the browser authorize page and OIDC discovery. */
export function oauthRootRoutes(deps: OAuthRouteDeps): Route[] {
  const { oauth } = deps;

  /** The request, or the answer to give instead: an error page (bad client or redirect) or a redirect with the error. */
  const validate = (query: URLSearchParams): AuthorizeRequest | RouteResult => {
    let client: ReturnType<OAuthService['parseClient']>;
    let to: string;
    try {
      client = oauth.parseClient(query);
      to = oauth.browserRedirect(client);
    } catch (error) {
      if (error instanceof OAuthError) return page(400, renderAuthorizeError(error));
      throw error;
    }
    try {
      return oauth.parseAuthorize(query);
    } catch (error) {
      if (error instanceof OAuthError) return redirect(withQuery(to, { error: error.error, error_description: error.description, state: query.get('state') }));
      throw error;
    }
  };
  const isRequest = (value: AuthorizeRequest | RouteResult): value is AuthorizeRequest => 'expanded' in value;

  return [
    {
      method: 'GET',
      pattern: '/oauth2/authorize',
      access: {},
      auth: 'none',
      handle: (ctx) => {
        const request = validate(ctx.query);
        if (!isRequest(request)) return request;
        return page(200, renderAuthorizePage(request, ctx.query));
      },
    },
    {
      method: 'POST',
      pattern: '/oauth2/authorize',
      access: {},
      auth: 'none',
      body: 'raw',
      rateLimit: { bucket: 'auth-login', limit: deps.devLoginLimit, by: 'ip' },
      handle: (ctx) => {
        const request = validate(ctx.query);
        if (!isRequest(request)) return request;
        const fields = ctx.contentType === 'application/x-www-form-urlencoded' ? new URLSearchParams(ctx.rawBody) : new URLSearchParams();
        const decision = fields.get('decision');
        if (decision === 'deny') return redirect(oauth.denyLocation(request));
        if (decision !== 'approve') return page(400, renderAuthorizePage(request, ctx.query, 'Choose Authorize or Cancel.'));
        const username = (fields.get('username') ?? '').trim();
        const user = username.length > 0 ? deps.store.userByName(username) : undefined;
        if (user === undefined) return page(400, renderAuthorizePage(request, ctx.query, `Unknown username "${username}".`, username));
        const result = oauth.approve(request, user, 'browser');
        if (!('location' in result)) throw new Error('browser flow answered without a location');
        return redirect(result.location);
      },
    },
    ...activateRoutes(deps),
    {
      method: 'GET',
      pattern: '/.well-known/openid-configuration',
      access: {},
      auth: 'none',
      handle: () => {
        const issuer = deps.url();
        // Like the real service: no userinfo_endpoint, no token_endpoint_auth_methods_supported.
        return {
          status: 200,
          body: {
            issuer,
            authorization_endpoint: `${issuer}/oauth2/authorize`,
            token_endpoint: `${issuer}/api/oauth2/token`,
            revocation_endpoint: `${issuer}/api/oauth2/token/revoke`,
            jwks_uri: `${issuer}/api/oauth2/keys`,
            response_types_supported: ['code'],
            grant_types_supported: ['authorization_code', 'refresh_token', DEVICE_CODE_GRANT],
            device_authorization_endpoint: `${issuer}/api/oauth2/device/authorize`,
            subject_types_supported: ['public'],
            id_token_signing_alg_values_supported: ['RS256'],
            scopes_supported: [...KNOWN_SCOPES],
            code_challenge_methods_supported: ['S256'],
            claims_supported: ['iss', 'sub', 'aud', 'iat', 'exp', 'nonce'],
          },
        };
      },
    },
  ];
}
