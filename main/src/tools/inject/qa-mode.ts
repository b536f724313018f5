import type { GatewayLogger } from '../../host/gateway/gateway-client.js';
import type { QaExtension } from '../../host/compose/qa-extension.js';
import { GatewayFaultSwitch } from './gateway-fault-switch.js';
import { injectRoutes } from './inject-routes.js';
import { createInjectionBackend } from './injection-backend.js';

/**
 * QA mode for one host (`companion serve --qa`, the scenario runner's host): the gateway's
 * fault switch and the control API's `/v1/inject/*` routes.
 */
export function qaMode(logger?: GatewayLogger): QaExtension {
  const faults = new GatewayFaultSwitch(logger);
  return {
    gatewayFaults: faults,
    controlRoutes: ({ server, session, platformAdmin }) =>
      injectRoutes(
        createInjectionBackend({
          server,
          // Signed out (or signing in) there is no gateway client to disturb.
          gateway: () => (session.status.status === 'signed-out' || session.status.status === 'signing-in' ? null : faults),
          gatewayStatus: () => `${session.status.status}: ${session.status.detail}`,
          platformAdmin,
        }),
      ),
  };
}
