import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { headerRecord } from '../../../../common/src/recording/recording-format.js';
import { readRecording, scanRecording } from '../../../src/host/record/record-reader.js';
import { RecordWriter } from '../../../src/host/record/record-writer.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});
async function tempFile(name: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'companion-writer-'));
  dirs.push(dir);
  return path.join(dir, name);
}

describe('RecordWriter', () => {
  it('batches appends off the caller and writes every record on close, in order', async () => {
    const file = await tempFile('batch.rec');
    const writer = await RecordWriter.create(file, headerRecord('1.2.3', new Date(0), true));
    for (let i = 0; i < 5000; i += 1) {
      writer.append({ kind: 'frame', t: i, connection: 'c1', transport: 'ipc', direction: 'in', opcode: 1, payload: { cmd: 'SET_ACTIVITY', nonce: String(i), args: { n: i, skipped: undefined } } });
    }
    // Nothing waits on the disk in append: only the header (written by create) is out yet.
    expect(writer.stats.records).toBe(1);
    await writer.close();
    expect(writer.stats).toEqual({ records: 5001, bytes: (await stat(file)).size, dropped: 0 });
    const recording = await readRecording(file);
    expect(recording.header).toMatchObject({ companion: '1.2.3', started_at: '1970-01-01T00:00:00.000Z', redacted: true });
    expect(recording.records).toHaveLength(5000);
    expect(recording.records.map((r) => r.t)).toEqual(Array.from({ length: 5000 }, (_, i) => i));
    // undefined is left out, as JSON would.
    expect(recording.records[7]).toMatchObject({ payload: { args: { n: 7 } } });
    expect('skipped' in ((recording.records[7] as { payload: { args: object } }).payload.args)).toBe(false);
    // Compressed: the records take several times the file's size.
    expect(recording.header.compression).toBe('deflate-raw');
    const { recordBytes } = scanRecording(await readFile(file), file, () => undefined);
    expect(recordBytes).toBeGreaterThan(5 * (await stat(file)).size);
  });

  it('a header without compression: the records follow it as they are (how version 1 files were written), and read back alike', async () => {
    const file = await tempFile('plain.rec');
    const writer = await RecordWriter.create(file, headerRecord('1', new Date(0), true, false));
    writer.append({ kind: 'gateway', t: 1, type: 'X', data: { n: 1 } });
    writer.append({ kind: 'frame', t: 2, connection: 'c1', transport: 'ipc', direction: 'in', opcode: 1, payload: { cmd: 'X', nonce: 'n' } });
    await writer.close();
    const bytes = await readFile(file);
    expect(bytes.includes(Buffer.from('gateway'))).toBe(true);
    const recording = await readRecording(file);
    expect(recording.header.compression).toBeUndefined();
    expect(recording.records.map((r) => r.kind)).toEqual(['gateway', 'frame']);
    expect(recording.tail).toBeNull();
  });

  it('over its buffer limit drops records, counts them and marks the gap in the file', async () => {
    const file = await tempFile('gap.rec');
    const writer = await RecordWriter.create(file, headerRecord('1', new Date(), true), { maxBufferedBytes: 200 });
    for (let i = 0; i < 20; i += 1) writer.append({ kind: 'gateway', t: i, type: 'X', data: 'y'.repeat(50) });
    const dropped = writer.stats.dropped;
    expect(dropped).toBeGreaterThan(0);
    // Once the disk caught up, the next record is preceded by a gap record.
    await new Promise((resolve) => setTimeout(resolve, 50));
    writer.append({ kind: 'gateway', t: 20, type: 'AFTER', data: null });
    await writer.close();
    const recording = await readRecording(file);
    expect(recording.records.slice(-2)).toEqual([
      { kind: 'gap', t: 20, dropped },
      { kind: 'gateway', t: 20, type: 'AFTER', data: null },
    ]);
    expect(recording.records.filter((r) => r.kind === 'gateway').length - 1 + dropped).toBe(20);
  });

  it('a payload MessagePack cannot hold is recorded as such, and does not stop the writer', async () => {
    const file = await tempFile('odd.rec');
    const writer = await RecordWriter.create(file, headerRecord('1', new Date(), true));
    writer.append({ kind: 'frame', t: 1, connection: 'c1', transport: 'ipc', direction: 'out', opcode: 1, payload: { big: 2n ** 70n } });
    writer.append({ kind: 'frame', t: 2, connection: 'c1', transport: 'ipc', direction: 'out', opcode: 1, payload: { ok: true } });
    await writer.close();
    const recording = await readRecording(file);
    expect(recording.records.map((r) => (r.kind === 'frame' ? r.payload : null))).toEqual(['[not encodable]', { ok: true }]);
  });
});
