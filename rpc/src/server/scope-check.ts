import type { CommandSpec } from '../protocol/commands.js';
import type { EventSpec } from '../protocol/events.js';

/** The ERROR 4006 text, the same whether the connection is unauthenticated or lacks a scope. */
export const INVALID_SCOPE_MESSAGE = 'Not authenticated or invalid scope';

/** What the check reads of a connection (RpcConnection has these fields). */
export interface ScopeHolder {
  readonly authenticated: boolean;
  readonly scopes: ReadonlySet<string>;
}

/**
 * Whether a connection may use a command, or SUBSCRIBE to an event: a `local` one always (IPC
 * connections hold the `rpc.local` pseudo-scope); any other needs AUTHENTICATE and, when the
 * spec lists scopes, a token carrying at least one of them.
 */
export function isPermitted(connection: ScopeHolder, spec: CommandSpec | EventSpec): boolean {
  if (spec.local) return true;
  if (!connection.authenticated) return false;
  return spec.scopes === undefined || spec.scopes.some((scope) => connection.scopes.has(scope));
}
