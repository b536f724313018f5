import { RpcError, RpcErrorCode, type CommandContext, type CommandHandler } from '../../../../rpc/src/index.js';
import type { PlatformUser, TokenIntrospection } from '../../../../platform/src/wire/index.js';
import { PlatformApiError } from '../gateway/platform-api.js';
import type { AuthCommandsOptions, AuthPlatform } from './auth-ports.js';

type ActiveToken = Extract<TokenIntrospection, { active: true }>;

function tokenArg(args: Record<string, unknown>): string {
  const token = (args as { access_token?: unknown }).access_token;
  if (typeof token !== 'string' || token === '') throw new RpcError(RpcErrorCode.InvalidToken, 'Invalid access token');
  return token;
}

/** What the platform says the token stands for; throws unless it is active. */
async function introspectActive(platform: AuthPlatform, token: string): Promise<ActiveToken> {
  let found: TokenIntrospection;
  try {
    found = await platform.introspect(token);
  } catch (error) {
    // 400: the platform refused the token itself (longer than any token it issues): the game's
    // input, not an outage.
    if (error instanceof PlatformApiError && error.status === 400) throw new RpcError(RpcErrorCode.InvalidToken, 'Invalid access token');
    throw new RpcError(RpcErrorCode.ServiceUnavailable, 'The platform cannot check the token right now; try again');
  }
  // Inactive covers unknown, expired, revoked, and another user's token (the platform
  // answers only for the user asking).
  if (!found.active) throw new RpcError(RpcErrorCode.InvalidToken, 'Token does not match current user');
  return found;
}

function authenticateReply(me: ActiveToken, user: PlatformUser, token: string): unknown {
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
}

/**
 * AUTHENTICATE: asks the platform what the access token stands for; it must be the signed-in
 * user's, for the connection's application, else 4009. The connection then holds the token's scopes.
 */
export class AuthenticateCommand {
  constructor(private readonly options: AuthCommandsOptions) {}

  readonly handler: CommandHandler = (context) => this.run(context);

  private async run({ connection, request }: CommandContext): Promise<unknown> {
    const token = tokenArg(request.args);
    const platform = this.options.platform();
    if (platform === null) throw new RpcError(RpcErrorCode.ServiceUnavailable, 'Companion is not signed in to the platform');
    const me = await this.checkedAcrossRevocations(platform, token);
    const user = this.options.me();
    if (user === null || me.user_id !== user.id) throw new RpcError(RpcErrorCode.InvalidToken, 'Token does not match current user');
    if (me.application.id !== connection.clientId) {
      throw new RpcError(RpcErrorCode.InvalidToken, 'Invalid access token: it was issued to another application');
    }
    connection.authenticated = true;
    connection.scopes = new Set(me.scopes);
    connection.authenticatedApplicationId = me.application.id;
    this.options.logger.info({ connection: connection.id, applicationId: me.application.id, scopes: me.scopes.length }, 'client authenticated');
    return authenticateReply(me, user, token);
  }

  /** A revocation while we waited may have been for this token: then the platform is asked once more. */
  private async checkedAcrossRevocations(platform: AuthPlatform, token: string): Promise<ActiveToken> {
    const epoch = this.options.revocations();
    const me = await introspectActive(platform, token);
    return this.options.revocations() === epoch ? me : introspectActive(platform, token);
  }
}
