import { Decoder, ExtensionCodec } from '@msgpack/msgpack';
import { JSON_PAYLOAD_EXT } from './recording-format.js';

const utf8 = new TextDecoder();

/** The extensions a recording uses: a JSON_PAYLOAD_EXT payload decodes to its JSON value. */
export const recordingExtensions = new ExtensionCodec();
recordingExtensions.register({
  type: JSON_PAYLOAD_EXT,
  encode: () => null,
  decode: (data) => {
    try {
      return JSON.parse(utf8.decode(data)) as unknown;
    } catch {
      return '[not JSON]';
    }
  },
});

/** A decoder for recording files (with their extensions). */
export function recordingDecoder(): Decoder {
  return new Decoder({ extensionCodec: recordingExtensions });
}

/** How a run of MessagePack values ended: on a whole value, inside one ('cut'), or on bytes that are not MessagePack. */
export type DecodeEnd = 'whole' | 'cut' | 'corrupt';

/**
 * Decodes the values in `bytes` one after the other and hands each to `visit`. A decoding error
 * ends the run (reported, not thrown); an error `visit` throws is the caller's and propagates.
 */
export function decodeValues(decoder: Decoder, bytes: Uint8Array, visit: (value: unknown) => void): DecodeEnd {
  const values = decoder.decodeMulti(bytes)[Symbol.iterator]();
  for (;;) {
    let next: IteratorResult<unknown>;
    try {
      next = values.next();
    } catch (error) {
      // RangeError: the bytes end inside a value.
      return error instanceof RangeError ? 'cut' : 'corrupt';
    }
    if (next.done === true) return 'whole';
    visit(next.value);
  }
}
