import { RpcServer, type ReadyIdentity, type RpcLogger } from '../../../../rpc/src/index.js';
import type { PlatformSession } from '../session/platform-session.js';
import { ApplicationDirectory } from './application-directory.js';
import { PlatformApplicationLookup } from './platform-application-lookup.js';
import { rpcUserFrom } from '../presence/rpc-user.js';
import { readyConfigFor } from './ready-identity.js';
import type { Teardown } from './teardown.js';

/** The RPC server games talk to, and the applications it knows through the platform. */
export interface RpcSide {
  readonly server: RpcServer;
  readonly apps: ApplicationDirectory;
}

/** The RPC server: READY names the session's user; application ids resolve through the platform. */
export function createRpcSide(
  session: PlatformSession,
  platformUrl: string,
  logger: RpcLogger,
  teardown: Teardown,
  caps: { readonly maxConnectionsPerPeer?: number } = {},
): RpcSide {
  const apps = new ApplicationDirectory(new PlatformApplicationLookup(session.publicApi, () => session.authedApi()));
  const config = readyConfigFor(platformUrl);
  const server = new RpcServer({
    identity: (): ReadyIdentity | null => {
      const user = session.user;
      return user === null ? null : { user: rpcUserFrom(user), config };
    },
    resolveApplication: (clientId) => apps.resolve(clientId),
    applicationName: (clientId) => `Application ${clientId}`,
    logger,
    ...caps,
  });
  teardown.add(() => server.closeAll());
  return { server, apps };
}
