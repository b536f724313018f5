import { describe, expect, it } from 'vitest';
import { SINGLE_THREADED_GC, singleThreadedGcArgv, type NodeProcessFacts } from '../../../src/host/compose/single-threaded-gc.js';

const LINUX: NodeProcessFacts = {
  execPath: '/usr/bin/node',
  execArgv: ['--max-old-space-size=200'],
  argv: ['/usr/bin/node', '/opt/companion/bin/companion.js', 'serve', '--runtime-dir', '/run/x'],
  nodeOptions: '',
  platform: 'linux',
  canExec: true,
  nodeVersion: '22.23.3',
};

describe('serve collects on the main thread only: node started again with the flag', () => {
  it('starts node with the flag first, then the options and arguments it was started with', () => {
    expect(singleThreadedGcArgv(LINUX)).toEqual(['/usr/bin/node', SINGLE_THREADED_GC, '--max-old-space-size=200', '/opt/companion/bin/companion.js', 'serve', '--runtime-dir', '/run/x']);
    expect(singleThreadedGcArgv({ ...LINUX, platform: 'darwin', execArgv: [] })).toEqual(['/usr/bin/node', SINGLE_THREADED_GC, ...LINUX.argv.slice(1)]);
  });

  it('once started with the flag, runs on (no second exec)', () => {
    expect(singleThreadedGcArgv({ ...LINUX, execArgv: [SINGLE_THREADED_GC, '--max-old-space-size=200'] })).toBeUndefined();
  });

  it('a node without execve (20), Node 24 (measured: more memory after a load) and Windows run on with V8’s threads', () => {
    expect(singleThreadedGcArgv({ ...LINUX, canExec: false })).toBeUndefined();
    expect(singleThreadedGcArgv({ ...LINUX, nodeVersion: '24.21.0' })).toBeUndefined();
    expect(singleThreadedGcArgv({ ...LINUX, nodeVersion: '20.20.2' })).toBeUndefined();
    expect(singleThreadedGcArgv({ ...LINUX, platform: 'win32' })).toBeUndefined();
  });

  it('a user who set a collector flag, on the command line or in NODE_OPTIONS, keeps node as started', () => {
    for (const flag of ['--no-single-threaded-gc', '--parallel-scavenge', '--no-concurrent-marking', '--concurrent-sweeping', '--no-parallel-compaction']) {
      expect(singleThreadedGcArgv({ ...LINUX, execArgv: [flag] }), flag).toBeUndefined();
      expect(singleThreadedGcArgv({ ...LINUX, nodeOptions: `--max-old-space-size=100 ${flag}` }), flag).toBeUndefined();
    }
  });

  it('under a debugger (its session would not survive the exec), keeps node as started', () => {
    expect(singleThreadedGcArgv({ ...LINUX, execArgv: ['--inspect=9229'] })).toBeUndefined();
    expect(singleThreadedGcArgv({ ...LINUX, execArgv: ['--inspect-brk'] })).toBeUndefined();
    expect(singleThreadedGcArgv({ ...LINUX, nodeOptions: '--inspect' })).toBeUndefined();
  });
});
