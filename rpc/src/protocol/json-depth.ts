/**
 * How deep a payload's JSON may nest. JSON.parse takes any depth, but JSON.stringify (every reply
 * echoes the nonce) and any walk of the value recurse, and a few thousand levels overflow the
 * stack. Real payloads nest under ten levels.
 */
export const MAX_JSON_DEPTH = 256;

/**
 * Whether the JSON text in `body` opens more than `limit` arrays or objects inside one another
 * (brackets inside strings do not count). A body shorter than 2 × (limit + 1) bytes cannot, nor
 * one holding at most `limit` bytes `{` and `[`: ordinary frames cost one comparison or a few
 * native searches; others are scanned at about 1 ns per byte (measured 2026-11-25: 0.56 µs for
 * a 542-byte body, JSON.parse of it 2.0 µs).
 */
export function exceedsJsonDepth(body: Uint8Array, limit: number = MAX_JSON_DEPTH): boolean {
  if (body.length < 2 * (limit + 1)) return false;
  if (!moreOpenersThan(body, limit)) return false;
  let depth = 0;
  for (let i = 0; i < body.length; i++) {
    const byte = body[i];
    if (byte === 0x22) {
      i = closingQuote(body, i);
      if (i < 0) return false;
    } else if (byte === 0x5b || byte === 0x7b) {
      depth += 1;
      if (depth > limit) return true;
    } else if (byte === 0x5d || byte === 0x7d) depth -= 1;
  }
  return false;
}

/**
 * Whether `body` holds more than `limit` bytes `{` and `[` (in strings or not): nesting deeper
 * than `limit` needs that many. Real payloads hold a few, found by the native indexOf in a few
 * jumps, so they skip the byte-by-byte scan (measured 2026-11-25 on the bench's 643-byte
 * SET_ACTIVITY body: 0.2 µs, the scan 0.59 µs).
 */
function moreOpenersThan(body: Uint8Array, limit: number): boolean {
  let count = 0;
  for (const opener of OPENERS) {
    for (let at = body.indexOf(opener); at >= 0; at = body.indexOf(opener, at + 1)) {
      count += 1;
      if (count > limit) return true;
    }
  }
  return false;
}

const OPENERS = [0x7b, 0x5b] as const;

/** Index of the quote that ends the string opened at `open`, or -1. */
export function closingQuote(body: Uint8Array, open: number): number {
  let at = open;
  for (;;) {
    at = body.indexOf(0x22, at + 1);
    if (at < 0) return -1;
    let backslashes = 0;
    while (body[at - 1 - backslashes] === 0x5c) backslashes += 1;
    if (backslashes % 2 === 0) return at;
  }
}
