/**
 * What each `:param` of a route names, declared on the route itself so that the access policy
 * resolves it before the handler runs (http/handler.ts). Resolved by the policy:
 * - `lobby`: a lobby of the caller's application (another application's, or none: 404 10031);
 * - `lobby-or-gone`: the same, but a lobby the caller cannot see counts as already gone (a
 *   delete that is safe to repeat answers the same for both);
 * - `dm-channel`: a DM channel the caller's user is a recipient of;
 * - `guild`: a guild the caller's user is a member of;
 * - `channel`: a guild channel of a guild the user is in, or a DM they are a recipient of.
 * Declared, and checked by the service within what the policy resolved or as public facts:
 * - `message`: a message of the route's lobby or DM channel (404 10008 otherwise);
 * - `user`: a user id (public profiles; relationships are the caller's own), resolved by the
 *   policy: another game's provisional account is refused as unknown (404 10013);
 * - `application`: an application id (public facts);
 * - `invite`: a lobby channel invite code (made for one user; resolved by the policy as its
 *   lobby's: another application's tokens are answered 404 10006, as for no such code);
 * - `grant`: one of the caller's own OAuth2 grants;
 * - `asset`: a CDN file name.
 * A route that names nothing declares `{}` (the caller's own account, or a public answer).
 */
export type ParamKind = 'lobby' | 'lobby-or-gone' | 'dm-channel' | 'guild' | 'channel' | 'message' | 'user' | 'application' | 'invite' | 'grant' | 'asset';

export type RouteAccess = Readonly<Record<string, ParamKind>>;

/** The parts of a route the access check reads. */
export interface AccessDeclaringRoute {
  readonly method: string;
  readonly pattern: string;
  readonly auth: string;
  readonly access?: RouteAccess;
}

/**
 * What is wrong with a route table's access declarations: a route (other than the admin's)
 * that declares none, or a `:param` its declaration does not name. Empty when all is well;
 * the HTTP handler refuses to start with a table that has any.
 */
export function accessProblems(routes: readonly AccessDeclaringRoute[]): string[] {
  const problems: string[] = [];
  for (const route of routes) {
    if (route.auth === 'admin') continue;
    const where = `${route.method} ${route.pattern}`;
    if (route.access === undefined) {
      problems.push(`${where} declares no access rule`);
      continue;
    }
    const params = route.pattern
      .split('/')
      .filter((segment) => segment.startsWith(':'))
      .map((segment) => segment.slice(1));
    for (const param of params) if (route.access[param] === undefined) problems.push(`${where}: :${param} has no declared kind`);
    for (const declared of Object.keys(route.access)) if (!params.includes(declared)) problems.push(`${where}: declares :${declared}, which the pattern lacks`);
  }
  return problems;
}
