import { describe, expect, it } from 'vitest';
import { exceedsJsonDepth, MAX_JSON_DEPTH } from '../../src/protocol/json-depth.js';

const bytes = (text: string): Buffer => Buffer.from(text, 'utf8');
const nested = (depth: number, open = '[', close = ']'): string => `${open.repeat(depth)}${close.repeat(depth)}`;

describe('JSON nesting depth', () => {
  it('nesting one level over the limit is found, at the limit it is not, with arrays and objects alike', () => {
    expect(exceedsJsonDepth(bytes(nested(MAX_JSON_DEPTH + 1)))).toBe(true);
    expect(exceedsJsonDepth(bytes(nested(MAX_JSON_DEPTH)))).toBe(false);
    const objects = `${'{"a":'.repeat(MAX_JSON_DEPTH + 1)}1${'}'.repeat(MAX_JSON_DEPTH + 1)}`;
    expect(exceedsJsonDepth(bytes(objects))).toBe(true);
  });

  it('brackets inside strings do not count, however many', () => {
    const text = JSON.stringify({ state: '['.repeat(2 * MAX_JSON_DEPTH), details: '{'.repeat(2 * MAX_JSON_DEPTH) });
    expect(exceedsJsonDepth(bytes(text))).toBe(false);
    const escaped = JSON.stringify({ s: `\\"${'['.repeat(MAX_JSON_DEPTH + 5)}` });
    expect(exceedsJsonDepth(bytes(escaped))).toBe(false);
  });

  it('many brackets side by side are not depth', () => {
    const wide = JSON.stringify(Array.from({ length: MAX_JSON_DEPTH * 2 }, () => [{}]));
    expect(exceedsJsonDepth(bytes(wide))).toBe(false);
  });

  it('a long ordinary payload with few brackets is not deep (the short cut), nor is a plain Uint8Array', () => {
    const payload = JSON.stringify({ cmd: 'SET_ACTIVITY', args: { pid: 1, activity: { state: 'x'.repeat(2000), assets: { large_image: 'y' } } }, nonce: '1' });
    expect(exceedsJsonDepth(bytes(payload))).toBe(false);
    expect(exceedsJsonDepth(new Uint8Array(bytes(nested(MAX_JSON_DEPTH + 1))))).toBe(true);
  });

  it('a custom limit', () => {
    expect(exceedsJsonDepth(bytes(nested(4)), 3)).toBe(true);
    expect(exceedsJsonDepth(bytes(nested(3)), 3)).toBe(false);
  });
});
