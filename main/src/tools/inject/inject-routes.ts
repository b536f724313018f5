import type { InjectionBackend } from './injection-backend.js';
import type { ControlRouteEntry } from '../../host/control/control-server.js';
import { parseEmpty } from '../../host/control/control-schemas.js';
import { parseGatewayFault, parseInjectEvent, parseOutputShaping, parseTokenError } from './inject-schemas.js';

/**
 * The QA injection routes under `/v1/inject`. Revoking a grant is not here: it is
 * `DELETE /v1/grants/{application_id}`, the same as the player's revoke.
 */
export function injectRoutes(inject: InjectionBackend): ControlRouteEntry[] {
  return [
    ['POST', '/v1/inject/event', async ({ body }) => inject.sendEvent(parseInjectEvent(body))],
    ['POST', '/v1/inject/output', async ({ body }) => inject.shapeOutput(parseOutputShaping(body))],
    ['POST', '/v1/inject/gateway', async ({ body }) => inject.gatewayFault(parseGatewayFault(body))],
    ['POST', '/v1/inject/token-error', async ({ body }) => inject.armTokenError(parseTokenError(body))],
    ['DELETE', '/v1/inject/token-error', async ({ body }) => {
      parseEmpty(body);
      return inject.clearTokenErrors();
    }],
  ];
}
