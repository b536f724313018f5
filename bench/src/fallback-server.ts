/**
 * Stand-in for `companion serve`, used only when out/main/src/cli.js cannot be started:
 * the real RpcServer from rpc/src behind the real IPC listener, without the host around it.
 *
 * Usage: node out/bench/src/fallback-server.js <dir>
 */
import { DEFAULT_MAX_CONNECTIONS, listenIpc, RpcServer } from '../../rpc/src/index.js';
import { BENCH_CONFIG, BENCH_USER } from './shared.js';
import { endWithParent } from './child-lifetime.js';

const dir = process.argv[2];
if (dir === undefined) {
  process.stderr.write('usage: fallback-server <dir>\n');
  process.exit(2);
}

const server = new RpcServer({
  identity: () => ({ user: BENCH_USER, config: BENCH_CONFIG }),
  applicationName: (clientId) => `Application ${clientId}`,
  // The bench's games all run in its own process: as `companion serve --max-connections-per-program 1024`.
  maxConnectionsPerPeer: DEFAULT_MAX_CONNECTIONS,
});
const listener = await listenIpc({ dir, onConnection: (socket) => server.attach(socket) });
process.stdout.write(`fallback runner listening on ${listener.path}\n`);

endWithParent(async () => {
  await server.closeAll();
  await listener.close();
});
