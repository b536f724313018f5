/*
 * `companion serve` on Linux with glibc keeps one malloc arena (glibc.malloc.arena_max=1).
 *
 * glibc gives each thread that allocates while another holds the main arena's lock an arena of
 * its own, up to eight per core. V8's worker threads (its compilers, the collector's helpers)
 * allocate and free zones of several MiB there while a load runs, and glibc gives an arena's
 * memory back to the system only from its top: after a burst of games the thread arenas kept
 * 11-15 MiB of RSS that held nothing (gdb's `malloc_stats()` on an idle host after the load
 * below: 16.7 MB taken from the system by the thread arenas, 1.6 MB in use). With one arena
 * those allocations reuse the main arena's free memory instead.
 *
 * Measured 2026-11-29 (2 cores, Linux 6.18, unpinned; a script outside the repository: two
 * `companion serve` side by side, one of them with the tunable, each given 100 clients sending
 * SET_ACTIVITY for 5 s and then 10 clients for 5 s, RSS after 60 s of quiet): Node 24.21.0,
 * three pairs, 112.4, 110.9, 110.6 MiB with the arenas against 106.1, 99.8, 99.9 with one (the
 * thread arenas' 12-14 MiB gone, the main arena a little larger); Node 22.23.3 (collecting on
 * the main thread, collector-flags.ts), one pair after a longer load (10 clients for 16 s
 * more), 93.1 against 90.2 MiB. CPU per SET_ACTIVITY at 100 clients, 5 s each, the two side by
 * side, four rounds on Node 24: user 9.0-10.6 + system 3.5-4.2 µs with the arenas, 8.9-10.5 +
 * 3.8-4.9 with one.
 *
 * glibc reads its tunables when the process starts, so `serve` starts node again with them in
 * its environment (serve-exec.ts). A user who tuned the arenas (GLIBC_TUNABLES naming
 * glibc.malloc.arena_max, or MALLOC_ARENA_MAX) keeps the setting, and other tunables in
 * GLIBC_TUNABLES are kept beside this one. The programs serve starts (a game launched from an
 * invite, a browser) get the user's environment back: the started node puts GLIBC_TUNABLES
 * back as it was (USER_TUNABLES carries it across the exec).
 */

/** The tunable, as GLIBC_TUNABLES spells it. */
export const ONE_MALLOC_ARENA = 'glibc.malloc.arena_max=1';

/** The user's GLIBC_TUNABLES ('' when unset), across the exec. */
export const USER_TUNABLES = 'COMPANION_USER_GLIBC_TUNABLES';

/**
 * The environment to start node with for one malloc arena, or undefined when it is already so,
 * the user set the arenas, or the C library is not glibc.
 */
export function oneMallocArenaEnv(env: NodeJS.ProcessEnv, usesGlibc: boolean): NodeJS.ProcessEnv | undefined {
  if (!usesGlibc || env['MALLOC_ARENA_MAX'] !== undefined) return undefined;
  const tunables = env['GLIBC_TUNABLES'] ?? '';
  if (/(^|:)glibc\.malloc\.arena_max=/.test(tunables)) return undefined;
  return { ...env, GLIBC_TUNABLES: tunables === '' ? ONE_MALLOC_ARENA : `${tunables}:${ONE_MALLOC_ARENA}`, [USER_TUNABLES]: tunables };
}

/** In the started node (glibc has read its tunables): GLIBC_TUNABLES as the user had it, for the programs serve starts. */
export function restoreUserTunables(env: NodeJS.ProcessEnv): void {
  const user = env[USER_TUNABLES];
  if (user === undefined) return;
  delete env[USER_TUNABLES];
  if (user === '') delete env['GLIBC_TUNABLES'];
  else env['GLIBC_TUNABLES'] = user;
}

/** Whether this process runs on glibc: its C library mapped in (musl's is ld-musl-*.so.1). */
export function mapsShowGlibc(maps: string): boolean {
  return /\/libc\.so\.6$/m.test(maps);
}
