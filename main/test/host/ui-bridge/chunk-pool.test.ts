import { describe, expect, it } from 'vitest';
import { ChunkPool } from '../../../src/host/ui-bridge/chunk-pool.js';
import { PAGE_BYTES } from '../../../src/host/ui-bridge/page-memory.js';

describe('ChunkPool', () => {
  it('gives back a kept chunk of the size asked for, zeroed', () => {
    const pool = new ChunkPool(64 * 1024);
    const chunk = Buffer.alloc(4096, 7);
    pool.give(chunk);
    expect(pool.bytes).toBe(4096);
    const again = pool.take(4096);
    expect(again).toBe(chunk);
    expect(again.every((byte) => byte === 0)).toBe(true);
    expect(pool.bytes).toBe(0);
  });

  it('makes a new chunk of a page or more from pages of its own (a resizable ArrayBuffer, outside the C library heap), zeroed, of a fixed length', () => {
    const pool = new ChunkPool();
    for (const size of [PAGE_BYTES, 64 * 1024]) {
      const chunk = pool.take(size);
      expect(chunk.length).toBe(size);
      const buffer = chunk.buffer as ArrayBuffer;
      expect(buffer.resizable, String(size)).toBe(true);
      expect(buffer.maxByteLength).toBe(size);
      expect(chunk.every((byte) => byte === 0)).toBe(true);
      chunk.write('{"cmd":"SET_ACTIVITY"}', size - 22, 'utf8');
      expect(chunk.subarray(size - 22).toString('utf8')).toBe('{"cmd":"SET_ACTIVITY"}');
    }
    const small = pool.take(2048);
    expect(small.length).toBe(2048);
    expect((small.buffer as ArrayBuffer).resizable).toBe(false);
  });

  it('makes room for the size given now by dropping chunks of other sizes (a pool full of small chunks kept every big one out)', () => {
    const pool = new ChunkPool(64 * 1024);
    for (let i = 0; i < 32; i++) pool.give(Buffer.alloc(2048));
    expect(pool.bytes).toBe(64 * 1024);
    const big = Buffer.alloc(32 * 1024);
    pool.give(big);
    expect(pool.bytes).toBe(64 * 1024);
    expect(pool.take(32 * 1024)).toBe(big);
    // What is left of the small ones is still there.
    expect(pool.bytes).toBe(32 * 1024);
    expect(pool.take(2048)).not.toBe(pool.take(2048));
  });

  it('never drops chunks of the size given to keep another of that size', () => {
    const pool = new ChunkPool(64 * 1024);
    const first = Buffer.alloc(32 * 1024);
    const second = Buffer.alloc(32 * 1024);
    pool.give(first);
    pool.give(second);
    pool.give(Buffer.alloc(32 * 1024));
    expect(pool.bytes).toBe(64 * 1024);
    expect(pool.take(32 * 1024)).toBe(second);
    expect(pool.take(32 * 1024)).toBe(first);
  });

  it('keeps nothing bigger than its bound', () => {
    const pool = new ChunkPool(1024);
    pool.give(Buffer.alloc(2048));
    expect(pool.bytes).toBe(0);
  });
});
