import { describe, expect, it } from 'vitest';
import { SINGLE_THREADED_GC, singleThreadedGcArgv, type NodeStart } from '../../../src/host/compose/single-threaded-gc.js';

const NODE_22: NodeStart = {
  execPath: '/usr/bin/node',
  execArgv: ['--max-old-space-size=200'],
  argv: ['/usr/bin/node', '/opt/companion/bin/companion.js', 'serve', '--runtime-dir', '/run/x'],
  nodeOptions: '',
  nodeVersion: '22.23.3',
};

describe('serve collects on the main thread only: node started with the flag', () => {
  it('starts node with the flag first, then the options and arguments it was started with', () => {
    expect(singleThreadedGcArgv(NODE_22)).toEqual(['/usr/bin/node', SINGLE_THREADED_GC, '--max-old-space-size=200', '/opt/companion/bin/companion.js', 'serve', '--runtime-dir', '/run/x']);
    expect(singleThreadedGcArgv({ ...NODE_22, execArgv: [] })).toEqual(['/usr/bin/node', SINGLE_THREADED_GC, ...NODE_22.argv.slice(1)]);
  });

  it('once started with the flag, runs on (no second exec)', () => {
    expect(singleThreadedGcArgv({ ...NODE_22, execArgv: [SINGLE_THREADED_GC, '--max-old-space-size=200'] })).toBeUndefined();
  });

  it('Node 24 (measured: more memory after a load) and Node 20 keep V8’s threads', () => {
    expect(singleThreadedGcArgv({ ...NODE_22, nodeVersion: '24.21.0' })).toBeUndefined();
    expect(singleThreadedGcArgv({ ...NODE_22, nodeVersion: '20.20.2' })).toBeUndefined();
  });

  it('a user who set a collector flag, on the command line or in NODE_OPTIONS, keeps node as started', () => {
    for (const flag of ['--no-single-threaded-gc', '--parallel-scavenge', '--no-concurrent-marking', '--concurrent-sweeping', '--no-parallel-compaction']) {
      expect(singleThreadedGcArgv({ ...NODE_22, execArgv: [flag] }), flag).toBeUndefined();
      expect(singleThreadedGcArgv({ ...NODE_22, nodeOptions: `--max-old-space-size=100 ${flag}` }), flag).toBeUndefined();
    }
  });
});
