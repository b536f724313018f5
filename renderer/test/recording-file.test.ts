import { encode } from '@msgpack/msgpack';
import { describe, expect, it } from 'vitest';
import { NotARecording, parseRecording } from '../src/lib/recording-file';

const header = { kind: 'header', format: 'companion-recording', version: 1, companion: '0.1.0', started_at: '2026-11-22T05:00:00.000Z', redacted: true };

function file(...records: unknown[]): Uint8Array {
  const parts = records.map((record) => encode(record));
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

describe('opening a recording in the inspector', () => {
  it('turns frame records into inspector frames, in order, with wall-clock times', () => {
    const bytes = file(
      header,
      { kind: 'open', t: 1, connection: 'c1', transport: 'ipc' },
      { kind: 'frame', t: 2.5, connection: 'c1', transport: 'ipc', direction: 'in', opcode: 1, payload: { cmd: 'SET_ACTIVITY', args: { pid: 1 }, nonce: 'n1' } },
      { kind: 'frame', t: 4, connection: 'c1', transport: 'ipc', direction: 'out', opcode: 1, payload: { cmd: 'SET_ACTIVITY', data: null, evt: null, nonce: 'n1' } },
    );
    const opened = parseRecording('bug.rec', bytes);
    expect(opened).toMatchObject({ name: 'bug.rec', companion: '0.1.0', redacted: true, otherRecords: 1, truncated: false });
    expect(opened.frames).toEqual([
      { seq: 1, connection_id: 'c1', direction: 'in', opcode: 1, at: Date.parse(header.started_at) + 3, cmd: 'SET_ACTIVITY', evt: null, nonce: 'n1', payload: { cmd: 'SET_ACTIVITY', args: { pid: 1 }, nonce: 'n1' } },
      { seq: 2, connection_id: 'c1', direction: 'out', opcode: 1, at: Date.parse(header.started_at) + 4, cmd: 'SET_ACTIVITY', evt: null, nonce: 'n1', payload: { cmd: 'SET_ACTIVITY', data: null, evt: null, nonce: 'n1' } },
    ]);
  });

  it('a file cut off inside a record is read up to its last whole record', () => {
    const whole = file(header, { kind: 'frame', t: 1, connection: 'c1', transport: 'ipc', direction: 'in', opcode: 0, payload: { v: 1 } });
    const next = encode({ kind: 'frame', t: 2, connection: 'c1', transport: 'ipc', direction: 'out', opcode: 1, payload: { evt: 'READY' } });
    const cut = new Uint8Array(whole.length + 10);
    cut.set(whole);
    cut.set(next.subarray(0, 10), whole.length);
    const opened = parseRecording('cut.rec', cut);
    expect(opened.truncated).toBe(true);
    expect(opened.frames).toHaveLength(1);
  });

  it('anything else is refused with a clear error', () => {
    expect(() => parseRecording('x.bin', file({ kind: 'frame' }))).toThrow(NotARecording);
    expect(() => parseRecording('x.bin', file({ kind: 'header', format: 'other' }))).toThrow('x.bin is not a Companion recording');
    expect(() => parseRecording('x.txt', new TextEncoder().encode('hello, world'))).toThrow(NotARecording);
    expect(() => parseRecording('empty.rec', new Uint8Array())).toThrow('empty.rec is empty');
  });
});
