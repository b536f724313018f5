// The control API's HTTP client: one request with the host's bearer token, the API's refusal as
// a ControlRequestError. Used by the CLI's client commands and by the QA tools.
import type { HostEndpoint } from './host-locator.js';
import { httpRequest, type HttpResult } from './http-request.js';

export class ControlRequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ControlRequestError';
  }
}

/**
 * One control API request; errors are ControlRequestError with the API's message. It goes
 * through node:http (httpRequest), not global fetch: fetch's keep-alive connections break
 * under Wine 8 before they connect (issue 27), and a loopback call needs none of undici.
 */
export async function call(host: HostEndpoint, method: string, route: string, body?: unknown): Promise<unknown> {
  let response: HttpResult;
  try {
    response = await httpRequest(`${host.url}${route}`, {
      method,
      headers: { Authorization: `Bearer ${host.token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      timeoutMs: 30_000,
    });
  } catch {
    throw new ControlRequestError(0, `the host at ${host.url} does not answer (from ${host.source}); is it still running?`);
  }
  let parsed: unknown;
  try {
    parsed = response.text === '' ? undefined : JSON.parse(response.text);
  } catch {
    parsed = undefined;
  }
  if (response.status < 200 || response.status > 299) {
    const message = (parsed as { message?: unknown } | undefined)?.message;
    throw new ControlRequestError(response.status, typeof message === 'string' ? message : `HTTP ${response.status}`);
  }
  return parsed;
}
