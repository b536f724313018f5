import { describe, expect, it } from 'vitest';
import { ONE_MALLOC_ARENA, USER_TUNABLES } from '../../../src/host/compose/malloc-arenas.js';
import { serveExec, type ServeStart } from '../../../src/host/compose/serve-exec.js';
import { COLLECTOR_FLAGS } from '../../../src/host/compose/collector-flags.js';

const ARGS = ['/opt/companion/bin/companion.js', 'serve', '--runtime-dir', '/run/x'];
const LINUX_24: ServeStart = {
  execPath: '/usr/bin/node',
  execArgv: ['--max-old-space-size=200'],
  argv: ['/usr/bin/node', ...ARGS],
  nodeOptions: '',
  nodeVersion: '24.21.0',
  env: { PATH: '/usr/bin' },
  platform: 'linux',
  canExec: true,
  usesGlibc: true,
};

describe('serve starts node again with what can only be set at start', () => {
  it('Node 22 and 24 on glibc: the collector flags first, and one malloc arena', () => {
    for (const nodeVersion of ['22.23.3', '24.21.0']) {
      expect(serveExec({ ...LINUX_24, nodeVersion })).toEqual({
        argv: ['/usr/bin/node', ...COLLECTOR_FLAGS, '--max-old-space-size=200', ...ARGS],
        env: { PATH: '/usr/bin', GLIBC_TUNABLES: ONE_MALLOC_ARENA, [USER_TUNABLES]: '' },
      });
    }
  });

  it('a user’s own collector flag on glibc: the same command, one malloc arena in the environment', () => {
    expect(serveExec({ ...LINUX_24, execArgv: ['--max-old-space-size=200', '--memory-reducer'] })).toEqual({
      argv: ['/usr/bin/node', '--max-old-space-size=200', '--memory-reducer', ...ARGS],
      env: { PATH: '/usr/bin', GLIBC_TUNABLES: ONE_MALLOC_ARENA, [USER_TUNABLES]: '' },
    });
  });

  it('on musl: the collector flags only', () => {
    expect(serveExec({ ...LINUX_24, usesGlibc: false })).toEqual({ argv: ['/usr/bin/node', ...COLLECTOR_FLAGS, '--max-old-space-size=200', ...ARGS], env: LINUX_24.env });
  });

  it('started again, finds everything in place: no second exec', () => {
    const again = serveExec({ ...LINUX_24, nodeVersion: '22.23.3' });
    expect(again).toBeDefined();
    if (again === undefined) return;
    const [execPath = '', ...execArgvAndArgs] = again.argv;
    const execArgv = execArgvAndArgs.slice(0, execArgvAndArgs.length - ARGS.length);
    expect(serveExec({ ...LINUX_24, nodeVersion: '22.23.3', execPath, execArgv, argv: [execPath, ...ARGS], env: again.env })).toBeUndefined();
  });

  it('nothing to set (a major not measured, on musl or macOS) runs on as started', () => {
    expect(serveExec({ ...LINUX_24, nodeVersion: '26.0.0', usesGlibc: false })).toBeUndefined();
    expect(serveExec({ ...LINUX_24, nodeVersion: '26.0.0', platform: 'darwin' })).toBeUndefined();
  });

  it('a node without execve (Node 20) and Windows run on as started', () => {
    expect(serveExec({ ...LINUX_24, nodeVersion: '20.20.2', canExec: false })).toBeUndefined();
    expect(serveExec({ ...LINUX_24, nodeVersion: '22.23.3', platform: 'win32' })).toBeUndefined();
  });

  it('under a debugger (its session would not survive the exec), runs on as started', () => {
    for (const nodeVersion of ['22.23.3', '24.21.0']) {
      expect(serveExec({ ...LINUX_24, nodeVersion, execArgv: ['--inspect=9229'] })).toBeUndefined();
      expect(serveExec({ ...LINUX_24, nodeVersion, execArgv: ['--inspect-brk'] })).toBeUndefined();
      expect(serveExec({ ...LINUX_24, nodeVersion, nodeOptions: '--inspect' })).toBeUndefined();
    }
  });
});
