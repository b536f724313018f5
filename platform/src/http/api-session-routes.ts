import * as v from 'valibot';
import { ok, parseBody } from './api-kit.js';
import type { HttpDeps } from './deps.js';
import { ApiError, ErrorCode, invalidField } from './errors.js';
import type { Route } from './router.js';
import { cameOverTls } from '../support/tls-socket.js';

const LoginBody = v.object({ login: v.pipe(v.string(), v.minLength(1)) });

/** Where the gateway is, and the emulator's dev login. */
export function sessionRoutes(deps: HttpDeps): Route[] {
  return [
    { method: 'GET', pattern: '/gateway', access: {}, auth: 'none', handle: (ctx) => ok({ url: deps.gatewayUrl(cameOverTls(ctx.request)) }) },
    {
      method: 'POST',
      pattern: '/auth/login',
      access: {},
      auth: 'none',
      rateLimit: { bucket: 'auth-login', limit: () => deps.limits.http.devLogin, by: 'ip' },
      handle: (ctx) => {
        const { login } = parseBody(LoginBody, ctx.body);
        const user = deps.store.userByName(login);
        if (user === undefined) throw invalidField('login', 'INVALID_LOGIN', 'Unknown username');
        if (deps.store.ban(user.id) !== undefined) throw new ApiError(403, ErrorCode.General, 'This account is banned');
        deps.logger.info({ userId: user.id }, 'dev login');
        return ok({ user_id: user.id, token: user.token });
      },
    },
  ];
}
