import { createHash, timingSafeEqual } from 'node:crypto';
import type { Dispatcher } from '../gateway/sessions.js';
import type { PlatformLimits } from '../support/limits.js';
import type { PlatformLogger } from '../support/logger.js';
import { randomToken } from '../state/ids.js';
import type { AppRecord, GrantRecord, TokenRecord, UserRecord } from '../state/model.js';
import { toPlatformUser, type Store } from '../state/store.js';
import type { WebhookDeliverer } from '../webhooks/deliverer.js';
import {
  APPROVAL_SCOPES,
  KNOWN_SCOPES,
  OAuthGatewayEvent,
  WebhookEventType,
  expandScopes,
  type AuthorizePreview,
  type AuthorizeResult,
  type OAuthGrant,
  type OAuthMe,
  type TokenResponse,
} from '../wire/index.js';
import type { BearerAuth } from './bearer-auth.js';
import { DEVICE_CODE_GRANT, type DeviceFlow } from './device.js';
import { ACCESS_DENIED_DESCRIPTION, OAuthError, invalidClient, invalidGrant, invalidParam, invalidRequest, invalidScope, missingParam } from './errors.js';
import type { OidcKeys } from './jwt.js';

/** A validated authorize request (query of `/oauth2/authorize`). */
export interface AuthorizeRequest {
  readonly app: AppRecord;
  /** As requested. */
  readonly scopes: readonly string[];
  /** Umbrellas expanded. */
  readonly expanded: readonly string[];
  readonly state: string | null;
  readonly nonce: string | null;
  readonly codeChallenge: string | null;
  readonly integrationType: number | null;
  readonly prompt: 'consent' | 'none';
  /** As given (already checked against the app's registered URIs); null when omitted. */
  readonly redirectUri: string | null;
}

export interface OAuthServiceDeps {
  readonly store: Store;
  readonly dispatcher: Dispatcher;
  readonly webhooks: WebhookDeliverer;
  readonly keys: OidcKeys;
  readonly limits: PlatformLimits;
  readonly now: () => number;
  readonly logger: PlatformLogger;
  /** The app for an id, or undefined (a look-up never registers one). */
  readonly resolveApp: (id: string) => AppRecord | undefined;
  /** The emulator's URL: the OIDC issuer. */
  readonly issuer: () => string;
  /** A grant went (revoked, deauthorized): the game's own gateway sessions of that user end. */
  readonly grantRemoved?: (userId: string, applicationId: string) => void;
  /** One access token went while its grant stays (a refresh replaced it): the gateway sessions identified with it end. */
  readonly tokenEnded?: (tokenId: string) => void;
  /** The user removed the app from their Authorized Apps (after `grantRemoved`): a merged provisional account is unmerged. */
  readonly userDeauthorized?: (userId: string, applicationId: string) => void;
  /**
   * A code redeemed with `external_auth_type` and `external_auth_token`: the provisional
   * account of that identity is merged into the code's user (throws the refusal).
   */
  readonly mergeExternal?: (app: AppRecord, userId: string, type: string, token: string) => Promise<void>;
  /** The device authorization grant (RFC 8628): its polls are answered at the token endpoint. */
  readonly deviceFlow?: DeviceFlow;
}

/** How a token is cut: its life, whether a refresh token comes with it, and for child tokens the parent's grant. */
export interface TokenShape {
  readonly ttlMs: number;
  readonly refresh: boolean;
  readonly parentGrantId?: string;
}

const KNOWN = new Set<string>(KNOWN_SCOPES);
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

export function sha256(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/**
 * Whether a requested redirect matches a registered one: exactly, or for a loopback redirect
 * (`http://127.0.0.1/...`, `http://localhost/...`) with any port, as RFC 8252 section 7.3 asks
 * of servers, so a desktop app can listen on a free port for the one request.
 */
export function redirectMatches(registered: string, requested: string): boolean {
  if (registered === requested) return true;
  let a: URL;
  let b: URL;
  try {
    a = new URL(registered);
    b = new URL(requested);
  } catch {
    return false;
  }
  const loopback = (url: URL): boolean => url.protocol === 'http:' && (url.hostname === '127.0.0.1' || url.hostname === '[::1]' || url.hostname === 'localhost');
  return loopback(a) && loopback(b) && a.hostname === b.hostname && a.pathname === b.pathname && a.search === b.search;
}

/** `redirect_uri` with query parameters added (works for custom schemes too). */
export function withQuery(uri: string, params: Readonly<Record<string, string | null | undefined>>): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== null && value !== undefined) query.set(key, value);
  const hash = uri.indexOf('#');
  const base = hash >= 0 ? uri.slice(0, hash) : uri;
  return `${base}${base.includes('?') ? '&' : '?'}${query.toString()}`;
}

/**
 * The OAuth2 authorization server of the emulator: authorize requests, grants, codes,
 * tokens, revocation, and the events that go with them (gateway dispatches, webhooks).
 * Codes and tokens are stored as SHA-256 hashes; nothing secret is logged.
 */
export class OAuthService {
  constructor(private readonly deps: OAuthServiceDeps) {}

  // ---- authorize

  /** The app and the redirect of a request: what must be right before errors can be redirected. */
  parseClient(query: URLSearchParams): { app: AppRecord; redirectUri: string | null } {
    const clientId = query.get('client_id');
    if (clientId === null || clientId.length === 0) throw missingParam('client_id');
    const app = this.deps.resolveApp(clientId);
    if (app === undefined) throw new OAuthError(400, 'invalid_client', `Unknown application "${clientId}"`);
    if (isChildApp(app)) throw new OAuthError(400, 'invalid_client', 'A game (child) application cannot authorize: authorize with its publisher application');
    const redirectUri = query.get('redirect_uri');
    if (redirectUri !== null && !app.redirect_uris.some((registered) => redirectMatches(registered, redirectUri))) throw invalidParam('redirect_uri');
    return { app, redirectUri };
  }

  /** Validates an authorize request; throws the OAuthError it would get. */
  parseAuthorize(query: URLSearchParams): AuthorizeRequest {
    const { app, redirectUri } = this.parseClient(query);
    const responseType = query.get('response_type');
    if (responseType !== null && responseType !== 'code') throw new OAuthError(400, 'unsupported_response_type', `Unsupported "response_type": only "code"`);
    const scopes = (query.get('scope') ?? '').split(/[\s+]+/).filter((scope) => scope.length > 0);
    if (scopes.length === 0) throw invalidScope('The request has no scopes');
    for (const scope of scopes) if (!KNOWN.has(scope)) throw invalidScope(`The scope "${scope}" is not a valid scope`);
    const expanded = expandScopes(scopes);
    for (const scope of expanded) {
      if (APPROVAL_SCOPES.includes(scope) && !app.approved_scopes.includes(scope)) throw invalidScope(`The scope "${scope}" requires approval`);
    }
    const challenge = query.get('code_challenge');
    const method = query.get('code_challenge_method');
    if (challenge !== null) {
      if (method !== 'S256') throw invalidRequest('Invalid "code_challenge_method" in request: only "S256" is supported.');
      if (!CHALLENGE.test(challenge)) throw invalidParam('code_challenge');
    } else if (method !== null) {
      throw missingParam('code_challenge');
    }
    const integration = query.get('integration_type');
    if (integration !== null && integration !== '0' && integration !== '1') throw invalidParam('integration_type');
    const prompt = query.get('prompt') ?? 'consent';
    if (prompt !== 'consent' && prompt !== 'none') throw invalidParam('prompt');
    return {
      app,
      scopes,
      expanded,
      state: query.get('state'),
      nonce: query.get('nonce'),
      codeChallenge: challenge,
      integrationType: integration === null ? null : Number(integration),
      prompt,
      redirectUri,
    };
  }

  /** Where a browser flow goes: the given redirect, else the app's first one. */
  browserRedirect(request: { app: AppRecord; redirectUri: string | null }): string {
    const uri = request.redirectUri ?? request.app.redirect_uris[0];
    if (uri === undefined) throw missingParam('redirect_uri');
    return uri;
  }

  preview(request: AuthorizeRequest, user: UserRecord): AuthorizePreview {
    const grant = this.deps.store.grantFor(user.id, request.app.id);
    const authorized =
      grant !== undefined &&
      request.expanded.every((scope) => grant.scopes.includes(scope)) &&
      (request.integrationType === null || grant.integration_type === request.integrationType);
    return {
      application: { id: request.app.id, name: request.app.name, icon: request.app.icon, description: request.app.description, verified: request.app.verified },
      scopes: request.scopes,
      expanded_scopes: request.expanded,
      user: { id: user.id, username: user.username },
      authorized,
    };
  }

  /**
   * The user approved: records or widens the grant, tells the user's sessions and the app's
   * webhook, and issues a code (bound to the redirect for browser flows, to none for RPC).
   */
  approve(request: AuthorizeRequest, user: UserRecord, flow: 'rpc' | 'browser'): AuthorizeResult {
    const { store, logger, now, limits } = this.deps;
    if (store.ban(user.id) !== undefined) throw new OAuthError(403, 'access_denied', 'The account is banned');
    const redirect = flow === 'browser' ? this.browserRedirect(request) : null;
    const grant = store.upsertGrant(user.id, request.app.id, request.expanded, request.integrationType);
    const code = randomToken();
    store.addCode({
      code_hash: sha256(code),
      grant_id: grant.id,
      application_id: request.app.id,
      user_id: user.id,
      scopes: [...request.expanded],
      redirect_uri: redirect,
      redirect_uri_given: redirect !== null && request.redirectUri !== null,
      code_challenge: request.codeChallenge,
      nonce: request.nonce,
      expires_at: now() + limits.oauthCodeTtlMs,
    });
    logger.info({ userId: user.id, applicationId: request.app.id, grantId: grant.id, flow, scopes: request.expanded.length }, 'oauth2 authorized');
    this.deps.dispatcher.dispatchToUser(user.id, OAuthGatewayEvent.GrantCreate, { grant: this.toWireGrant(grant) });
    this.webhook(request.app, WebhookEventType.ApplicationAuthorized, {
      ...(request.integrationType !== null ? { integration_type: request.integrationType } : {}),
      user: toPlatformUser(user),
      scopes: [...request.expanded],
    });
    if (redirect === null) return { code, ...(request.state !== null ? { state: request.state } : {}) };
    return { location: withQuery(redirect, { code, state: request.state }) };
  }

  /** Where a denied browser flow goes. */
  denyLocation(request: AuthorizeRequest): string {
    return withQuery(this.browserRedirect(request), { error: 'access_denied', error_description: ACCESS_DENIED_DESCRIPTION, state: request.state });
  }

  // ---- token endpoint

  /** `POST /oauth2/token` with the form and the Authorization header. */
  async token(form: URLSearchParams, authorization: string | undefined): Promise<TokenResponse> {
    const grantType = form.get('grant_type');
    const device = grantType === DEVICE_CODE_GRANT ? this.deps.deviceFlow : undefined;
    if (grantType !== 'authorization_code' && grantType !== 'refresh_token' && device === undefined) throw new OAuthError(400, 'unsupported_grant_type', 'Unsupported grant type');
    const app = this.authenticateClient(form, authorization);
    if (device !== undefined) return this.redeemDevice(app, device.poll(app, form.get('device_code')), form);
    return grantType === 'authorization_code' ? this.redeemCode(app, form) : this.refresh(app, form);
  }

  /** Client authentication of the partner-sdk endpoints (JSON bodies): the app, or undefined when the id or secret is wrong. */
  clientOf(clientId: string, secret: string | undefined): AppRecord | undefined {
    try {
      return this.authenticateClient(new URLSearchParams({ client_id: clientId, ...(secret !== undefined ? { client_secret: secret } : {}) }), undefined);
    } catch {
      return undefined;
    }
  }

  /**
   * A token for a user and app outside the code flow (provisional accounts, child tokens):
   * the grant is recorded quietly (no GRANT_CREATE, no APPLICATION_AUTHORIZED) **(ours)**.
   */
  issueFor(userId: string, app: AppRecord, scopes: readonly string[], shape: TokenShape, grantType: string): TokenResponse {
    if (this.deps.store.ban(userId) !== undefined) throw invalidGrant('The account is banned');
    const expanded = expandScopes(scopes);
    const grant = this.deps.store.upsertGrant(userId, app.id, expanded, null);
    return this.issue(grant, expanded, null, grantType, shape);
  }

  /** Removes the user's grant of the app (tokens deleted, sessions ended, APPLICATION_DEAUTHORIZED); false when there was none. */
  removeGrantOf(userId: string, applicationId: string, why: string): boolean {
    const grant = this.deps.store.grantFor(userId, applicationId);
    if (grant === undefined) return false;
    this.removeGrant(grant, why);
    return true;
  }

  /** `POST /oauth2/token/revoke`: the token's grant goes, with every token of it. */
  revoke(form: URLSearchParams, authorization: string | undefined): void {
    const app = this.authenticateClient(form, authorization);
    const token = form.get('token');
    if (token === null || token.length === 0) throw missingParam('token');
    const hash = sha256(token);
    const found = form.get('token_type_hint') === 'refresh_token'
      ? (this.deps.store.tokenByRefresh(hash) ?? this.deps.store.tokenByAccess(hash))
      : (this.deps.store.tokenByAccess(hash) ?? this.deps.store.tokenByRefresh(hash));
    // RFC 7009: an unknown token (or another app's) is not an error.
    if (found === undefined || found.application_id !== app.id) return;
    const grant = this.deps.store.grant(found.grant_id);
    if (grant !== undefined) this.removeGrant(grant, 'token revoked');
  }

  /** What a Bearer token stands for; undefined when unknown, expired or revoked. */
  bearer(token: string): BearerAuth | undefined {
    const record = this.deps.store.tokenByAccess(sha256(token));
    if (record === undefined || record.expires_at <= this.deps.now()) return undefined;
    const user = this.deps.store.user(record.user_id);
    if (user === undefined || this.deps.store.grant(record.grant_id) === undefined) return undefined;
    if (record.parent_grant_id !== undefined && this.deps.store.grant(record.parent_grant_id) === undefined) return undefined;
    return { user, applicationId: record.application_id, scopes: record.scopes, tokenId: record.id, expiresAt: record.expires_at };
  }

  me(auth: BearerAuth): OAuthMe {
    const app = this.deps.store.app(auth.applicationId);
    const user = auth.user;
    return {
      application: {
        id: auth.applicationId,
        name: app?.name ?? '',
        icon: app?.icon ?? null,
        description: app?.description ?? '',
        rpc_origins: app?.rpc_origins ?? [],
      },
      scopes: auth.scopes,
      expires: new Date(auth.expiresAt).toISOString(),
      ...(auth.scopes.includes('identify')
        ? { user: { id: user.id, username: user.username, discriminator: '0', global_name: user.global_name, avatar: user.avatar } }
        : {}),
    };
  }

  // ---- grants

  grantsOf(user: UserRecord): OAuthGrant[] {
    return this.deps.store.grantsOf(user.id).map((grant) => this.toWireGrant(grant));
  }

  /** Deletes one of the user's grants; false when the user has no such grant. */
  deleteGrant(user: UserRecord, grantId: string): boolean {
    const grant = this.deps.store.grant(grantId);
    if (grant === undefined || grant.user_id !== user.id) return false;
    this.removeGrant(grant, 'grant deleted');
    this.deps.userDeauthorized?.(user.id, grant.application_id);
    return true;
  }

  toWireGrant(grant: GrantRecord): OAuthGrant {
    const app = this.deps.store.app(grant.application_id);
    return {
      id: grant.id,
      application: { id: grant.application_id, name: app?.name ?? '', icon: app?.icon ?? null },
      scopes: [...grant.scopes],
      integration_type: grant.integration_type,
      created_at: grant.created_at,
    };
  }

  /** A PING to the app's webhook URL (sent when the URL is set). */
  ping(app: AppRecord): void {
    this.deps.webhooks.deliver(app, { version: 1, application_id: app.id, type: 0 });
  }

  // ---- internals

  private removeGrant(grant: GrantRecord, why: string): void {
    const wire = this.toWireGrant(grant);
    this.deps.store.deleteGrant(grant.id);
    this.deps.logger.info({ userId: grant.user_id, applicationId: grant.application_id, grantId: grant.id }, `oauth2 ${why}`);
    this.deps.dispatcher.dispatchToUser(grant.user_id, OAuthGatewayEvent.GrantDelete, { grant: wire });
    this.deps.grantRemoved?.(grant.user_id, grant.application_id);
    const app = this.deps.store.app(grant.application_id);
    const user = this.deps.store.user(grant.user_id);
    if (app !== undefined && user !== undefined) this.webhook(app, WebhookEventType.ApplicationDeauthorized, { user: toPlatformUser(user) });
  }

  private webhook(app: AppRecord, type: string, data: unknown): void {
    this.deps.webhooks.deliverEvent(app, type, data, this.deps.now());
  }

  /**
   * Client authentication: HTTP Basic or body `client_id`/`client_secret`. Public clients may
   * omit the secret (an empty one or the string `undefined` counts as omitted); a secret that
   * is sent must be right.
   */
  private authenticateClient(form: URLSearchParams, authorization: string | undefined): AppRecord {
    let clientId = form.get('client_id');
    let secret = form.get('client_secret');
    if (authorization !== undefined && /^basic /i.test(authorization)) {
      const decoded = Buffer.from(authorization.slice(6).trim(), 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon < 0) throw invalidClient();
      let basicId: string;
      let basicSecret: string;
      try {
        basicId = decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' '));
        basicSecret = decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' '));
      } catch {
        throw invalidClient();
      }
      if (clientId !== null && clientId !== basicId) throw invalidClient();
      clientId = basicId;
      secret = basicSecret;
    }
    if (clientId === null || clientId.length === 0) throw invalidClient();
    const app = this.deps.store.app(clientId);
    if (app === undefined) throw invalidClient();
    if (secret === null || secret === '' || secret === 'undefined') {
      if (!app.public_client) throw invalidClient();
      return app;
    }
    const given = Buffer.from(sha256(secret), 'hex');
    const expected = Buffer.from(sha256(app.client_secret), 'hex');
    if (!timingSafeEqual(given, expected)) throw invalidClient();
    return app;
  }

  private async redeemCode(app: AppRecord, form: URLSearchParams): Promise<TokenResponse> {
    const { store } = this.deps;
    const code = form.get('code');
    if (code === null || code.length === 0) throw missingParam('code');
    const hash = sha256(code);
    const record = store.code(hash);
    if (record === undefined || record.application_id !== app.id) throw invalidGrant('Invalid "code" in request.');
    const grant = store.grant(record.grant_id);
    if (grant === undefined) throw invalidGrant('Invalid "code" in request.');
    if (record.redirect_uri !== null) {
      // Browser-flow codes are bound to their redirect; RPC codes ignore redirect_uri (even "undefined").
      const given = form.get('redirect_uri');
      if (given === null && record.redirect_uri_given) throw missingParam('redirect_uri');
      if (given !== null && given !== record.redirect_uri) throw invalidGrant('Invalid "redirect_uri" in request.');
    }
    if (record.code_challenge !== null) {
      const verifier = form.get('code_verifier');
      if (verifier === null || verifier.length === 0) throw missingParam('code_verifier');
      const computed = createHash('sha256').update(verifier, 'ascii').digest('base64url');
      if (!VERIFIER.test(verifier) || computed !== record.code_challenge) throw invalidGrant('Invalid "code_verifier" in request.');
    }
    await this.mergeOnRedeem(app, record.user_id, form);
    if (store.code(hash) === undefined) throw invalidGrant('Invalid "code" in request.');
    store.deleteCode(hash);
    return this.issue(grant, record.scopes, record.nonce, 'authorization_code', this.defaultShape());
  }

  /**
   * An approved device code: the authorization code its approval made is redeemed, with the
   * poll's `external_auth_type` / `external_auth_token` (a provisional account merged) when given.
   */
  private redeemDevice(app: AppRecord, code: string, form: URLSearchParams): Promise<TokenResponse> {
    const fields = new URLSearchParams({ code });
    for (const name of ['external_auth_type', 'external_auth_token']) {
      const value = form.get(name);
      if (value !== null) fields.set(name, value);
    }
    return this.redeemCode(app, fields);
  }

  /** `external_auth_type` + `external_auth_token` with a code: the provisional account is merged first (a refusal leaves the code unused). */
  private async mergeOnRedeem(app: AppRecord, userId: string, form: URLSearchParams): Promise<void> {
    const type = form.get('external_auth_type');
    const token = form.get('external_auth_token');
    if (type === null && token === null) return;
    if (type === null || type.length === 0) throw missingParam('external_auth_type');
    if (token === null || token.length === 0) throw missingParam('external_auth_token');
    if (this.deps.mergeExternal === undefined) throw invalidRequest('Provisional accounts are not available.');
    await this.deps.mergeExternal(app, userId, type, token);
  }

  private defaultShape(): TokenShape {
    return { ttlMs: this.deps.limits.oauthAccessTokenTtlMs, refresh: true };
  }

  private refresh(app: AppRecord, form: URLSearchParams): TokenResponse {
    const { store } = this.deps;
    const refreshToken = form.get('refresh_token');
    if (refreshToken === null || refreshToken.length === 0) throw missingParam('refresh_token');
    const record = store.tokenByRefresh(sha256(refreshToken));
    const grant = record === undefined ? undefined : store.grant(record.grant_id);
    if (record === undefined || grant === undefined || record.application_id !== app.id) throw invalidGrant('Invalid "refresh_token" in request');
    // The old pair is invalidated, and with it what the access token opened (its gateway sessions) **(ours)**.
    store.deleteToken(record.id);
    this.deps.tokenEnded?.(record.id);
    if (store.user(record.user_id)?.provisional !== true) return this.issue(grant, record.scopes, null, 'refresh_token', this.defaultShape());
    // Deprecated for OIDC provisional accounts, though it still works: another hour **(ours)**.
    this.deps.logger.warn({ userId: record.user_id, applicationId: app.id }, 'refresh_token grant for a provisional account (deprecated: exchange a fresh provider token instead)');
    return this.issue(grant, record.scopes, null, 'refresh_token', { ttlMs: this.deps.limits.provisionalTokenTtlMs, refresh: true });
  }

  private issue(grant: GrantRecord, scopes: readonly string[], nonce: string | null, grantType: string, shape: TokenShape): TokenResponse {
    const { store, now, logger } = this.deps;
    const accessToken = randomToken();
    const refreshToken = randomToken();
    const issuedAt = now();
    const record: TokenRecord = {
      id: store.ids.next(),
      grant_id: grant.id,
      application_id: grant.application_id,
      user_id: grant.user_id,
      scopes: [...scopes],
      access_hash: sha256(accessToken),
      // Without a refresh token the hash is of a token nobody is given.
      refresh_hash: sha256(refreshToken),
      expires_at: issuedAt + shape.ttlMs,
      ...(shape.parentGrantId !== undefined ? { parent_grant_id: shape.parentGrantId } : {}),
    };
    store.addToken(record);
    logger.info({ userId: grant.user_id, applicationId: grant.application_id, grantId: grant.id, tokenId: record.id, grantType }, 'oauth2 token issued');
    const expiresIn = Math.round(shape.ttlMs / 1000);
    const response: TokenResponse = { access_token: accessToken, token_type: 'Bearer', expires_in: expiresIn, ...(shape.refresh ? { refresh_token: refreshToken } : {}), scope: scopes.join(' ') };
    if (!scopes.includes('openid')) return response;
    const iat = Math.floor(issuedAt / 1000);
    const idToken = this.deps.keys.sign({
      iss: this.deps.issuer(),
      sub: grant.user_id,
      aud: grant.application_id,
      iat,
      exp: iat + expiresIn,
      ...(nonce !== null ? { nonce } : {}),
    });
    return { ...response, id_token: idToken };
  }
}

/** A game (child) application of a publisher: it gets tokens only through `/partner-sdk/child-token`. */
export function isChildApp(app: AppRecord): boolean {
  return typeof app.parent_application_id === 'string' && app.parent_application_id.length > 0;
}
