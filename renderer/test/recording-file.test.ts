import { encode, ExtData } from '@msgpack/msgpack';
import { describe, expect, it } from 'vitest';
import { HOST_EVENT_OPCODE } from '../../common/src/recording/host-event-row';
import { NotARecording, parseRecording } from '../src/lib/recording-file';
import { createFramePairer, exportRows } from '../src/store/frames';
import { frame } from './fake-bridge';

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

async function deflateRaw(bytes: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await new Response(new Blob([bytes as BlobPart]).stream().pipeThrough(new CompressionStream('deflate-raw'))).arrayBuffer());
}

describe('opening a recording in the inspector', () => {
  it('a compressed recording (what Companion writes): chunks inflated in order, payloads recorded as wire JSON decoded', async () => {
    const frame = (t: number, nonce: string, payload: unknown): unknown => ({ kind: 'frame', t, connection: 'c1', transport: 'ipc', direction: 'in', opcode: 1, payload });
    const wire = new TextEncoder().encode(JSON.stringify({ cmd: 'SET_ACTIVITY', args: { pid: 1, activity: { state: 'Ünïcode' } }, nonce: 'n2' }));
    const first = await deflateRaw(file(frame(1, 'n1', { cmd: 'SUBSCRIBE', evt: 'ACTIVITY_JOIN', nonce: 'n1' }), { kind: 'open', t: 1.5, connection: 'c2', transport: 'ipc' }));
    const second = await deflateRaw(file(frame(2, 'n2', new ExtData(1, wire))));
    const bytes = file({ ...header, version: 2, compression: 'deflate-raw' }, first, second);
    const opened = await parseRecording('new.rec', bytes);
    expect(opened).toMatchObject({ otherRecords: 1, truncated: false });
    // The open record is a host row between the frames.
    expect(opened.frames.map((f) => [f.direction, f.cmd, f.nonce])).toEqual([
      ['in', 'SUBSCRIBE', 'n1'],
      ['host', 'open', null],
      ['in', 'SET_ACTIVITY', 'n2'],
    ]);
    expect(opened.frames[2]?.payload).toEqual({ cmd: 'SET_ACTIVITY', args: { pid: 1, activity: { state: 'Ünïcode' } }, nonce: 'n2' });

    // The last chunk cut off: what came before it is shown, and the cut is said.
    const cut = await parseRecording('cut.rec', bytes.subarray(0, bytes.length - 4));
    expect(cut.truncated).toBe(true);
    expect(cut.frames.map((f) => f.nonce)).toEqual(['n1', null]);
  });

  it('turns every record into an inspector row, in order, with wall-clock times: frames, and host events as the host lists them', async () => {
    const bytes = file(
      header,
      { kind: 'open', t: 1, connection: 'c1', transport: 'ipc' },
      { kind: 'frame', t: 2.5, connection: 'c1', transport: 'ipc', direction: 'in', opcode: 1, payload: { cmd: 'SET_ACTIVITY', args: { pid: 1 }, nonce: 'n1' } },
      { kind: 'frame', t: 4, connection: 'c1', transport: 'ipc', direction: 'out', opcode: 1, payload: { cmd: 'SET_ACTIVITY', data: null, evt: null, nonce: 'n1' } },
    );
    const opened = await parseRecording('bug.rec', bytes);
    expect(opened).toMatchObject({ name: 'bug.rec', companion: '0.1.0', redacted: true, otherRecords: 1, truncated: false });
    expect(opened.frames).toEqual([
      { seq: 1, connection_id: 'c1', direction: 'host', opcode: HOST_EVENT_OPCODE, at: Date.parse(header.started_at) + 1, cmd: 'open', evt: 'ipc', nonce: null, payload: { transport: 'ipc' } },
      { seq: 2, connection_id: 'c1', direction: 'in', opcode: 1, at: Date.parse(header.started_at) + 3, cmd: 'SET_ACTIVITY', evt: null, nonce: 'n1', payload: { cmd: 'SET_ACTIVITY', args: { pid: 1 }, nonce: 'n1' } },
      { seq: 3, connection_id: 'c1', direction: 'out', opcode: 1, at: Date.parse(header.started_at) + 4, cmd: 'SET_ACTIVITY', evt: null, nonce: 'n1', payload: { cmd: 'SET_ACTIVITY', data: null, evt: null, nonce: 'n1' } },
    ]);
  });

  it('a file cut off inside a record is read up to its last whole record', async () => {
    const whole = file(header, { kind: 'frame', t: 1, connection: 'c1', transport: 'ipc', direction: 'in', opcode: 0, payload: { v: 1 } });
    const next = encode({ kind: 'frame', t: 2, connection: 'c1', transport: 'ipc', direction: 'out', opcode: 1, payload: { evt: 'READY' } });
    const cut = new Uint8Array(whole.length + 10);
    cut.set(whole);
    cut.set(next.subarray(0, 10), whole.length);
    const opened = await parseRecording('cut.rec', cut);
    expect(opened.truncated).toBe(true);
    expect(opened.frames).toHaveLength(1);
  });

  it('anything else is refused with a clear error', async () => {
    await expect(parseRecording('x.bin', file({ kind: 'frame' }))).rejects.toThrow(NotARecording);
    await expect(parseRecording('x.bin', file({ kind: 'header', format: 'other' }))).rejects.toThrow('x.bin is not a Companion recording');
    await expect(parseRecording('x.txt', new TextEncoder().encode('hello, world'))).rejects.toThrow(NotARecording);
    await expect(parseRecording('empty.rec', new Uint8Array())).rejects.toThrow('empty.rec is empty');
  });
});

describe('opening an exported session in the inspector', () => {
  it('reads back what Export wrote: the same frames in order, numbered again, with their lints', async () => {
    const pairer = createFramePairer();
    const rows = [
      frame(7, { nonce: 'n1', at: 1_700_000_000_000, lints: [{ code: 'x', field: 'state', message: 'short', severity: 'warning' }] }),
      frame(9, { nonce: 'n1', direction: 'out', at: 1_700_000_000_012, evt: null, cmd: 'SET_ACTIVITY' }),
    ].map((f) => pairer.pair(f));
    const opened = await parseRecording('session.jsonl', new TextEncoder().encode(exportRows(rows)));
    expect(opened).toMatchObject({ name: 'session.jsonl', companion: 'inspector export', redacted: true, truncated: false, otherRecords: 0 });
    expect(opened.startedAt).toBe(new Date(1_700_000_000_000).toISOString());
    expect(opened.frames.map((f) => [f.seq, f.direction, f.nonce, f.at])).toEqual([
      [1, 'in', 'n1', 1_700_000_000_000],
      [2, 'out', 'n1', 1_700_000_000_012],
    ]);
    expect(opened.frames[0]?.lints).toEqual([{ code: 'x', field: 'state', message: 'short', severity: 'warning' }]);
    expect(opened.frames[0]?.payload).toEqual({ seq: 7 });
  });

  it('a line that is not an exported frame refuses the file, naming the line', async () => {
    const good = JSON.stringify({ ...frame(1), rtt_ms: null, reply_to: null });
    await expect(parseRecording('bad.jsonl', new TextEncoder().encode(`${good}\n{"direction":"sideways"}\n`))).rejects.toThrow('bad.jsonl, line 2: not a frame of an exported session');
    await expect(parseRecording('bad.jsonl', new TextEncoder().encode(`${good}\n{oops\n`))).rejects.toThrow('bad.jsonl, line 2: not JSON');
    await expect(parseRecording('blank.jsonl', new TextEncoder().encode('  {\n'))).rejects.toThrow(NotARecording);
  });
});

describe('issue 26 §9: an opened recording shows what the live inspector showed', () => {
  it("a lint record's lints go on its SET_ACTIVITY (not a row of their own); relay records are rows with their outcome", async () => {
    const lints = [{ code: 'timestamp-seconds', field: 'timestamps.start', message: 'looks like seconds', severity: 'warning' }];
    const outcome = { connection_id: 'c1', application_id: '42', update: 1, cause: 'command', cleared: false, at: 5, kind: 'sent' };
    const setActivity = (nonce: string): unknown => ({ kind: 'frame', t: 1, connection: 'c1', transport: 'ipc', direction: 'in', opcode: 1, payload: { cmd: 'SET_ACTIVITY', args: {}, nonce } });
    const bytes = file(
      header,
      setActivity('n1'),
      setActivity('n2'),
      { kind: 'lint', t: 1.1, connection: 'c1', nonce: 'n1', lints },
      { kind: 'relay', t: 2, connection: 'c1', outcome },
    );
    const opened = await parseRecording('linted.rec', bytes);
    expect(opened.frames.map((f) => [f.direction, f.cmd])).toEqual([
      ['in', 'SET_ACTIVITY'],
      ['in', 'SET_ACTIVITY'],
      ['host', 'relay'],
    ]);
    expect(opened.frames[0]?.lints).toEqual(lints);
    expect(opened.frames[1]?.lints).toBeUndefined();
    expect(opened.frames[2]?.payload).toEqual({ outcome });
    expect(opened.otherRecords).toBe(1);
  });
});
