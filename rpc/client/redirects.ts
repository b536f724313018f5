import { checkUriScheme, toU64String, type AuthorizationArgs } from './authorization-args.js';

/** The service-specific prefix of the default mobile redirect scheme (`discord-<application id>`). */
export const SERVICE_SCHEME_PREFIX = 'discord';

/**
 * The mobile-style redirect (seed, CustomSchemeParam): `<customSchemeParam>:/authorize/callback`,
 * else `discord-<applicationId>:/authorize/callback`. RangeError for an application id that is
 * not a u64 or a scheme that is not RFC 3986 syntax.
 */
export function mobileRedirectUri(applicationId: string | bigint, customSchemeParam?: string): string {
  const scheme = customSchemeParam !== undefined ? checkUriScheme(customSchemeParam) : `${SERVICE_SCHEME_PREFIX}-${toU64String(applicationId, 'applicationId')}`;
  return `${scheme}:/authorize/callback`;
}

/** The desktop (loopback) redirect of the browser flow: `http://127.0.0.1:<port>/callback`. */
export function desktopRedirectUri(port: number): string {
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new RangeError('port must be an integer within 1..65535');
  return `http://127.0.0.1:${port}/callback`;
}

/** `base` without trailing slashes (so `http://host/` and `http://host` give the same URLs). */
export function trimBase(base: string): string {
  return base.replace(/\/+$/, '');
}

/**
 * The browser authorize URL for `args`: `<platformBase>/oauth2/authorize?client_id=..&
 * response_type=code&scope=..&state=..&redirect_uri=..` then, when set, `nonce`,
 * `code_challenge` and `code_challenge_method`, and `integration_type`. `client_id` is
 * `args.clientId()`, else `applicationId`. Values are percent-encoded (a space is `%20`).
 * A game that registers its custom scheme itself passes `mobileRedirectUri(appId,
 * args.customSchemeParam())` as `redirectUri`, opens this URL, and reads `code` and `state`
 * from the redirect (it must compare `state` with the one it gave here).
 */
export function authorizeUrl(platformBase: string, args: AuthorizationArgs, applicationId: string | bigint, redirectUri: string, state: string): string {
  const clientId = args.clientId() ?? toU64String(applicationId, 'applicationId');
  const params: [string, string][] = [
    ['client_id', clientId],
    ['response_type', 'code'],
    ['scope', args.scopes()],
    ['state', state],
    ['redirect_uri', redirectUri],
  ];
  const nonce = args.nonce();
  if (nonce !== undefined) params.push(['nonce', nonce]);
  const challenge = args.codeChallenge();
  if (challenge !== undefined) params.push(['code_challenge', challenge.challenge()], ['code_challenge_method', challenge.method()]);
  const integrationType = args.integrationType();
  if (integrationType !== undefined) params.push(['integration_type', String(integrationType)]);
  const query = params.map(([key, value]) => `${key}=${encodeURIComponent(value)}`).join('&');
  return `${trimBase(platformBase)}/oauth2/authorize?${query}`;
}
