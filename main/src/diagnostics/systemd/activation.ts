import type { Env } from '../../../../rpc/src/transport/ipc-paths.js';
import type { AdoptedByKind } from '../../../../rpc/src/transport/ipc-listener-set.js';
import { inheritedSockets, parseActivationName, type InheritedSocket } from '../../../../rpc/src/transport/socket-activation.js';

export interface Activation {
  /** Sockets from Companion's own units, by directory kind. */
  readonly adopted: readonly AdoptedByKind[];
  /** Inherited sockets Companion did not name (another unit's): left unused. */
  readonly ignored: readonly InheritedSocket[];
}

/** The sockets systemd passed to this process (socket activation), sorted into Companion's and others'. */
export function activationFromEnv(env: Env, pid: number): Activation {
  const adopted: AdoptedByKind[] = [];
  const ignored: InheritedSocket[] = [];
  for (const socket of inheritedSockets(env, pid)) {
    const named = parseActivationName(socket.name);
    if (named === undefined || adopted.some((a) => a.kind === named.kind)) ignored.push(socket);
    else adopted.push({ fd: socket.fd, kind: named.kind, index: named.index });
  }
  return { adopted, ignored };
}

/** The environment without the activation variables, so processes the host starts do not see them. */
export function withoutActivationVars(env: Env): Env {
  const { LISTEN_PID: _pid, LISTEN_FDS: _fds, LISTEN_FDNAMES: _names, ...rest } = env;
  return rest;
}
