import {
  authorizeError,
  parseAuthorizeArgs,
  RpcError,
  type AuthorizeArgs,
  type CommandContext,
  type CommandHandler,
} from '../../../../rpc/src/index.js';
import type { AuthorizePreview } from '../../../../platform/src/wire/index.js';
import { PlatformApiError, type AuthorizeQuery } from '../gateway/platform-api.js';
import type { AuthCommandsOptions, AuthPlatform } from './auth-ports.js';
import { consentOutcomeError } from './consent-broker.js';

function refusal(kind: Parameters<typeof authorizeError>[0], description: string): RpcError {
  const { code, message } = authorizeError(kind, description);
  return new RpcError(code, message);
}

const OAUTH_KINDS = ['invalid_scope', 'invalid_request', 'access_denied', 'server_error'] as const;

/** A failed platform call as the AUTHORIZE refusal it stands for. */
function oauthFailure(error: unknown): RpcError {
  if (error instanceof PlatformApiError && error.oauthError !== undefined) {
    const kind = (OAUTH_KINDS as readonly string[]).includes(error.oauthError)
      ? (error.oauthError as (typeof OAUTH_KINDS)[number])
      : 'invalid_request';
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

async function orRefusal<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    throw oauthFailure(error);
  }
}

/**
 * The application a connection may ask for: the one its handshake named. A code for another
 * app (whose grant the player may have given) must not come out without a prompt.
 */
function requestedApplication(connectionClientId: string | null, args: AuthorizeArgs): string {
  if (connectionClientId === null) throw refusal('invalid_request', 'no client_id');
  if (args.clientId !== undefined && args.clientId !== connectionClientId) {
    throw refusal('invalid_request', `client_id ${args.clientId} is not the application of this connection (${connectionClientId})`);
  }
  return connectionClientId;
}

function authorizeQuery(clientId: string, args: AuthorizeArgs): AuthorizeQuery {
  return {
    client_id: clientId,
    scope: args.scopes.join(' '),
    ...(args.state === undefined ? {} : { state: args.state }),
    ...(args.nonce === undefined ? {} : { nonce: args.nonce }),
    ...(args.codeChallenge === undefined ? {} : { code_challenge: args.codeChallenge, code_challenge_method: 'S256' }),
    ...(args.integrationType === undefined ? {} : { integration_type: args.integrationType }),
    ...(args.prompt === undefined ? {} : { prompt: args.prompt }),
  };
}

interface ConsentQuestion {
  readonly clientId: string;
  readonly args: AuthorizeArgs;
  readonly preview: AuthorizePreview;
  readonly connectionId: string;
  readonly signal: AbortSignal;
}

/**
 * AUTHORIZE: checks the args (rpc/), asks the platform what the request means (the consent
 * preview, or its invalid_scope / invalid_request error), asks the player through the consent
 * broker, and on approval obtains a code from the platform with the player's token, as the real
 * client does. Refusals follow the outcome table (rpc/src/protocol/authorize-outcomes.ts).
 */
export class AuthorizeCommand {
  constructor(private readonly options: AuthCommandsOptions) {}

  readonly handler: CommandHandler = (context) => this.run(context);

  private async run({ connection, request, signal }: CommandContext): Promise<{ code: string }> {
    const args = parseAuthorizeArgs(request.args);
    const clientId = requestedApplication(connection.clientId, args);
    const platform = this.signedIn();
    const query = authorizeQuery(clientId, args);
    const preview = await orRefusal(platform.authorizePreview(query));
    await this.askPlayer({ clientId, args, preview, connectionId: connection.id, signal });
    const { code } = await orRefusal(platform.authorize(query));
    this.options.onGranted?.({ applicationId: clientId, scopes: preview.expanded_scopes, integrationType: args.integrationType ?? null });
    return { code };
  }

  private signedIn(): AuthPlatform {
    const platform = this.options.platform();
    if (platform === null) throw refusal('server_error', 'Companion is not signed in to the platform');
    return platform;
  }

  /** Resolves when the player approved; throws the refusal of any other outcome. */
  private async askPlayer({ clientId, args, preview, connectionId, signal }: ConsentQuestion): Promise<void> {
    const outcome = await this.options.consent.ask({
      applicationId: clientId,
      applicationName: preview.application.name,
      applicationIcon: preview.application.icon,
      verified: preview.application.verified,
      scopes: [...args.scopes],
      integrationType: args.integrationType ?? null,
      prompt: args.prompt,
      connectionId,
      signal,
    });
    this.options.logger.info({ connection: connectionId, clientId, outcome: outcome.kind }, 'authorization decided');
    const refused = consentOutcomeError(outcome);
    if (refused !== null) throw new RpcError(refused.code, refused.message);
  }
}
