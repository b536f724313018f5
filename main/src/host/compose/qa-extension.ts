import type { RpcServer } from '../../../../rpc/src/index.js';
import type { ControlRouteEntry } from '../control/control-server.js';
import type { GatewayFaultPort } from '../gateway/gateway-client.js';
import type { PlatformSession } from '../session/platform-session.js';

/** The host's parts QA mode works on. */
export interface QaHostParts {
  readonly server: RpcServer;
  readonly session: PlatformSession;
  /** The embedded emulator's admin API; null when the host uses another platform. */
  readonly platformAdmin: { readonly url: string; readonly adminToken: string } | null;
}

/**
 * QA mode, passed in by the shell that turns it on: a fault port the gateway client consults,
 * and control API routes mounted beside the product's. A host without it has neither.
 */
export interface QaExtension {
  readonly gatewayFaults: GatewayFaultPort;
  controlRoutes(parts: QaHostParts): readonly ControlRouteEntry[];
}
