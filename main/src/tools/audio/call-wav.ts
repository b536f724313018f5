/** The rate and layout a lobby call carries: 48 kHz, mono, 16-bit. */
export const CALL_SAMPLE_RATE = 48_000;
/** The longest WAV file played into a call **(ours)**: one minute (its samples travel to the emulator). */
export const MAX_CALL_WAV_SECONDS = 60;
/** Samples per admin request: 36,000 bytes, 48,000 characters of base64, under the emulator's 64 kB body limit. */
export const PCM_CHUNK_SAMPLES = 18_000;
const WAVE_FORMAT_PCM = 1;
const WAVE_FORMAT_EXTENSIBLE = 0xfffe;

/** A file that is not a WAV file a call can play; the message says why (after the file's name). */
export class WavError extends Error {
  override readonly name = 'WavError';
}

interface WavFormat {
  readonly format: number;
  readonly channels: number;
  readonly sampleRate: number;
  readonly bitsPerSample: number;
}

/**
 * A RIFF/WAVE file's samples as a lobby call plays them: 16-bit PCM (any rate, any number of
 * channels) mixed down to mono and resampled to 48 kHz (linear interpolation). Any other
 * encoding (8-bit, 24-bit, float, compressed) is a WavError naming it.
 */
export function decodeCallWav(bytes: Buffer): Int16Array {
  const { format, data } = chunks(bytes);
  if (format.bitsPerSample !== 16 || (format.format !== WAVE_FORMAT_PCM && format.format !== WAVE_FORMAT_EXTENSIBLE)) {
    throw new WavError(`is ${describeFormat(format)}: a call plays 16-bit PCM WAV files only (convert it, e.g. ffmpeg -i IN -c:a pcm_s16le OUT.wav)`);
  }
  if (format.channels < 1 || format.sampleRate < 1000) throw new WavError(`has ${format.channels} channel(s) at ${format.sampleRate} Hz: not playable`);
  const frames = Math.floor(data.length / (2 * format.channels));
  if (frames === 0) throw new WavError('holds no samples');
  if (frames / format.sampleRate > MAX_CALL_WAV_SECONDS) throw new WavError(`plays longer than ${MAX_CALL_WAV_SECONDS} s (the most a call plays from a file)`);
  return resample(mono(data, format.channels, frames), format.sampleRate);
}

/** The samples as base64 of 16-bit little-endian PCM, in chunks one admin request each carries. */
export function pcmChunks(samples: Int16Array): string[] {
  const out: string[] = [];
  for (let at = 0; at < samples.length; at += PCM_CHUNK_SAMPLES) {
    const chunk = samples.subarray(at, at + PCM_CHUNK_SAMPLES);
    const bytes = Buffer.alloc(chunk.length * 2);
    chunk.forEach((sample, index) => bytes.writeInt16LE(sample, index * 2));
    out.push(bytes.toString('base64'));
  }
  return out;
}

function describeFormat(format: WavFormat): string {
  if (format.format === 3) return `${format.bitsPerSample}-bit floating point`;
  if (format.format !== WAVE_FORMAT_PCM && format.format !== WAVE_FORMAT_EXTENSIBLE) return `a compressed WAV (format tag ${format.format})`;
  return `${format.bitsPerSample}-bit PCM`;
}

function chunks(bytes: Buffer): { readonly format: WavFormat; readonly data: Buffer } {
  if (bytes.length < 12 || bytes.toString('ascii', 0, 4) !== 'RIFF' || bytes.toString('ascii', 8, 12) !== 'WAVE') throw new WavError('is not a WAV file (no RIFF/WAVE header)');
  let format: WavFormat | undefined;
  for (let offset = 12; offset + 8 <= bytes.length; ) {
    const id = bytes.toString('ascii', offset, offset + 4);
    const size = bytes.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === 'fmt ' && body + 16 <= bytes.length) {
      format = { format: bytes.readUInt16LE(body), channels: bytes.readUInt16LE(body + 2), sampleRate: bytes.readUInt32LE(body + 4), bitsPerSample: bytes.readUInt16LE(body + 14) };
    }
    if (id === 'data') {
      if (format === undefined) throw new WavError('has no fmt chunk before its data');
      return { format, data: bytes.subarray(body, Math.min(bytes.length, body + size)) };
    }
    offset = body + size + (size % 2);
  }
  throw new WavError('has no data chunk');
}

/** Interleaved 16-bit little-endian frames mixed down to one channel. */
function mono(data: Buffer, channels: number, frames: number): Int16Array {
  const out = new Int16Array(frames);
  for (let frame = 0; frame < frames; frame += 1) {
    let sum = 0;
    for (let channel = 0; channel < channels; channel += 1) sum += data.readInt16LE((frame * channels + channel) * 2);
    out[frame] = Math.round(sum / channels);
  }
  return out;
}

/** Linear interpolation from `rate` to 48 kHz (a copy when it is 48 kHz already). */
function resample(samples: Int16Array, rate: number): Int16Array {
  if (rate === CALL_SAMPLE_RATE) return samples;
  const length = Math.floor((samples.length * CALL_SAMPLE_RATE) / rate);
  const out = new Int16Array(length);
  const step = rate / CALL_SAMPLE_RATE;
  for (let i = 0; i < length; i += 1) {
    const at = i * step;
    const left = Math.floor(at);
    const a = samples[left] ?? 0;
    const b = samples[Math.min(left + 1, samples.length - 1)] ?? a;
    out[i] = Math.round(a + (b - a) * (at - left));
  }
  return out;
}
