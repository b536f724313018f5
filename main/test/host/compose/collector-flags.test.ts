import { describe, expect, it } from 'vitest';
import { COLLECTOR_FLAGS, collectorArgv, type NodeStart } from '../../../src/host/compose/collector-flags.js';

const NODE_22: NodeStart = {
  execPath: '/usr/bin/node',
  execArgv: ['--max-old-space-size=200'],
  argv: ['/usr/bin/node', '/opt/companion/bin/companion.js', 'serve', '--runtime-dir', '/run/x'],
  nodeOptions: '',
  nodeVersion: '22.23.3',
};

describe('serve collects on the main thread, without V8’s memory reducer: node started with the flags', () => {
  it('starts node with the flags first, then the options and arguments it was started with, on Node 22 and 24', () => {
    for (const nodeVersion of ['22.23.3', '24.21.0']) {
      expect(collectorArgv({ ...NODE_22, nodeVersion })).toEqual(['/usr/bin/node', ...COLLECTOR_FLAGS, '--max-old-space-size=200', '/opt/companion/bin/companion.js', 'serve', '--runtime-dir', '/run/x']);
      expect(collectorArgv({ ...NODE_22, nodeVersion, execArgv: [] })).toEqual(['/usr/bin/node', ...COLLECTOR_FLAGS, ...NODE_22.argv.slice(1)]);
    }
  });

  it('once started with the flags, runs on (no second exec)', () => {
    expect(collectorArgv({ ...NODE_22, execArgv: [...COLLECTOR_FLAGS, '--max-old-space-size=200'] })).toBeUndefined();
  });

  it('Node 20 (it cannot exec) and majors not measured keep V8’s defaults', () => {
    expect(collectorArgv({ ...NODE_22, nodeVersion: '20.20.2' })).toBeUndefined();
    expect(collectorArgv({ ...NODE_22, nodeVersion: '26.0.0' })).toBeUndefined();
  });

  it('a user who set a collector flag, on the command line or in NODE_OPTIONS, keeps node as started', () => {
    for (const flag of ['--no-single-threaded-gc', '--memory-reducer', '--no-memory-reducer', '--parallel-scavenge', '--no-concurrent-marking', '--concurrent-sweeping', '--no-parallel-compaction']) {
      expect(collectorArgv({ ...NODE_22, execArgv: [flag] }), flag).toBeUndefined();
      expect(collectorArgv({ ...NODE_22, nodeOptions: `--max-old-space-size=100 ${flag}` }), flag).toBeUndefined();
    }
  });
});
