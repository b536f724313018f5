import { open } from 'node:fs/promises';
import { UsageError } from './cli-args.js';

/** How much of a WAV file is read to find its format and data chunks (they come first in every writer we know). */
const HEADER_BYTES = 64 * 1024;

/**
 * How long a RIFF/WAVE file plays, in ms: its `data` chunk's size over the `fmt ` chunk's byte
 * rate. Anything else (not RIFF/WAVE, no such chunks, a zero byte rate) is a UsageError naming
 * the file. Only the header is read.
 */
export async function wavDurationMs(file: string): Promise<number> {
  const handle = await open(file, 'r').catch((error: NodeJS.ErrnoException) => {
    throw new UsageError(`--wav: cannot read ${file} (${error.code ?? error.message})`);
  });
  try {
    const buffer = Buffer.alloc(HEADER_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, HEADER_BYTES, 0);
    return durationOf(buffer.subarray(0, bytesRead), file);
  } finally {
    await handle.close();
  }
}

function durationOf(header: Buffer, file: string): number {
  if (header.length < 12 || header.toString('ascii', 0, 4) !== 'RIFF' || header.toString('ascii', 8, 12) !== 'WAVE') throw new UsageError(`--wav: ${file} is not a WAV file (no RIFF/WAVE header)`);
  let byteRate: number | undefined;
  for (let offset = 12; offset + 8 <= header.length; ) {
    const id = header.toString('ascii', offset, offset + 4);
    const size = header.readUInt32LE(offset + 4);
    if (id === 'fmt ' && offset + 20 <= header.length) byteRate = header.readUInt32LE(offset + 8 + 8);
    if (id === 'data') {
      if (byteRate === undefined || byteRate === 0) throw new UsageError(`--wav: ${file} has no usable fmt chunk before its data`);
      return Math.max(1, Math.round((size / byteRate) * 1000));
    }
    offset += 8 + size + (size % 2);
  }
  throw new UsageError(`--wav: ${file} has no data chunk in its first ${HEADER_BYTES} bytes`);
}
