import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { canonicalAddress, findPeerUid, lookupPeerUid, parseProcNetTcp } from '../../src/transport/tcp-peer-user.js';

/**
 * A /proc/net/tcp of a little-endian machine: Companion (uid 1000) listening on 127.0.0.1:6463
 * (0x193F), its accepted socket from port 51234 (0xC822), the client's socket (uid 1001), and
 * a TIME_WAIT row (uid 0, as the kernel prints them) from an earlier connection.
 */
const TCP = `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 0100007F:193F 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 41001 1 0000000000000000 100 0 0 10 0
   1: 0100007F:193F 0100007F:C822 01 00000000:00000000 00:00000000 00000000  1000        0 41002 1 0000000000000000 20 4 30 10 -1
   2: 0100007F:C822 0100007F:193F 01 00000000:00000000 00:00000000 00000000  1001        0 41003 1 0000000000000000 20 4 28 10 -1
   3: 0100007F:C823 0100007F:193F 06 00000000:00000000 03:00000D2C 00000000     0        0 0 3 0000000000000000
   4: garbage
`;

/** A dual-stack client's socket: tcp6 with IPv4-mapped addresses (::ffff:127.0.0.1 port 51240 to 6463). */
const TCP6 = `  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 0000000000000000FFFF00000100007F:C828 0000000000000000FFFF00000100007F:193F 01 00000000:00000000 00:00000000 00000000  1002        0 41010 1 0000000000000000 20 4 30 10 -1
   1: 00000000000000000000000001000000:1F90 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 41011 1 0000000000000000 100 0 0 10 0
`;

const OURS = { address: '127.0.0.1', port: 6463 };

describe('parseProcNetTcp', () => {
  it('reads addresses, ports, states and uids, skipping the header and bad lines', () => {
    const rows = parseProcNetTcp(TCP, 4, 'LE');
    expect(rows).toHaveLength(4);
    expect(rows[0]).toEqual({ local: { address: '127.0.0.1', port: 6463 }, remote: { address: '0.0.0.0', port: 0 }, state: 10, uid: 1000 });
    expect(rows[2]).toEqual({ local: { address: '127.0.0.1', port: 51234 }, remote: { address: '127.0.0.1', port: 6463 }, state: 1, uid: 1001 });
  });

  it('reads IPv6 rows, IPv4-mapped ones as IPv4', () => {
    const rows = parseProcNetTcp(TCP6, 6, 'LE');
    expect(rows[0]?.local).toEqual({ address: '127.0.0.1', port: 51240 });
    expect(rows[1]?.local).toEqual({ address: '0:0:0:0:0:0:0:1', port: 8080 });
  });

  it('reads a big-endian machine\'s words as written', () => {
    const rows = parseProcNetTcp('   0: 7F000001:193F 7F000001:C822 01 0:0 0:0 0 1005 0 1\n', 4, 'BE');
    expect(rows).toEqual([{ local: { address: '127.0.0.1', port: 6463 }, remote: { address: '127.0.0.1', port: 51234 }, state: 1, uid: 1005 }]);
  });
});

describe('findPeerUid', () => {
  const rows = [...parseProcNetTcp(TCP, 4, 'LE'), ...parseProcNetTcp(TCP6, 6, 'LE')];

  it('takes the row of the peer\'s own socket (local = peer, remote = us), not our accepted one', () => {
    expect(findPeerUid(rows, { address: '127.0.0.1', port: 51234 }, OURS)).toBe(1001);
  });

  it('finds dual-stack clients in tcp6, whatever spelling the peer address has', () => {
    expect(findPeerUid(rows, { address: '::ffff:127.0.0.1', port: 51240 }, OURS)).toBe(1002);
  });

  it('ignores connections that are not established (TIME_WAIT rows show uid 0)', () => {
    expect(findPeerUid(rows, { address: '127.0.0.1', port: 51235 }, OURS)).toBeUndefined();
  });

  it('finds nothing for another server port or address', () => {
    expect(findPeerUid(rows, { address: '127.0.0.1', port: 51234 }, { address: '127.0.0.1', port: 6464 })).toBeUndefined();
    expect(findPeerUid(rows, { address: '127.0.0.2', port: 51234 }, OURS)).toBeUndefined();
  });
});

describe('lookupPeerUid', () => {
  it('reads tcp then tcp6 under the proc root, and says which case it is', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'companion-proc-'));
    try {
      await mkdir(path.join(root, 'net'));
      await writeFile(path.join(root, 'net', 'tcp'), TCP);
      const options = { platform: 'linux' as const, procRoot: root };
      expect(await lookupPeerUid({ address: '127.0.0.1', port: 51234 }, OURS, options)).toEqual({ kind: 'found', uid: 1001 });
      expect(await lookupPeerUid({ address: '127.0.0.1', port: 51240 }, OURS, options)).toEqual({ kind: 'not-found' });
      await writeFile(path.join(root, 'net', 'tcp6'), TCP6);
      expect(await lookupPeerUid({ address: '127.0.0.1', port: 51240 }, OURS, options)).toEqual({ kind: 'found', uid: 1002 });
      expect(await lookupPeerUid({ address: '127.0.0.1', port: 1 }, OURS, { platform: 'linux', procRoot: path.join(root, 'none') })).toMatchObject({ kind: 'unsupported' });
      expect(await lookupPeerUid({ address: '127.0.0.1', port: 1 }, OURS, { platform: 'darwin' })).toEqual({ kind: 'unsupported', reason: 'no kernel socket table on darwin' });
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});

describe('canonicalAddress', () => {
  it.each([
    ['127.0.0.1', '127.0.0.1'],
    ['::ffff:127.0.0.1', '127.0.0.1'],
    ['::FFFF:7f00:1', '127.0.0.1'],
    ['::1', '0:0:0:0:0:0:0:1'],
    ['fe80::a:B', 'fe80:0:0:0:0:0:a:b'],
  ])('%s is %s', (input, expected) => {
    expect(canonicalAddress(input)).toBe(expected);
  });
});
