import {
  ACCESS_DENIED_MESSAGE,
  authorizeError,
  parseAuthorizeArgs,
  RpcError,
  RpcErrorCode,
  TIMED_OUT_MESSAGE,
  type CommandContext,
  type RpcLogger,
  type RpcServer,
} from '../../../../rpc/src/index.js';
import type { AuthorizePreview, PlatformUser, TokenIntrospection } from '../../../../platform/src/wire/index.js';
import { PlatformApiError, type AuthorizeQuery } from '../gateway/platform-api.js';

/** The player's answer, as the consent broker gives it. */
export type ConsentOutcome =
  | { readonly kind: 'approved'; readonly remembered: boolean }
  | { readonly kind: 'denied' }
  | { readonly kind: 'dismissed' }
  | { readonly kind: 'timed-out' };

export interface ConsentPort {
  ask(input: {
    applicationId: string;
    applicationName: string;
    applicationIcon: string | null;
    verified: boolean;
    scopes: string[];
    integrationType: number | null;
    prompt: 'consent' | 'none' | undefined;
    connectionId: string | null;
    signal?: AbortSignal;
  }): Promise<ConsentOutcome>;
}

/** The platform calls AUTHORIZE and AUTHENTICATE make, with the signed-in user's token. */
export interface AuthPlatform {
  authorizePreview(query: AuthorizeQuery): Promise<AuthorizePreview>;
  authorize(query: AuthorizeQuery): Promise<{ code: string; state?: string }>;
  introspect(accessToken: string): Promise<TokenIntrospection>;
}

export interface AuthCommandsOptions {
  readonly server: RpcServer;
  /** null while signed out. */
  readonly platform: () => AuthPlatform | null;
  readonly me: () => PlatformUser | null;
  readonly consent: ConsentPort;
  readonly logger: RpcLogger;
  /** After a code was issued, with what was granted (the host remembers it at once). */
  readonly onGranted?: (grant: { applicationId: string; scopes: readonly string[]; integrationType: number | null }) => void;
  /** Bumped whenever a grant is revoked: an AUTHENTICATE that overlapped one checks its token again. */
  readonly revocations: () => number;
}

function refusal(kind: Parameters<typeof authorizeError>[0], description: string): RpcError {
  const { code, message } = authorizeError(kind, description);
  return new RpcError(code, message);
}

function oauthFailure(error: unknown): RpcError {
  if (error instanceof PlatformApiError && error.oauthError !== undefined) {
    const known = ['invalid_scope', 'invalid_request', 'access_denied', 'server_error'] as const;
    const kind = (known as readonly string[]).includes(error.oauthError) ? (error.oauthError as (typeof known)[number]) : 'invalid_request';
    return refusal(kind, error.message);
  }
  // A fixed description: the platform's own message may name internal paths and request values.
  const description =
    error instanceof PlatformApiError && error.status === 0
      ? 'the platform cannot be reached'
      : error instanceof PlatformApiError
        ? `the platform failed (HTTP ${error.status})`
        : 'the platform failed';
  return refusal('server_error', description);
}

/**
 * AUTHORIZE and AUTHENTICATE, for the host:
 * - AUTHORIZE checks the args (rpc/), asks the platform what the request means (the consent
 *   preview, or its invalid_scope / invalid_request error), asks the player through the
 *   consent broker, and on approval obtains a code from the platform with the player's token,
 *   as the real client does. Refusals follow the outcome table (rpc/src/protocol/authorize-outcomes.ts).
 * - AUTHENTICATE asks the platform what the access token stands for; it must be the signed-in
 *   user's, else 4009. The connection then holds the token's scopes.
 */
export function installAuthCommands(options: AuthCommandsOptions): void {
  const { server } = options;

  server.setCommandHandler('AUTHORIZE', async ({ connection, request, signal }: CommandContext) => {
    const args = parseAuthorizeArgs(request.args);
    // A game may only ask for its own application: the handshake named it, and a code for
    // another app (whose grant the player may have given) must not come out without a prompt.
    const clientId = connection.clientId;
    if (clientId === null) throw refusal('invalid_request', 'no client_id');
    if (args.clientId !== undefined && args.clientId !== clientId) {
      throw refusal('invalid_request', `client_id ${args.clientId} is not the application of this connection (${clientId})`);
    }
    const platform = options.platform();
    if (platform === null) throw refusal('server_error', 'Companion is not signed in to the platform');
    const query: AuthorizeQuery = {
      client_id: clientId,
      scope: args.scopes.join(' '),
      ...(args.state === undefined ? {} : { state: args.state }),
      ...(args.nonce === undefined ? {} : { nonce: args.nonce }),
      ...(args.codeChallenge === undefined ? {} : { code_challenge: args.codeChallenge, code_challenge_method: 'S256' }),
      ...(args.integrationType === undefined ? {} : { integration_type: args.integrationType }),
      ...(args.prompt === undefined ? {} : { prompt: args.prompt }),
    };

    let preview: AuthorizePreview;
    try {
      preview = await platform.authorizePreview(query);
    } catch (error) {
      throw oauthFailure(error);
    }
    const outcome = await options.consent.ask({
      applicationId: clientId,
      applicationName: preview.application.name,
      applicationIcon: preview.application.icon,
      verified: preview.application.verified,
      scopes: [...args.scopes],
      integrationType: args.integrationType ?? null,
      prompt: args.prompt,
      connectionId: connection.id,
      signal,
    });
    options.logger.info({ connection: connection.id, clientId, outcome: outcome.kind }, 'authorization decided');
    if (outcome.kind === 'timed-out') throw new RpcError(RpcErrorCode.OAuth2Error, TIMED_OUT_MESSAGE);
    if (outcome.kind !== 'approved') throw new RpcError(RpcErrorCode.OAuth2Error, ACCESS_DENIED_MESSAGE);

    let code: string;
    try {
      ({ code } = await platform.authorize(query));
    } catch (error) {
      throw oauthFailure(error);
    }
    options.onGranted?.({ applicationId: clientId, scopes: preview.expanded_scopes, integrationType: args.integrationType ?? null });
    return { code };
  });

  server.setCommandHandler('AUTHENTICATE', async ({ connection, request }: CommandContext) => {
    const token = (request.args as { access_token?: unknown }).access_token;
    if (typeof token !== 'string' || token === '') throw new RpcError(RpcErrorCode.InvalidToken, 'Invalid access token');
    const platform = options.platform();
    if (platform === null) throw new RpcError(RpcErrorCode.ServiceUnavailable, 'Companion is not signed in to the platform');
    const check = async (): Promise<Extract<TokenIntrospection, { active: true }>> => {
      let found: TokenIntrospection;
      try {
        found = await platform.introspect(token);
      } catch {
        throw new RpcError(RpcErrorCode.ServiceUnavailable, 'The platform cannot check the token right now; try again');
      }
      // Inactive covers unknown, expired, revoked, and another user's token (the platform
      // answers only for the user asking).
      if (!found.active) throw new RpcError(RpcErrorCode.InvalidToken, 'Token does not match current user');
      return found;
    };
    const epoch = options.revocations();
    let me = await check();
    // A revocation while we waited may have been for this token: ask once more.
    if (options.revocations() !== epoch) me = await check();
    const user = options.me();
    if (user === null || me.user_id !== user.id) throw new RpcError(RpcErrorCode.InvalidToken, 'Token does not match current user');
    if (me.application.id !== connection.clientId) {
      throw new RpcError(RpcErrorCode.InvalidToken, 'Invalid access token: it was issued to another application');
    }
    connection.authenticated = true;
    connection.scopes = new Set(me.scopes);
    connection.authenticatedApplicationId = me.application.id;
    options.logger.info({ connection: connection.id, applicationId: me.application.id, scopes: me.scopes.length }, 'client authenticated');
    return {
      application: {
        id: me.application.id,
        name: me.application.name,
        icon: me.application.icon,
        description: me.application.description,
        rpc_origins: me.application.rpc_origins,
      },
      expires: me.expires,
      scopes: me.scopes,
      user: {
        id: user.id,
        username: user.username,
        discriminator: user.discriminator,
        global_name: user.global_name,
        avatar: user.avatar,
        bot: user.bot,
        flags: user.flags,
        premium_type: user.premium_type,
      },
      access_token: token,
    };
  });
}
