/**
 * JSON text that JSON.stringify cannot produce (1e400, -0, 30-digit integers, nesting deeper
 * than the stack of a recursive builder): placed in a value as RawJson and spliced into the
 * text by stringifyWithRaw.
 */
export class RawJson {
  constructor(readonly text: string) {}
}

const MARK = '\uE000';

/** JSON.stringify, with every RawJson in `value` written as its text. */
export function stringifyWithRaw(value: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_key, item: unknown) => {
    if (!(item instanceof RawJson)) return item;
    raws.push(item.text);
    return `${MARK}${raws.length - 1}${MARK}`;
  }) ?? 'null';
  if (raws.length === 0) return text;
  return text.replace(new RegExp(`"${MARK}(\\d+)${MARK}"`, 'g'), (_match, index: string) => raws[Number(index)] as string);
}

/** `depth` arrays or objects inside one another around `inner`. */
export function nested(depth: number, kind: 'array' | 'object', inner = '1'): RawJson {
  const open = kind === 'array' ? '[' : '{"a":';
  const close = kind === 'array' ? ']' : '}';
  return new RawJson(`${open.repeat(depth)}${inner}${close.repeat(depth)}`);
}
