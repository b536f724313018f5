import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inflateSync } from 'node:zlib';
import yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import type * as IconsModule from '../../../src/shells/electron/icons.js';
import { PROJECT_ASSETS_DIR, shellIcons, TRAY_ICON_FILE, WINDOW_ICON_FILE } from '../../../src/shells/electron/icons.js';

const ASSETS = new URL('../../../../assets/', import.meta.url);
const BUILT = new URL('../../../../out/main/src/shells/electron/icons.js', import.meta.url).href;

/** Width, height, colour type and the unfiltered scanlines (filter byte first) of a PNG. */
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

describe('the icon files', () => {
  it.each([
    ['icon.png', 512],
    [WINDOW_ICON_FILE, 256],
    [TRAY_ICON_FILE, 32],
  ])('assets/%s is a %i px RGBA PNG', async (file, size) => {
    const png = readPng(await readFile(new URL(file, ASSETS)));
    expect([png.width, png.height, png.colourType]).toEqual([size, size, 6]);
    expect(png.pixels.length).toBe((size * 4 + 1) * size);
  });

  it('the tray icon: transparent corner, brand colour edge, white ring', async () => {
    const png = readPng(await readFile(new URL(TRAY_ICON_FILE, ASSETS)));
    // Every scanline of these files is unfiltered (filter byte 0), so bytes are pixels.
    for (let y = 0; y < 32; y++) expect(png.pixels[y * (32 * 4 + 1)]).toBe(0);
    const at = (x: number, y: number): number[] => [...png.pixels.subarray(y * (32 * 4 + 1) + 1 + x * 4, y * (32 * 4 + 1) + 5 + x * 4)];
    expect(at(0, 0)[3]).toBe(0);
    expect(at(16, 3)).toEqual([0x58, 0x65, 0xf2, 255]);
    expect(at(8, 16)).toEqual([255, 255, 255, 255]);
  });

  it('assets/icon.svg exists', async () => {
    expect(await readFile(new URL('icon.svg', ASSETS), 'utf8')).toContain('<svg');
  });
});

describe('where the shell finds them', () => {
  it('run from the build: the project assets/ folder', async () => {
    expect(shellIcons(false, '/opt/Companion/resources')).toEqual({ tray: join(PROJECT_ASSETS_DIR, TRAY_ICON_FILE), window: join(PROJECT_ASSETS_DIR, WINDOW_ICON_FILE) });
    // The path is relative to the built module (out/main/src/shells/electron/), as Electron runs it.
    const built = (await import(BUILT)) as typeof IconsModule;
    expect(built.PROJECT_ASSETS_DIR).toBe(fileURLToPath(ASSETS));
    expect(existsSync(built.shellIcons(false, undefined).tray)).toBe(true);
    expect(existsSync(built.shellIcons(false, undefined).window)).toBe(true);
  });

  it('packaged: <resources>/icons, where electron-builder.yml copies both', async () => {
    expect(shellIcons(true, '/opt/Companion/resources')).toEqual({
      tray: join('/opt/Companion/resources/icons', TRAY_ICON_FILE),
      window: join('/opt/Companion/resources/icons', WINDOW_ICON_FILE),
    });
    const config = yaml.load(await readFile(new URL('../../../../electron-builder.yml', import.meta.url), 'utf8')) as { extraResources: unknown };
    expect(config.extraResources).toEqual([{ from: 'assets', to: 'icons', filter: [TRAY_ICON_FILE, WINDOW_ICON_FILE] }]);
  });
});
