import { readFile, stat } from 'node:fs/promises';
import { decodeCallWav, MAX_CALL_WAV_SECONDS, WavError } from '../../tools/audio/call-wav.js';
import { UsageError } from './cli-args.js';

/** The largest file worth reading: 16-bit stereo at 96 kHz for the longest file, plus headers. */
const MAX_FILE_BYTES = MAX_CALL_WAV_SECONDS * 96_000 * 4 + 1_000_000;

/** A WAV file's samples as a lobby call plays them (decodeCallWav); a problem is a UsageError naming the file. */
export async function wavCallSamples(file: string): Promise<Int16Array> {
  const size = await stat(file).then(
    (info) => info.size,
    (error: NodeJS.ErrnoException) => {
      throw new UsageError(`--wav: cannot read ${file} (${error.code ?? error.message})`);
    },
  );
  if (size > MAX_FILE_BYTES) throw new UsageError(`--wav: ${file} is too large to play into a call (at most ${MAX_CALL_WAV_SECONDS} s)`);
  try {
    return decodeCallWav(await readFile(file));
  } catch (error) {
    if (error instanceof WavError) throw new UsageError(`--wav: ${file} ${error.message}`);
    throw error;
  }
}
