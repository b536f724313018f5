import { describe, expect, it } from 'vitest';
import { endpointKey, parseSocketTable, SsPeerProcessFinder } from '../../src/transport/peer-process.js';

const TABLE = [
  'u_str ESTAB 0      0      /run/user/1000/discord-ipc-0 9108  * 9103  users:(("companion",pid=100,fd=29))',
  'u_str ESTAB 0      0                     * 9103  * 9108  users:(("game",pid=6509,fd=24))',
  'u_str ESTAB 0      0      /tmp/a path with spaces/discord-ipc-0 9200  * 9201                              ',
  'u_str ESTAB 0      0                     * 9201  * 9200  users:(("tool",pid=77,fd=3),("tool-child",pid=78,fd=3))',
  'tcp   ESTAB 0      0             127.0.0.1:32970 127.0.0.1:6463 users:(("browser",pid=4242,fd=522)) ',
  'tcp   ESTAB 0      0             [::ffff:127.0.0.1]:32971 [::ffff:127.0.0.1]:6463 users:(("app",pid=4243,fd=5))',
  'tcp   ESTAB 0      0             [::1]:32972 [::1]:6463 users:(("app",pid=4244,fd=5))',
  'garbage line users:((pid=x))',
  '',
].join('\n');

describe('the socket table ss prints', () => {
  it('keys Unix rows by their peer inode and TCP rows by their local end, with the first process', () => {
    const rows = parseSocketTable(TABLE);
    expect(rows).toEqual([
      { kind: 'unix', key: '9103', pid: 100 },
      { kind: 'unix', key: '9108', pid: 6509 },
      { kind: 'unix', key: '9200', pid: 77 },
      { kind: 'tcp', key: '127.0.0.1:32970', pid: 4242 },
      { kind: 'tcp', key: '127.0.0.1:32971', pid: 4243 },
      { kind: 'tcp', key: '0:0:0:0:0:0:0:1:32972', pid: 4244 },
    ]);
    expect(endpointKey('nonsense')).toBeUndefined();
  });

  it('a system without ss, or not Linux, cannot tell and says so', async () => {
    const missing = new SsPeerProcessFinder({ commands: ['/nonexistent/ss-command', '/nonexistent/sbin/ss'] });
    expect(await missing.find([{ kind: 'tcp', address: '127.0.0.1', port: 1 }])).toEqual(new Map());
    expect(missing.supported).toBe(false);
    const mac = new SsPeerProcessFinder({ platform: 'darwin' });
    expect(mac.supported).toBe(false);
    // A command that runs but names no process (here one that prints nothing): unsupported after that run.
    const blind = new SsPeerProcessFinder({ commands: ['/bin/true'] });
    expect(await blind.find([{ kind: 'tcp', address: '127.0.0.1', port: 1 }])).toEqual(new Map());
    expect(blind.supported).toBe(false);
  });
});
