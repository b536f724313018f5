// The control API's HTTP client: one request with the host's bearer token, the API's refusal as
// a ControlRequestError. Used by the CLI's client commands and by the QA tools.
import type { HostEndpoint } from './host-locator.js';

export class ControlRequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ControlRequestError';
  }
}

/** One control API request; errors are ControlRequestError with the API's message. */
export async function call(host: HostEndpoint, method: string, route: string, body?: unknown): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(`${host.url}${route}`, {
      method,
      headers: { Authorization: `Bearer ${host.token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(30_000),
    });
  } catch {
    throw new ControlRequestError(0, `the host at ${host.url} does not answer (from ${host.source}); is it still running?`);
  }
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (!response.ok) {
    const message = (parsed as { message?: unknown } | undefined)?.message;
    throw new ControlRequestError(response.status, typeof message === 'string' ? message : `HTTP ${response.status}`);
  }
  return parsed;
}
