import { describe, expect, it } from 'vitest';
import { mapsShowGlibc, ONE_MALLOC_ARENA, oneMallocArenaEnv, restoreUserTunables, USER_TUNABLES } from '../../../src/host/compose/malloc-arenas.js';

describe('serve keeps one malloc arena on glibc', () => {
  it('adds the tunable to the environment, keeping the rest of it', () => {
    expect(oneMallocArenaEnv({ HOME: '/home/p', PATH: '/usr/bin' }, true)).toEqual({ HOME: '/home/p', PATH: '/usr/bin', GLIBC_TUNABLES: ONE_MALLOC_ARENA, [USER_TUNABLES]: '' });
  });

  it('keeps the other tunables a user set, beside it', () => {
    expect(oneMallocArenaEnv({ GLIBC_TUNABLES: 'glibc.malloc.tcache_count=0' }, true)).toEqual({ GLIBC_TUNABLES: `glibc.malloc.tcache_count=0:${ONE_MALLOC_ARENA}`, [USER_TUNABLES]: 'glibc.malloc.tcache_count=0' });
  });

  it('once set, or set by the user in either form, leaves the environment as it is', () => {
    expect(oneMallocArenaEnv({ GLIBC_TUNABLES: ONE_MALLOC_ARENA }, true)).toBeUndefined();
    expect(oneMallocArenaEnv({ GLIBC_TUNABLES: 'glibc.malloc.tcache_count=0:glibc.malloc.arena_max=4' }, true)).toBeUndefined();
    expect(oneMallocArenaEnv({ MALLOC_ARENA_MAX: '2' }, true)).toBeUndefined();
  });

  it('another tunable whose name ends like it is not taken for it', () => {
    expect(oneMallocArenaEnv({ GLIBC_TUNABLES: 'glibc.malloc.xarena_max=3' }, true)?.['GLIBC_TUNABLES']).toBe(`glibc.malloc.xarena_max=3:${ONE_MALLOC_ARENA}`);
  });

  it('the started node gives the programs it starts the environment the user had', () => {
    for (const user of [{}, { GLIBC_TUNABLES: 'glibc.malloc.tcache_count=0' }]) {
      const started: NodeJS.ProcessEnv = { PATH: '/usr/bin', ...oneMallocArenaEnv({ PATH: '/usr/bin', ...user }, true) };
      restoreUserTunables(started);
      expect(started).toEqual({ PATH: '/usr/bin', ...user });
    }
    const untouched: NodeJS.ProcessEnv = { GLIBC_TUNABLES: ONE_MALLOC_ARENA };
    restoreUserTunables(untouched);
    expect(untouched).toEqual({ GLIBC_TUNABLES: ONE_MALLOC_ARENA });
  });

  it('another C library (musl) is left alone', () => {
    expect(oneMallocArenaEnv({}, false)).toBeUndefined();
  });

  it('tells glibc from musl by the C library mapped in', () => {
    expect(mapsShowGlibc('7f0d1c000000-7f0d1c028000 r--p 00000000 08:01 131 /usr/lib/x86_64-linux-gnu/libc.so.6\n')).toBe(true);
    expect(mapsShowGlibc('7f0d1c000000-7f0d1c028000 r--p 00000000 08:01 131 /lib/ld-musl-x86_64.so.1\n')).toBe(false);
    expect(mapsShowGlibc('7f0d1c000000-7f0d1c028000 r--p 00000000 08:01 131 /opt/x/libc.so.6.bak\n')).toBe(false);
  });
});
