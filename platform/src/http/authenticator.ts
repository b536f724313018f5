import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Caller } from '../access/caller.js';
import type { AppRecord, UserRecord } from '../state/model.js';
import type { Store } from '../state/store.js';
import { missingOAuthScope, unauthorized } from './errors.js';
import type { BearerAuth, Route } from './router.js';

/** What a request's credentials stand for. */
export interface Credentials {
  readonly user?: UserRecord;
  readonly oauth?: BearerAuth;
  readonly bot?: AppRecord;
  readonly caller: Caller;
}

export interface AuthenticatorOptions {
  /** What an OAuth2 access token stands for; undefined when it is unknown, expired or revoked. */
  readonly bearer: (token: string) => BearerAuth | undefined;
  readonly store: Store;
  readonly adminToken: string;
}

const ANONYMOUS: Credentials = { caller: { kind: 'anonymous' } };

/**
 * Who a request is, by the kind of credentials its route takes: none, the admin token, an
 * application's bot token, an OAuth2 Bearer token (with the route's scopes) or a user token.
 * A ban ends every token of the account, user tokens included, on every route.
 */
export class RequestAuthenticator {
  private readonly adminToken: Buffer;

  constructor(private readonly options: AuthenticatorOptions) {
    this.adminToken = Buffer.from(options.adminToken);
  }

  /** The request's credentials; throws 401 (or the route's answer to a banned account) when they do not hold. */
  authenticate(route: Route, request: IncomingMessage): Credentials {
    const header = request.headers.authorization;
    if (route.auth === 'none') return ANONYMOUS;
    if (header === undefined) throw unauthorized();
    if ((route.auth === 'bot' || route.auth === 'bearer-or-bot') && header.startsWith('Bot ')) return this.bot(header.slice(4).trim());
    if (route.auth === 'bot') throw unauthorized();
    if (route.auth === 'admin') return this.admin(header);
    if (header.startsWith('Bearer ')) return this.bearer(route, header.slice(7).trim());
    if (route.auth === 'bearer' || route.auth === 'bearer-or-bot') throw unauthorized();
    const user = this.usable(route, this.options.store.userByToken(header));
    return { user, caller: { kind: 'player', user } };
  }

  private bot(token: string): Credentials {
    const app = appByBotToken(this.options.store, token);
    if (app === undefined) throw unauthorized();
    return { bot: app, caller: { kind: 'game-server', app } };
  }

  private admin(header: string): Credentials {
    const given = Buffer.from(header.startsWith('Admin ') ? header.slice(6) : '');
    if (given.length !== this.adminToken.length || !timingSafeEqual(given, this.adminToken)) throw unauthorized();
    return ANONYMOUS;
  }

  private bearer(route: Route, token: string): Credentials {
    if (route.auth !== 'bearer' && route.bearerScopes === undefined) throw unauthorized();
    const oauth = this.options.bearer(token);
    if (oauth === undefined) throw unauthorized();
    const user = this.usable(route, oauth.user);
    if (route.bearerScopes !== undefined && !route.bearerScopes.some((scope) => oauth.scopes.includes(scope))) throw missingOAuthScope();
    return { user, oauth, caller: { kind: 'game-player', user, applicationId: oauth.applicationId } };
  }

  /** The token's user, unless there is none (401) or the account is banned. */
  private usable(route: Route, user: UserRecord | undefined): UserRecord {
    if (user === undefined) throw unauthorized();
    if (this.options.store.ban(user.id) !== undefined) throw route.bannedAnswer?.() ?? unauthorized();
    return user;
  }
}

/** The app whose bot token this is (compared in constant time), or undefined. */
function appByBotToken(store: Store, token: string): AppRecord | undefined {
  const given = Buffer.from(token);
  let found: AppRecord | undefined;
  for (const app of store.apps()) {
    const expected = Buffer.from(app.bot_token);
    if (given.length === expected.length && timingSafeEqual(given, expected)) found = app;
  }
  return found;
}
