/**
 * arRPC (github.com/OpenAsar/arrpc, plain Node, `ws` its one dependency) as a peer server of
 * the bench: fetched by hand into a folder outside the repository, named by BENCH_ARRPC.
 * Nothing of it is part of this repository.
 *
 *   git clone --depth 1 https://github.com/OpenAsar/arrpc /tmp/arrpc
 *   echo '[]' > /tmp/arrpc/src/process/detectable.json     # an empty game database
 *   (cd /tmp/arrpc && npm install --omit=dev --no-audit --no-fund)
 *   BENCH_ARRPC=/tmp/arrpc npm run bench -- arrpc
 *
 * It runs as `node <dir>/src/index.js` with process scanning off (ARRPC_NO_PROCESS_SCANNING=1;
 * the game database is read only for scanning, but parsed at start), its IPC socket in a
 * private XDG_RUNTIME_DIR (discord-ipc-0 there) and its web bridge on a free port
 * (ARRPC_BRIDGE_PORT=0). It also takes the first free WebSocket port of 6463-6472, as
 * `companion serve` does.
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { PlatformBenchContext } from './platform-phases.js';
import { startServer, type ServerProcess } from './servers.js';

/** arRPC's IPC transport logs `listening at <socket path>` (its bridge and WebSocket say `listening on <port>`). */
const ARRPC_READY = /listening at (\S+)\s*$/m;

/** The folder BENCH_ARRPC names, checked; the reason when it is not a usable arRPC checkout. */
export function arrpcProblem(dir: string): string | null {
  if (!existsSync(path.join(dir, 'src', 'index.js'))) return `BENCH_ARRPC=${dir}: no src/index.js there (see bench/src/arrpc-peer.ts for how to fetch arRPC)`;
  if (!existsSync(path.join(dir, 'node_modules', 'ws'))) return `BENCH_ARRPC=${dir}: its dependency ws is not installed (npm install --omit=dev in that folder)`;
  if (!existsSync(path.join(dir, 'src', 'process', 'detectable.json'))) return `BENCH_ARRPC=${dir}: src/process/detectable.json is missing (write '[]' there)`;
  return null;
}

/** A fresh arRPC process with its own runtime dir under the bench's temp dir. */
export async function startArrpc(ctx: PlatformBenchContext, dir: string, name: string, nodeFlags: readonly string[] = []): Promise<ServerProcess> {
  const base = path.join(ctx.tmpRoot, name);
  const run = path.join(base, 'run');
  await mkdir(run, { recursive: true, mode: 0o700 });
  return startServer(name, [...nodeFlags, path.join(dir, 'src', 'index.js')], path.join(base, 'out.log'), {
    cpus: ctx.serverCpus,
    env: { XDG_RUNTIME_DIR: run, ARRPC_NO_PROCESS_SCANNING: '1', ARRPC_BRIDGE_PORT: '0' },
    ready: ARRPC_READY,
  });
}
