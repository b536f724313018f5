import { InvalidRequest } from './control-schemas.js';

/** An error the HTTP layer answers itself, before or instead of the backend. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }
}

const STATUS_CODES: Readonly<Record<number, string>> = {
  400: 'invalid_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  410: 'gone',
  413: 'payload_too_large',
  422: 'unprocessable',
  429: 'rate_limited',
  502: 'bad_gateway',
  503: 'unavailable',
  504: 'gateway_timeout',
};

/** The status a backend error asks for, when it carries a usable one. */
export function errorStatus(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null || !('status' in error)) return undefined;
  const status = (error as { status: unknown }).status;
  return typeof status === 'number' && Number.isInteger(status) && status >= 400 && status <= 599 ? status : undefined;
}

function errorCode(error: unknown, status: number): string {
  const code = typeof error === 'object' && error !== null && 'code' in error ? (error as { code: unknown }).code : undefined;
  if (typeof code === 'string' && /^[a-z][a-z0-9_]{0,63}$/.test(code)) return code;
  return STATUS_CODES[status] ?? (status >= 500 ? 'internal_error' : 'error');
}

export function errorMessage(error: unknown): string {
  return error instanceof Error && error.message !== '' ? error.message : 'request failed';
}

/** Replaces every known secret in a string, for log fields built from error texts. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret !== '') out = out.split(secret).join('[redacted]');
  return out;
}

export interface ErrorAnswer {
  readonly status: number;
  readonly body: { readonly error: string; readonly message: string };
  readonly headers: Readonly<Record<string, string>>;
  /** For a 5xx from the backend: what the log gets (secrets replaced), else null. */
  readonly log: { readonly name: string; readonly message: string; readonly stack: string | undefined } | null;
}

/**
 * The answer to a failed request: the HTTP layer's own errors and invalid requests as they
 * are; a backend error with its status and message when it asks for one; anything else a
 * 500 with a generic message (its text only in the log, with `secrets` replaced).
 */
export function errorAnswer(error: unknown, secrets: readonly string[]): ErrorAnswer {
  if (error instanceof HttpError) return { status: error.status, body: { error: error.code, message: error.message }, headers: error.headers, log: null };
  if (error instanceof InvalidRequest) return { status: 400, body: { error: 'invalid_request', message: error.message }, headers: {}, log: null };
  const requested = errorStatus(error);
  const status = requested ?? 500;
  const body = requested === undefined ? { error: 'internal_error', message: 'internal error' } : { error: errorCode(error, requested), message: errorMessage(error) };
  if (status < 500) return { status, body, headers: {}, log: null };
  const name = error instanceof Error ? error.name : typeof error;
  const stack = error instanceof Error && error.stack !== undefined ? redact(error.stack, secrets) : undefined;
  return { status, body, headers: {}, log: { name, message: redact(errorMessage(error), secrets), stack } };
}
