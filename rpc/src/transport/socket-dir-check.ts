import { stat } from 'node:fs/promises';

/** What the check needs to know about a directory (from stat, symlinks followed). */
export interface DirectoryFacts {
  readonly isDirectory: boolean;
  readonly uid: number;
  readonly mode: number;
}

export type DirectoryVerdict =
  /** `shared`: other users can see into it (e.g. /tmp); the sockets' own mode 0600 keeps them out. */
  | { readonly ok: true; readonly shared: boolean }
  | { readonly ok: false; readonly problem: string };

const STICKY = 0o1000;
const WRITABLE_BY_OTHERS = 0o022;

/**
 * Same user only: a socket directory must be owned by the user (or by root, as /tmp is), and
 * other users must not be able to replace what is in it, so either nobody else may write to
 * it (0700, 0755) or it has the sticky bit (1777: only a file's owner may remove or rename
 * it). Sockets are always created 0600, which keeps other users from connecting wherever the
 * directory is readable.
 */
export function judgeSocketDirectory(facts: DirectoryFacts, myUid: number): DirectoryVerdict {
  if (!facts.isDirectory) return { ok: false, problem: 'is not a directory' };
  if (facts.uid !== myUid && facts.uid !== 0) {
    return { ok: false, problem: `is owned by uid ${facts.uid}, not by you (uid ${myUid}): its owner could replace your sockets or read what games send` };
  }
  const permissions = facts.mode & 0o7777;
  if ((permissions & WRITABLE_BY_OTHERS) !== 0 && (permissions & STICKY) === 0) {
    return {
      ok: false,
      problem: `is writable by other users without the sticky bit (mode ${octal(permissions)}): anyone could replace your sockets; make it private (chmod 700) or sticky (chmod +t)`,
    };
  }
  return { ok: true, shared: facts.uid !== myUid || (permissions & 0o077) !== 0 };
}

function octal(mode: number): string {
  return mode.toString(8).padStart(4, '0');
}

export class UnsafeSocketDirectoryError extends Error {
  constructor(
    readonly dir: string,
    readonly problem: string,
  ) {
    super(`the socket directory ${dir} ${problem}`);
    this.name = 'UnsafeSocketDirectoryError';
  }
}

/**
 * Throws UnsafeSocketDirectoryError when `dir` is not fit for sockets only this user may
 * reach. Skipped where the OS has no user ids (Windows: named pipes, not directories).
 */
export async function checkSocketDirectory(dir: string, myUid: number | undefined = process.getuid?.()): Promise<DirectoryVerdict & { ok: true }> {
  if (myUid === undefined) return { ok: true, shared: false };
  const stats = await stat(dir);
  const verdict = judgeSocketDirectory({ isDirectory: stats.isDirectory(), uid: stats.uid, mode: stats.mode }, myUid);
  if (!verdict.ok) throw new UnsafeSocketDirectoryError(dir, verdict.problem);
  return verdict;
}
