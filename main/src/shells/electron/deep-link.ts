/**
 * The deep-link entry (`<scheme>:/authorize/callback?code=…&state=…`): a
 * pure parser fed from `second-instance` argv, macOS `open-url` and the first launch's argv.
 * Only the exact form is accepted and only with a `state` we are waiting for; that state is
 * consumed, so a replayed link is refused. Anything else is ignored (and logged by the caller).
 */
export const DEEP_LINK_SCHEME = 'companion';
export const CALLBACK_PATH = '/authorize/callback';

/** The states of sign-ins in progress; a `Set<string>` fits. */
export interface PendingStates {
  has(state: string): boolean;
  delete(state: string): boolean;
}

export type CallbackResult =
  | { readonly ok: true; readonly state: string; readonly code: string }
  | { readonly ok: true; readonly state: string; readonly error: string }
  | { readonly ok: false; readonly reason: string };

const STATE = /^[A-Za-z0-9_-]{8,128}$/;
const CODE = /^[A-Za-z0-9._~-]{1,512}$/;
const ERROR = /^[a-z_]{1,64}$/;

export function parseCallbackUrl(raw: unknown, scheme: string, pendingStates: PendingStates): CallbackResult {
  if (typeof raw !== 'string') return { ok: false, reason: 'not a string' };
  if (raw.length > 2048) return { ok: false, reason: 'too long' };
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0020\u007f\\]/.test(raw)) return { ok: false, reason: 'control characters, spaces or backslashes' };
  // The exact prefix, checked before the URL parser can normalise `//host`, `..` or `%2e`.
  const prefix = `${scheme}:${CALLBACK_PATH}`;
  if (raw.slice(0, prefix.length).toLowerCase() !== prefix.toLowerCase()) return { ok: false, reason: 'not the callback path' };
  const rest = raw.slice(prefix.length);
  if (rest !== '' && !rest.startsWith('?')) return { ok: false, reason: 'not the callback path' };
  if (rest.includes('#')) return { ok: false, reason: 'fragment' };

  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'unparseable' };
  }
  if (url.protocol !== `${scheme.toLowerCase()}:` || url.host !== '' || url.username !== '' || url.pathname !== CALLBACK_PATH) {
    return { ok: false, reason: 'not the callback path' };
  }

  const params = url.searchParams;
  for (const key of new Set(params.keys())) {
    if (!['state', 'code', 'error', 'error_description'].includes(key)) return { ok: false, reason: `unexpected parameter ${key.slice(0, 32)}` };
    if (params.getAll(key).length !== 1) return { ok: false, reason: `repeated parameter ${key}` };
  }
  const state = params.get('state');
  if (state === null || !STATE.test(state)) return { ok: false, reason: 'missing or malformed state' };
  const code = params.get('code');
  const error = params.get('error');
  if ((code === null) === (error === null)) return { ok: false, reason: 'needs exactly one of code or error' };
  if (code !== null && !CODE.test(code)) return { ok: false, reason: 'malformed code' };
  if (error !== null && !ERROR.test(error)) return { ok: false, reason: 'malformed error' };
  if (!pendingStates.has(state)) return { ok: false, reason: 'unknown or already used state' };
  pendingStates.delete(state);
  return code !== null ? { ok: true, state, code } : { ok: true, state, error: error as string };
}

/** The first argument that looks like one of our links (Windows and Linux pass them in argv). */
export function findDeepLinkArg(argv: readonly string[], scheme: string): string | null {
  const prefix = `${scheme.toLowerCase()}:`;
  return argv.find((arg) => arg.toLowerCase().startsWith(prefix)) ?? null;
}
