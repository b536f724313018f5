import { readFileSync } from 'node:fs';
import { mapsShowGlibc, oneMallocArenaEnv, restoreUserTunables } from './malloc-arenas.js';
import { collectorArgv, type NodeStart } from './collector-flags.js';

/*
 * `companion serve` starts node again, once, when a setting it runs with can only be given
 * before node starts: V8's collector on the main thread and without its memory reducer (Node 22
 * and 24, collector-flags.ts) and glibc's single malloc arena (Linux with glibc,
 * malloc-arenas.ts). process.execve (Node 22.15 and later; not on Windows) replaces the program
 * in the same process: the same pid and standard streams, about one node start-up more before
 * the socket is bound (measured with the collector's flag: 46-64 ms to 67-85 ms from spawn to a
 * connectable socket, docs/performance.md).
 * Node 20 has no execve and runs on as started. Under a debugger (--inspect, --debug) node runs on
 * as started too: the debugger's session would not survive the exec. The started node finds
 * both settings in place and runs on, so there is never a second exec.
 */

/** How this node was started, and what it can do. */
export interface ServeStart extends NodeStart {
  readonly env: NodeJS.ProcessEnv;
  readonly platform: NodeJS.Platform;
  /** Whether this node has process.execve. */
  readonly canExec: boolean;
  /** Whether the C library is glibc (its tunables apply). */
  readonly usesGlibc: boolean;
}

/** What node is started again with. */
export interface ServeExec {
  readonly argv: readonly string[];
  readonly env: NodeJS.ProcessEnv;
}

const DEBUGGER = /--(inspect|debug)/;

/** The argument vector and environment to start node with, or undefined to run on as started. */
export function serveExec(start: ServeStart): ServeExec | undefined {
  if (!start.canExec || start.platform === 'win32') return undefined;
  if (start.execArgv.some((arg) => DEBUGGER.test(arg)) || DEBUGGER.test(start.nodeOptions)) return undefined;
  const argv = collectorArgv(start);
  const env = start.platform === 'linux' ? oneMallocArenaEnv(start.env, start.usesGlibc) : undefined;
  if (argv === undefined && env === undefined) return undefined;
  return { argv: argv ?? [start.execPath, ...start.execArgv, ...start.argv.slice(1)], env: env ?? start.env };
}

type Execve = (file: string, args: readonly string[], env: NodeJS.ProcessEnv) => never;

function usesGlibc(): boolean {
  try {
    return mapsShowGlibc(readFileSync('/proc/self/maps', 'latin1'));
  } catch {
    return false;
  }
}

/**
 * Called first thing by `serve` (bin/companion.js): replaces this process with node started with
 * the settings, or returns when they are in place (then the environment is the user's again),
 * not wanted, or cannot be given.
 */
export function startServeTuned(): void {
  const execve = (process as { execve?: Execve }).execve;
  const exec = serveExec({
    execPath: process.execPath,
    execArgv: process.execArgv,
    argv: process.argv,
    nodeOptions: process.env['NODE_OPTIONS'] ?? '',
    nodeVersion: process.versions.node,
    env: process.env,
    platform: process.platform,
    canExec: typeof execve === 'function',
    usesGlibc: typeof execve === 'function' && process.platform === 'linux' && usesGlibc(),
  });
  if (exec === undefined || execve === undefined) {
    restoreUserTunables(process.env);
    return;
  }
  try {
    execve.call(process, process.execPath, exec.argv, exec.env);
  } catch {
    // The exec was refused (a sandbox, a missing binary): serve runs on as started.
  }
}
