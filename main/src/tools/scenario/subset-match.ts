import { formatValue } from './redact.js';

/** Where a value differs from what was expected. `path` is dotted (`data.party.size.0`). */
export interface Mismatch {
  readonly path: string;
  readonly expected: unknown;
  readonly actual: unknown;
  readonly problem: 'missing' | 'different' | 'length';
}

const REGEX = /^\/(.+)\/([dgimsuy]*)$/s;

/** A `/.../flags` string as a RegExp; null for any other value (or an invalid pattern). */
export function patternOf(expected: unknown): RegExp | null {
  if (typeof expected !== 'string') return null;
  const match = REGEX.exec(expected);
  if (match === null) return null;
  try {
    return new RegExp(match[1] as string, match[2]);
  } catch {
    return null;
  }
}

function join(path: string, key: string | number): string {
  return path === '' ? String(key) : `${path}.${key}`;
}

/**
 * The first place where `actual` does not match `expected` as a subset, or null. Objects:
 * every expected key must be present and match; others are ignored. Arrays: same length, item
 * by item. Strings `/.../` are regular expressions (tested against strings and numbers).
 * Anything else must be equal.
 */
export function findMismatch(expected: unknown, actual: unknown, path = ''): Mismatch | null {
  const pattern = patternOf(expected);
  if (pattern !== null) {
    const ok = (typeof actual === 'string' || typeof actual === 'number') && pattern.test(String(actual));
    return ok ? null : { path, expected, actual, problem: actual === undefined ? 'missing' : 'different' };
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return { path, expected, actual, problem: actual === undefined ? 'missing' : 'different' };
    if (actual.length !== expected.length) return { path, expected, actual, problem: 'length' };
    for (let index = 0; index < expected.length; index += 1) {
      const inner = findMismatch(expected[index], actual[index], join(path, index));
      if (inner !== null) return inner;
    }
    return null;
  }
  if (typeof expected === 'object' && expected !== null) {
    if (typeof actual !== 'object' || actual === null || Array.isArray(actual)) {
      return { path, expected, actual, problem: actual === undefined ? 'missing' : 'different' };
    }
    for (const [key, value] of Object.entries(expected)) {
      const inner = findMismatch(value, (actual as Record<string, unknown>)[key], join(path, key));
      if (inner !== null) return inner;
    }
    return null;
  }
  if (Object.is(expected, actual) || expected === actual) return null;
  return { path, expected, actual, problem: actual === undefined ? 'missing' : 'different' };
}

export function matches(expected: unknown, actual: unknown): boolean {
  return findMismatch(expected, actual) === null;
}

/** `expected data.state 'x', got 'y'`; `root` names the whole value (`data`, `event data`). */
export function describeMismatch(mismatch: Mismatch, root: string): string {
  const where = [root, mismatch.path].filter((part) => part !== '').join('.');
  const key = mismatch.path.split('.').at(-1) ?? root;
  const expected = patternOf(mismatch.expected) !== null ? `to match ${String(mismatch.expected)}` : formatValue(mismatch.expected, key);
  switch (mismatch.problem) {
    case 'missing':
      return `expected ${where} ${expected}, got nothing`;
    case 'length':
      return `expected ${where} to have ${(mismatch.expected as unknown[]).length} item(s), got ${(mismatch.actual as unknown[]).length}: ${formatValue(mismatch.actual, key)}`;
    case 'different':
      return `expected ${where} ${expected}, got ${formatValue(mismatch.actual, key)}`;
  }
}

/** The value at a dotted path (`data.message_id`, `user.id`, `0.id`), or undefined. */
export function valueAt(value: unknown, path: string): unknown {
  let current = value;
  for (const key of path.split('.')) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}
