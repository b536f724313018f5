import { call, ControlRequestError } from '../../base/control-client.js';
import type { HostEndpoint } from '../../base/host-locator.js';

/** The control server's message for a route it does not serve. */
const NO_SUCH_ROUTE = 'no such route';

/** Whether a control API answer to `/v1/inject/*` says the host has no such routes: it runs without QA mode. */
export function isQaOff(status: number, message: unknown): boolean {
  return status === 404 && message === NO_SUCH_ROUTE;
}

/** What to tell the tester about `host` (a label: "the host at URL"). */
export function qaOffMessage(host: string): string {
  return `${host} does not take injections: it runs without QA mode (start it with 'companion serve --qa')`;
}

/** A `/v1/inject/*` request: like control-client's call, with a clear message for a host without QA mode. */
export async function injectCall(host: HostEndpoint, method: string, route: string, body?: unknown): Promise<unknown> {
  try {
    return await call(host, method, route, body);
  } catch (error) {
    if (error instanceof ControlRequestError && isQaOff(error.status, error.message)) throw new ControlRequestError(404, qaOffMessage(`the host at ${host.url}`));
    throw error;
  }
}
