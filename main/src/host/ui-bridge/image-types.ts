/**
 * The picture types the UI shows from games' servers: rasters only. SVG is refused, not
 * served as an attachment: it is a document that can carry scripts and links, and an <img> of
 * a game's SVG has nothing the player would miss (the client players know shows rasters too).
 */
const SIGNATURES: Readonly<Record<string, (body: Buffer) => boolean>> = {
  'image/png': (body) => body.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  'image/jpeg': (body) => body.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff])),
  'image/gif': (body) => /^GIF8[79]a/.test(body.subarray(0, 6).toString('latin1')),
  'image/webp': (body) => body.subarray(0, 4).toString('latin1') === 'RIFF' && body.subarray(8, 12).toString('latin1') === 'WEBP',
  'image/avif': (body) => body.subarray(4, 8).toString('latin1') === 'ftyp' && /^avi[fs]$/.test(body.subarray(8, 12).toString('latin1')),
};

/** The picture type a Content-Type header names (without parameters, lower case), or null for any other. */
export function imageType(header: string | readonly string[] | undefined): string | null {
  if (typeof header !== 'string') return null;
  const type = header.split(';', 1)[0]?.trim().toLowerCase() ?? '';
  return Object.hasOwn(SIGNATURES, type) ? type : null;
}

/** Whether the bytes start the way a picture of `type` does (what a browser would sniff). */
export function bytesAre(type: string, body: Buffer): boolean {
  return SIGNATURES[type]?.(body) ?? false;
}
