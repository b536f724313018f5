import { describe, expect, it } from 'vitest';
import { headerRecord, type BodyRecord } from '../../../../common/src/recording/recording-format.js';
import type { Recording } from '../../../src/host/record/record-reader.js';
import { planReplay } from '../../../src/tools/replay/replay-plan.js';

function recording(records: BodyRecord[]): Recording {
  return { header: headerRecord('1', new Date(0), true), records, skipped: 0, tail: null };
}

const handshake = (connection: string, t: number): BodyRecord => ({ kind: 'frame', t, connection, transport: 'ipc', direction: 'in', opcode: 0, payload: { v: 1, client_id: '42' } });
const ready = (connection: string, t: number): BodyRecord => ({ kind: 'frame', t, connection, transport: 'ipc', direction: 'out', opcode: 1, payload: { cmd: 'DISPATCH', evt: 'READY', nonce: null, data: {} } });
const closeFrame = (connection: string, t: number, code: number): BodyRecord => ({ kind: 'frame', t, connection, transport: 'ipc', direction: 'out', opcode: 2, payload: { code, message: 'm' } });

describe('planReplay', () => {
  it('orders every game action by time across connections, each connection opened before its frames', () => {
    const plan = planReplay(
      recording([
        { kind: 'open', t: 1, connection: 'c1', transport: 'ipc' },
        handshake('c1', 2),
        ready('c1', 3),
        { kind: 'open', t: 4, connection: 'c2', transport: 'ipc' },
        handshake('c2', 5),
        ready('c2', 6),
        { kind: 'frame', t: 7, connection: 'c1', transport: 'ipc', direction: 'in', opcode: 1, payload: { cmd: 'SET_ACTIVITY', nonce: 'a', args: {} } },
        { kind: 'close', t: 8, connection: 'c1', client_id: '42', pid: null, reason: 'peer-closed', code: null },
      ]),
    );
    expect(plan.steps.map((step) => `${step.t} ${step.connection.id} ${step.kind}`)).toEqual(['1 c1 open', '2 c1 send', '4 c2 open', '5 c2 send', '7 c1 send', '8 c1 close', '8 c2 close']);
    expect(plan.connections.map((c) => [c.id, c.clientId, c.skipped])).toEqual([
      ['c1', '42', null],
      ['c2', '42', null],
    ]);
  });

  it('a CLOSE from the host shutting down is not expected; a refused handshake is, and the host closes it', () => {
    const plan = planReplay(
      recording([
        { kind: 'open', t: 1, connection: 'c1', transport: 'ipc' },
        handshake('c1', 2),
        ready('c1', 3),
        closeFrame('c1', 4, 1000),
        { kind: 'close', t: 5, connection: 'c1', client_id: '42', pid: null, reason: 'server-shutdown', code: 1000 },
        { kind: 'open', t: 6, connection: 'c2', transport: 'ipc' },
        handshake('c2', 7),
        closeFrame('c2', 8, 4000),
        { kind: 'close', t: 9, connection: 'c2', client_id: null, pid: null, reason: 'handshake-refused', code: 4000 },
      ]),
    );
    const [shutdown, refused] = plan.connections;
    expect(shutdown?.outbound.map((f) => f.opcode)).toEqual([1]);
    expect(shutdown?.clientCloseAt).toBe(5);
    expect(refused?.outbound.map((f) => f.opcode)).toEqual([2]);
    expect(refused?.clientCloseAt).toBeNull();
  });

  it('skips connections it cannot play: open before the recording, no handshake, another transport', () => {
    const plan = planReplay(
      recording([
        { kind: 'open', t: 0, connection: 'c1', transport: 'ipc', existing: true, client_id: '42' },
        { kind: 'frame', t: 1, connection: 'c1', transport: 'ipc', direction: 'in', opcode: 1, payload: { cmd: 'X', nonce: '1' } },
        { kind: 'open', t: 2, connection: 'c2', transport: 'ipc' },
        { kind: 'close', t: 3, connection: 'c2', client_id: null, pid: null, reason: 'peer-closed', code: null },
        { kind: 'open', t: 4, connection: 'c3', transport: 'websocket' },
        { ...handshake('c3', 5), transport: 'websocket' } as BodyRecord,
      ]),
    );
    expect(plan.connections.map((c) => c.skipped)).toEqual([
      'it was already open when the recording started (its handshake is not in the recording)',
      'the game never sent a HANDSHAKE',
      'it used the websocket transport; replay speaks IPC only',
    ]);
    expect(plan.steps).toEqual([]);
  });
});
