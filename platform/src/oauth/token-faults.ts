/**
 * Errors the token endpoint answers instead of doing its work, armed through the admin API
 * (`/_emulator/oauth/token-errors`) so QA can see how a game copes with a failed exchange or
 * refresh. Each armed fault answers one request (or `count`), oldest first; a fault may be
 * limited to one application or one grant type.
 */
export interface TokenFaultInput {
  /** The OAuth2 `error` code, e.g. `invalid_grant`, `server_error`, `temporarily_unavailable`. */
  readonly error: string;
  readonly error_description?: string;
  /** HTTP status (default: 401 for invalid_client, 500 server_error, 503 temporarily_unavailable, else 400). */
  readonly status?: number;
  readonly application_id?: string;
  readonly grant_type?: 'authorization_code' | 'refresh_token';
  /** How many requests it answers (default 1). */
  readonly count?: number;
}

export interface TokenFault {
  readonly error: string;
  readonly error_description: string;
  readonly status: number;
  readonly application_id: string | null;
  readonly grant_type: 'authorization_code' | 'refresh_token' | null;
  remaining: number;
}

export const TOKEN_FAULT_ERROR = /^[a-z][a-z0-9_]{0,63}$/;
const MAX_ARMED = 100;

function defaultStatus(error: string): number {
  if (error === 'invalid_client') return 401;
  if (error === 'server_error') return 500;
  if (error === 'temporarily_unavailable') return 503;
  return 400;
}

/** Why a fault could not be armed; `field` names the input. */
export class TokenFaultError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = 'TokenFaultError';
  }
}

export class TokenFaults {
  private readonly armed: TokenFault[] = [];

  /** Arms a fault; throws TokenFaultError for bad input. Returns it as stored. */
  arm(input: TokenFaultInput): TokenFault {
    if (!TOKEN_FAULT_ERROR.test(input.error)) throw new TokenFaultError('error', 'error must be an OAuth2 error code (lower case letters, digits and _)');
    const status = input.status ?? defaultStatus(input.error);
    if (!Number.isInteger(status) || status < 400 || status > 599) throw new TokenFaultError('status', 'status must be an HTTP error status (400-599)');
    const count = input.count ?? 1;
    if (!Number.isInteger(count) || count < 1 || count > 1000) throw new TokenFaultError('count', 'count must be 1 to 1000');
    if (input.application_id !== undefined && !/^[0-9]{1,20}$/.test(input.application_id)) {
      throw new TokenFaultError('application_id', 'application_id must be an application id (digits)');
    }
    if (this.armed.length >= MAX_ARMED) throw new TokenFaultError('error', `at most ${MAX_ARMED} token errors can be armed at once`);
    const fault: TokenFault = {
      error: input.error,
      error_description: input.error_description ?? `Injected ${input.error} (the emulator was told to fail this token request)`,
      status,
      application_id: input.application_id ?? null,
      grant_type: input.grant_type ?? null,
      remaining: count,
    };
    this.armed.push(fault);
    return fault;
  }

  /** The faults still armed, oldest first. */
  list(): readonly TokenFault[] {
    return this.armed.map((fault) => ({ ...fault }));
  }

  /** Disarms everything; returns how many were armed. */
  clear(): number {
    return this.armed.splice(0).length;
  }

  /** The fault that answers this request, used up by one; undefined to serve it normally. */
  take(clientId: string | undefined, grantType: string | null): TokenFault | undefined {
    const index = this.armed.findIndex(
      (fault) => (fault.application_id === null || fault.application_id === clientId) && (fault.grant_type === null || fault.grant_type === grantType),
    );
    if (index < 0) return undefined;
    const fault = this.armed[index] as TokenFault;
    fault.remaining -= 1;
    if (fault.remaining <= 0) this.armed.splice(index, 1);
    return fault;
  }
}

/** The client id of a token request: the form's `client_id`, else HTTP Basic's user. */
export function tokenRequestClientId(form: URLSearchParams, authorization: string | undefined): string | undefined {
  const fromForm = form.get('client_id');
  if (fromForm !== null && fromForm !== '') return fromForm;
  const match = authorization === undefined ? null : /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(authorization.trim());
  if (match === null) return undefined;
  const decoded = Buffer.from(match[1] as string, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const user = colon < 0 ? decoded : decoded.slice(0, colon);
  try {
    return decodeURIComponent(user);
  } catch {
    return user;
  }
}
