import { activationName, FLATPAK_DISCORD_SUBDIR, ipcSocketName, SNAP_DISCORD_SUBDIR, type ActivatableKind } from '../../../../rpc/src/index.js';

/** The service the socket units start. */
export const SERVICE_UNIT = 'companion.service';

/** The first line of every unit Companion writes; uninstall-sockets looks for it. */
export const UNIT_MARKER = "# Written by 'companion install-sockets'; removed by 'companion uninstall-sockets'.";

export interface SocketUnitOptions {
  /** The command that starts the host, e.g. [node, /path/bin/companion.js, 'serve']. */
  readonly execStart: readonly string[];
  /** Which discord-ipc-N the units hold (default 0). */
  readonly index: number;
  /** Also hold the Flatpak sub-directory's socket (default true). */
  readonly flatpak: boolean;
  /** Also hold the Snap sub-directory's socket. */
  readonly snap: boolean;
}

export interface UnitFile {
  readonly name: string;
  readonly content: string;
}

const SOCKET_DIRS: Readonly<Record<ActivatableKind, { unit: string; path: (name: string) => string; what: string }>> = {
  prefix: { unit: 'companion-ipc.socket', path: (name) => `%t/${name}`, what: 'in XDG_RUNTIME_DIR' },
  flatpak: { unit: 'companion-ipc-flatpak.socket', path: (name) => `%t/${FLATPAK_DISCORD_SUBDIR}/${name}`, what: 'for Flatpak apps' },
  snap: { unit: 'companion-ipc-snap.socket', path: (name) => `%t/${SNAP_DISCORD_SUBDIR}/${name}`, what: 'for Snap apps' },
};

/**
 * systemd user units that hold Companion's sockets before it runs, so a game started first
 * still finds one: a .socket unit per directory (`%t` is XDG_RUNTIME_DIR), each naming its
 * socket `companion-<kind>-<index>` (LISTEN_FDNAMES) so that `companion serve`, started on the
 * first connection, knows which directory each inherited socket is for; and the service.
 */
export function socketUnitFiles(options: SocketUnitOptions): UnitFile[] {
  const name = ipcSocketName(options.index);
  const kinds: ActivatableKind[] = ['prefix'];
  if (options.flatpak) kinds.push('flatpak');
  if (options.snap) kinds.push('snap');
  const sockets = kinds.map((kind) => {
    const dir = SOCKET_DIRS[kind];
    return {
      name: dir.unit,
      content: [
        UNIT_MARKER,
        '[Unit]',
        `Description=Companion local RPC socket ${name} ${dir.what}`,
        '',
        '[Socket]',
        `ListenStream=${dir.path(name)}`,
        'SocketMode=0600',
        'DirectoryMode=0700',
        'RemoveOnStop=yes',
        `FileDescriptorName=${activationName(kind, options.index)}`,
        `Service=${SERVICE_UNIT}`,
        '',
        '[Install]',
        'WantedBy=sockets.target',
        '',
      ].join('\n'),
    };
  });
  const socketNames = sockets.map((unit) => unit.name).join(' ');
  const service: UnitFile = {
    name: SERVICE_UNIT,
    content: [
      UNIT_MARKER,
      '[Unit]',
      'Description=Companion host (started by its sockets)',
      `Requires=${socketNames}`,
      `After=${socketNames}`,
      '',
      '[Service]',
      `ExecStart=${options.execStart.map(systemdQuote).join(' ')}`,
      // SIGTERM: games get CLOSE 1000, then the host exits; the sockets stay with systemd.
      'KillSignal=SIGTERM',
      '',
    ].join('\n'),
  };
  return [...sockets, service];
}

/**
 * One ExecStart word: as is when it is plain, else double-quoted with C escapes. `%` (unit
 * specifiers) and `$` (variable expansion) are doubled so the path is taken literally.
 */
export function systemdQuote(word: string): string {
  const literal = word.replace(/%/g, '%%').replace(/\$/g, '$$$$');
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(literal)) return literal;
  return `"${literal.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
}
