import { closingQuote, exceedsJsonDepth, MAX_JSON_DEPTH } from './json-depth.js';

/**
 * The JSON text of one member of a top-level object, found without parsing the rest: used to
 * read a request's `nonce` out of a body that is refused unread (nested too deep), so its
 * ERROR can still be matched.
 *
 * One pass over the body at most, with no recursion and no allocation but the result: a
 * nested value is skipped by counting brackets outside strings, as `exceedsJsonDepth` does,
 * however deep it goes. When a key repeats, the last one wins (as JSON.parse does). Text
 * that is not an object, or that breaks before the member, gives undefined; what follows the
 * last member is not checked.
 */
export function topLevelMember(body: Uint8Array, name: string): Uint8Array | undefined {
  let at = skipSpace(body, 0);
  if (body[at] !== OPEN_OBJECT) return undefined;
  let found: Uint8Array | undefined;
  at += 1;
  for (;;) {
    at = skipSpace(body, at);
    if (body[at] !== QUOTE) return found;
    const keyEnd = closingQuote(body, at);
    if (keyEnd < 0) return found;
    const wanted = keyIs(body, at, keyEnd, name);
    at = skipSpace(body, keyEnd + 1);
    if (body[at] !== COLON) return found;
    const valueStart = skipSpace(body, at + 1);
    const valueEnd = endOfValue(body, valueStart);
    if (valueEnd < 0) return found;
    if (wanted) found = body.subarray(valueStart, valueEnd);
    at = skipSpace(body, valueEnd);
    if (body[at] !== COMMA) return found;
    at += 1;
  }
}

/**
 * The `nonce` of a FRAME body that is refused unread: its value when it is a top-level member
 * that is itself valid JSON within the depth limit and not empty (a missing or empty nonce is
 * answered with null, as "Payload requires a nonce" is); else null.
 */
export function nonceOfUnreadPayload(body: Uint8Array, limit: number = MAX_JSON_DEPTH): unknown {
  const text = topLevelMember(body, 'nonce');
  if (text === undefined || exceedsJsonDepth(text, limit)) return null;
  let nonce: unknown;
  try {
    nonce = JSON.parse(DECODER.decode(text));
  } catch {
    return null;
  }
  return nonce === '' ? null : nonce;
}

const QUOTE = 0x22;
const COMMA = 0x2c;
const COLON = 0x3a;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const DECODER = new TextDecoder();

function isSpace(byte: number | undefined): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

function skipSpace(body: Uint8Array, from: number): number {
  let at = from;
  while (isSpace(body[at])) at += 1;
  return at;
}

/** Whether the key quoted from `open` to `close` reads `name` (an ASCII name; escapes decoded). */
function keyIs(body: Uint8Array, open: number, close: number, name: string): boolean {
  const raw = body.subarray(open + 1, close);
  if (!raw.includes(BACKSLASH)) {
    if (raw.length !== name.length) return false;
    for (let i = 0; i < raw.length; i += 1) if (raw[i] !== name.charCodeAt(i)) return false;
    return true;
  }
  // An escaped key is rare: decode just it (it is short of the whole body by construction).
  try {
    return JSON.parse(DECODER.decode(body.subarray(open, close + 1))) === name;
  } catch {
    return false;
  }
}

/** The index just past the value that starts at `start`, or -1 when it does not end. */
function endOfValue(body: Uint8Array, start: number): number {
  const first = body[start];
  if (first === undefined) return -1;
  if (first === QUOTE) {
    const close = closingQuote(body, start);
    return close < 0 ? -1 : close + 1;
  }
  if (first === OPEN_ARRAY || first === OPEN_OBJECT) return endOfNested(body, start);
  let at = start;
  while (at < body.length && !isSpace(body[at]) && body[at] !== COMMA && body[at] !== CLOSE_OBJECT && body[at] !== CLOSE_ARRAY) at += 1;
  return at === start ? -1 : at;
}

/** The index just past the array or object opened at `open` (brackets in strings skipped), or -1. */
function endOfNested(body: Uint8Array, open: number): number {
  let depth = 0;
  for (let at = open; at < body.length; at += 1) {
    const byte = body[at];
    if (byte === QUOTE) {
      at = closingQuote(body, at);
      if (at < 0) return -1;
    } else if (byte === OPEN_ARRAY || byte === OPEN_OBJECT) depth += 1;
    else if (byte === CLOSE_ARRAY || byte === CLOSE_OBJECT) {
      depth -= 1;
      if (depth === 0) return at + 1;
    }
  }
  return -1;
}
