/**
 * A value whose JSON text is already known. Replies on the hot path carry one as their
 * `data`, so the frame is built by concatenation instead of a second JSON.stringify.
 * `toJSON` keeps any generic serialisation of an envelope that holds it correct.
 */
export class JsonText {
  constructor(
    readonly value: unknown,
    readonly text: string,
    /** True when `text` is pure ASCII, so its byte length is its length. */
    readonly ascii: boolean,
  ) {}

  toJSON(): unknown {
    return this.value;
  }
}

/** Characters JSON.stringify would escape (quote, backslash, controls), and anything outside ASCII. */
// eslint-disable-next-line no-control-regex -- the control range is exactly what JSON escapes
const NOT_PLAIN = /["\\\u0000-\u001f\u007f-\uffff]/;
const NON_ASCII = /[\u0080-\uffff]/;

/** Collects JSON text and remembers whether all of it is ASCII. */
export function isAscii(text: string): boolean {
  return !NON_ASCII.test(text);
}

/**
 * `"key":` and `,"key":` of each key written, made once: building them per call made 1.1 KB of
 * garbage per SET_ACTIVITY reply (measured 2026-11-25). The keys are the writers' literals, a
 * few dozen; past KEY_CACHE_LIMIT (never reached) they are built per call again.
 */
const KEY_TEXTS = new Map<string, readonly [first: string, next: string]>();
const KEY_CACHE_LIMIT = 128;

function keyTexts(name: string): readonly [first: string, next: string] {
  const known = KEY_TEXTS.get(name);
  if (known !== undefined) return known;
  const texts = [`"${name}":`, `,"${name}":`] as const;
  if (KEY_TEXTS.size < KEY_CACHE_LIMIT) KEY_TEXTS.set(name, texts);
  return texts;
}

export class JsonWriter {
  text = '';
  ascii = true;

  /** JSON.stringify(value) for a string, without the escaper when nothing needs escaping. */
  string(value: string): this {
    if (NOT_PLAIN.test(value)) {
      const quoted = JSON.stringify(value);
      this.text += quoted;
      if (this.ascii && NON_ASCII.test(quoted)) this.ascii = false;
    } else {
      this.text += '"' + value + '"';
    }
    return this;
  }

  /** A finite number (JSON.stringify writes String(n) for those). */
  number(value: number): this {
    this.text += Number.isFinite(value) ? String(value) : 'null';
    return this;
  }

  raw(json: string): this {
    this.text += json;
    return this;
  }

  /** `,"key":` or `"key":` (keys here are plain ASCII literals). */
  key(name: string, first = false): this {
    const texts = keyTexts(name);
    this.text += first ? texts[0] : texts[1];
    return this;
  }

  strings(values: readonly string[]): this {
    this.text += '[';
    for (let i = 0; i < values.length; i += 1) {
      if (i > 0) this.text += ',';
      this.string(values[i] as string);
    }
    this.text += ']';
    return this;
  }

  numbers(values: readonly number[]): this {
    this.text += '[';
    for (let i = 0; i < values.length; i += 1) {
      if (i > 0) this.text += ',';
      this.number(values[i] as number);
    }
    this.text += ']';
    return this;
  }
}
