import { readFile } from 'node:fs/promises';
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { companionIconPng } from '../../../src/shells/electron/icon.js';

function readPng(png: Buffer): { width: number; height: number; colourType: number; pixels: Buffer } {
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  let offset = 8;
  let header: Buffer | undefined;
  const data: Buffer[] = [];
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('ascii', offset + 4, offset + 8);
    const body = png.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') header = body;
    if (type === 'IDAT') data.push(body);
    offset += 12 + length;
  }
  if (header === undefined) throw new Error('no IHDR');
  return { width: header.readUInt32BE(0), height: header.readUInt32BE(4), colourType: header[9] ?? -1, pixels: inflateSync(Buffer.concat(data)) };
}

describe('the icon', () => {
  it('assets/icon.png is a 512x512 RGBA PNG with the drawn icon', async () => {
    const png = readPng(await readFile(new URL('../../../../assets/icon.png', import.meta.url)));
    expect([png.width, png.height, png.colourType]).toEqual([512, 512, 6]);
    expect(png.pixels.equals(readPng(companionIconPng(512)).pixels)).toBe(true);
  });

  it('draws at tray size: transparent corner, brand colour edge, white ring', () => {
    const png = readPng(companionIconPng(32));
    const at = (x: number, y: number): number[] => [...png.pixels.subarray(y * (32 * 4 + 1) + 1 + x * 4, y * (32 * 4 + 1) + 5 + x * 4)];
    expect(at(0, 0)[3]).toBe(0);
    expect(at(16, 3)).toEqual([0x58, 0x65, 0xf2, 255]);
    expect(at(8, 16)).toEqual([255, 255, 255, 255]);
  });

  it('assets/icon.svg exists', async () => {
    expect(await readFile(new URL('../../../../assets/icon.svg', import.meta.url), 'utf8')).toContain('<svg');
  });
});
