import { deflateSync } from 'node:zlib';

/**
 * Companion's icon, drawn in code: a rounded square in the brand colour with a white ring
 * open on the right (a "C"). `assets/icon.png` (electron-builder's installers) is this at
 * 512 px, and the tray and windows use it at their own size through `nativeImage`, so no
 * image file has to ship inside the app archive.
 */
const BRAND: readonly [number, number, number] = [0x58, 0x65, 0xf2];

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(data: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of data) crc = (CRC_TABLE[(crc ^ byte) & 0xff] as number) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A PNG (8-bit RGBA) of `size` × `size` pixels from a per-pixel function. */
export function encodePng(size: number, pixel: (x: number, y: number) => readonly [number, number, number, number]): Buffer {
  const raw = Buffer.alloc((size * 4 + 1) * size);
  for (let y = 0; y < size; y++) {
    const row = y * (size * 4 + 1);
    raw[row] = 0; // filter: none
    for (let x = 0; x < size; x++) {
      const [r, g, b, a] = pixel(x, y);
      raw.set([r, g, b, a], row + 1 + x * 4);
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8); // depth 8, colour type RGBA, deflate, no filter method, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', new Uint8Array(0)),
  ]);
}

/** Coverage (0..1) of the pixel at (x, y) by the icon's shapes, 4× supersampled for smooth edges. */
function coverage(size: number, x: number, y: number, inside: (u: number, v: number) => boolean): number {
  // Inside or outside at all four corners: the pixel is whole (the shapes are convex enough at this scale).
  const corners = [inside(x / size, y / size), inside((x + 1) / size, y / size), inside(x / size, (y + 1) / size), inside((x + 1) / size, (y + 1) / size)];
  if (corners.every(Boolean)) return 1;
  if (!corners.some(Boolean) && size >= 16) {
    const centre = inside((x + 0.5) / size, (y + 0.5) / size);
    if (!centre) return 0;
  }
  let hits = 0;
  for (let i = 0; i < 4; i++) {
    for (let j = 0; j < 4; j++) if (inside((x + (i + 0.5) / 4) / size, (y + (j + 0.5) / 4) / size)) hits++;
  }
  return hits / 16;
}

function inRoundedSquare(u: number, v: number): boolean {
  const r = 0.2;
  const dx = Math.max(0.04 + r - u, 0, u - (0.96 - r));
  const dy = Math.max(0.04 + r - v, 0, v - (0.96 - r));
  return u >= 0.04 && u <= 0.96 && v >= 0.04 && v <= 0.96 && dx * dx + dy * dy <= r * r;
}

function inRing(u: number, v: number): boolean {
  const dx = u - 0.5;
  const dy = v - 0.5;
  const d = Math.hypot(dx, dy);
  // The opening: 50 degrees either side of the positive x axis.
  const open = dx > 0 && Math.abs(Math.atan2(dy, dx)) < (50 * Math.PI) / 180;
  return d >= 0.2 && d <= 0.3 && !open;
}

export function companionIconPng(size = 512): Buffer {
  return encodePng(size, (x, y) => {
    const square = coverage(size, x, y, inRoundedSquare);
    if (square === 0) return [0, 0, 0, 0];
    const ring = coverage(size, x, y, (u, v) => inRoundedSquare(u, v) && inRing(u, v));
    const mix = (c: number): number => Math.round(c * (1 - ring) + 255 * ring);
    return [mix(BRAND[0]), mix(BRAND[1]), mix(BRAND[2]), Math.round(255 * square)];
  });
}
