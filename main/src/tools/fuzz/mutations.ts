import { HOSTILE_KEYS, hostileValue, withOwnKey } from './hostile-values.js';
import { nested, RawJson, stringifyWithRaw } from './raw-json.js';
import type { SeededRandom } from './seeded-random.js';

type Json = Record<string, unknown>;
type Path = readonly string[];

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof RawJson);
}

/** Every path into `value` up to `depth` levels (objects and arrays), the root's keys included. */
function paths(value: Json, depth = 4, prefix: Path = []): Path[] {
  const out: Path[] = [];
  for (const key of Object.keys(value)) {
    const path = [...prefix, key];
    out.push(path);
    const item = value[key];
    if (depth > 1 && (isObject(item) || Array.isArray(item))) out.push(...paths(item as Json, depth - 1, path));
  }
  return out;
}

/** The objects inside `value` (itself included), as paths. */
function objectPaths(value: Json): Path[] {
  return [[], ...paths(value).filter((path) => isObject(at(value, path)))];
}

function at(value: Json, path: Path): unknown {
  let cursor: unknown = value;
  for (const key of path) cursor = (cursor as Json)[key];
  return cursor;
}

function parentOf(value: Json, path: Path): Json {
  return at(value, path.slice(0, -1)) as Json;
}

/**
 * Structural mutations of a command payload (mutated in place): a field replaced by a value
 * of the wrong type, removed, wrapped hundreds of levels deep, or an extra (hostile) key.
 * Returns a description for the report.
 */
export function mutatePayload(rng: SeededRandom, payload: Json): string {
  const op = rng.weighted<string>([['replace', 6], ['delete', 2], ['extra', 2], ['wrap', 1]]);
  if (op === 'extra') {
    const path = rng.pick(objectPaths(payload));
    const key = rng.chance(0.7) ? rng.pick(HOSTILE_KEYS) : rng.pick(['nonce', 'cmd', 'evt', 'args', 'pid', 'activity', 'x']);
    const hostile = hostileValue(rng);
    withOwnKey(at(payload, path) as Json, key, hostile.value);
    return `extra ${[...path, key].join('.')}=${hostile.name}`;
  }
  const all = paths(payload);
  if (all.length === 0) return mutatePayload(rng, withOwnKey(payload, 'x', 1));
  const path = rng.pick(all);
  const parent = parentOf(payload, path);
  const key = path.at(-1) as string;
  if (op === 'delete') {
    if (Array.isArray(parent)) parent.splice(Number(key), 1);
    else delete parent[key];
    return `delete ${path.join('.')}`;
  }
  if (op === 'wrap') {
    const depth = rng.pick([10, 200, 250, 256, 257, 400, 3000]);
    parent[key] = nested(depth, rng.chance(0.5) ? 'array' : 'object', stringifyWithRaw(parent[key]));
    return `wrap ${path.join('.')} ${depth} deep`;
  }
  const hostile = hostileValue(rng);
  parent[key] = hostile.value;
  return `replace ${path.join('.')}=${hostile.name}`;
}

const GARBAGE = ['\u0000', '}', ']', ',', '"', '\\', 'NaN', 'undefined', '/*x*/', "'", ':', '\u2028', 'tru'];
const BAD_UTF8 = [Buffer.from([0xff]), Buffer.from([0xc0, 0x80]), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from([0xf4, 0x90, 0x80, 0x80]), Buffer.from([0xe2, 0x82])];

/** Text-level damage to a frame body: truncated, garbage inserted, bad UTF-8, a BOM, duplicate keys. */
export function mutateText(rng: SeededRandom, body: string): { body: Buffer; label: string } {
  const cut = rng.int(0, Math.max(0, body.length - 1));
  switch (rng.pick(['truncate', 'garbage', 'utf8', 'bom', 'duplicate', 'trailing-comma', 'padding', 'empty'])) {
    case 'truncate':
      return { body: Buffer.from(body.slice(0, cut)), label: `truncated at ${cut}` };
    case 'garbage': {
      const junk = rng.pick(GARBAGE);
      return { body: Buffer.from(body.slice(0, cut) + junk + body.slice(cut)), label: `garbage ${JSON.stringify(junk)} at ${cut}` };
    }
    case 'utf8': {
      const bytes = Buffer.from(body);
      const at = rng.int(0, bytes.length);
      return { body: Buffer.concat([bytes.subarray(0, at), rng.pick(BAD_UTF8), bytes.subarray(at)]), label: `invalid UTF-8 at byte ${at}` };
    }
    case 'bom':
      return { body: Buffer.from(`\ufeff${body}`), label: 'byte order mark' };
    case 'duplicate': {
      const key = rng.pick(['cmd', 'nonce', 'args', 'evt', '__proto__']);
      const hostile = hostileValue(rng);
      return { body: Buffer.from(`${body.slice(0, -1)},"${key}":${stringifyWithRaw(hostile.value)}}`), label: `duplicate ${key}=${hostile.name}` };
    }
    case 'trailing-comma':
      return { body: Buffer.from(`${body.slice(0, -1)},}`), label: 'trailing comma' };
    case 'padding':
      return { body: Buffer.from(` \n\t${body}\r\n `), label: 'whitespace around' };
    default:
      return { body: Buffer.alloc(0), label: 'empty body' };
  }
}
