import type { Env } from './ipc-paths.js';
import { IPC_INDEX_COUNT } from './ipc-paths.js';
import type { ListenDirectoryKind } from './listen-directories.js';

/** The first file descriptor systemd passes (sd_listen_fds). */
export const LISTEN_FDS_START = 3;

export interface InheritedSocket {
  readonly fd: number;
  /** From LISTEN_FDNAMES (the unit's FileDescriptorName), or 'unknown'. */
  readonly name: string;
}

/**
 * The sockets systemd handed to this process (LISTEN_FDS from fd 3 on), when LISTEN_PID names
 * this process; otherwise none (the variables were meant for another process, e.g. inherited
 * from a parent that was activated).
 */
export function inheritedSockets(env: Env, pid: number): InheritedSocket[] {
  if (env['LISTEN_PID'] !== String(pid)) return [];
  const count = Number(env['LISTEN_FDS']);
  if (!Number.isInteger(count) || count <= 0) return [];
  const names = (env['LISTEN_FDNAMES'] ?? '').split(':');
  return Array.from({ length: count }, (_, i) => ({ fd: LISTEN_FDS_START + i, name: names[i] || 'unknown' }));
}

/** The directory kinds a socket unit can stand for. */
export const ACTIVATABLE_KINDS = ['prefix', 'flatpak', 'snap'] as const satisfies readonly ListenDirectoryKind[];
export type ActivatableKind = (typeof ACTIVATABLE_KINDS)[number];

/** FileDescriptorName of the unit that holds `discord-ipc-<index>` in a directory of `kind`: `companion-<kind>-<index>`. */
export function activationName(kind: ActivatableKind, index: number): string {
  return `companion-${kind}-${index}`;
}

/** The inverse of activationName; undefined for a name Companion did not give. */
export function parseActivationName(name: string): { kind: ActivatableKind; index: number } | undefined {
  const match = /^companion-([a-z]+)-(\d)$/.exec(name);
  if (match === null) return undefined;
  const kind = ACTIVATABLE_KINDS.find((k) => k === match[1]);
  const index = Number(match[2]);
  if (kind === undefined || index >= IPC_INDEX_COUNT) return undefined;
  return { kind, index };
}
