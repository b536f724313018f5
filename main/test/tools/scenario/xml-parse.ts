/**
 * A small strict XML reader for the tests: enough of XML 1.0 to read JUnit files back
 * (declaration, comments, elements, attributes, text, the five entities and character
 * references), and it throws on anything malformed: unbalanced or mismatched tags, a raw `<`
 * or `&` in text, unquoted or repeated attributes, text outside the root, an unknown entity.
 */
export interface XmlElement {
  readonly name: string;
  readonly attributes: Readonly<Record<string, string>>;
  readonly children: XmlElement[];
  text: string;
}

const NAME = /^[A-Za-z_:][A-Za-z0-9_.:-]*/;
const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decode(raw: string, where: number): string {
  if (raw.includes('<')) throw new Error(`raw '<' in text or attribute near ${where}`);
  return raw.replace(/&([^;]*);|&/g, (whole, name: string | undefined) => {
    if (name === undefined) throw new Error(`raw '&' near ${where}`);
    if (name.startsWith('#x')) return String.fromCodePoint(parseInt(name.slice(2), 16));
    if (name.startsWith('#')) return String.fromCodePoint(parseInt(name.slice(1), 10));
    const value = ENTITIES[name];
    if (value === undefined) throw new Error(`unknown entity &${name}; near ${where}`);
    return value;
  });
}

export function parseXml(source: string): XmlElement {
  let at = 0;
  const rest = (): string => source.slice(at);
  const skipSpace = (): void => {
    while (at < source.length && /\s/.test(source[at] as string)) at += 1;
  };
  const expect = (text: string): void => {
    if (!source.startsWith(text, at)) throw new Error(`expected '${text}' at ${at}, found '${source.slice(at, at + 20)}'`);
    at += text.length;
  };
  const skipMisc = (): void => {
    for (;;) {
      skipSpace();
      if (source.startsWith('<!--', at)) {
        const end = source.indexOf('-->', at);
        if (end < 0) throw new Error('unterminated comment');
        at = end + 3;
      } else return;
    }
  };

  if (source.startsWith('<?xml', at)) {
    const end = source.indexOf('?>', at);
    if (end < 0) throw new Error('unterminated XML declaration');
    at = end + 2;
  }
  skipMisc();

  const element = (): XmlElement => {
    expect('<');
    const name = NAME.exec(rest())?.[0];
    if (name === undefined) throw new Error(`bad element name at ${at}`);
    at += name.length;
    const attributes: Record<string, string> = {};
    for (;;) {
      const before = at;
      skipSpace();
      if (source.startsWith('/>', at)) {
        at += 2;
        return { name, attributes, children: [], text: '' };
      }
      if (source.startsWith('>', at)) {
        at += 1;
        break;
      }
      if (at === before) throw new Error(`expected whitespace before an attribute at ${at}`);
      const attribute = NAME.exec(rest())?.[0];
      if (attribute === undefined) throw new Error(`bad attribute name at ${at}`);
      at += attribute.length;
      skipSpace();
      expect('=');
      skipSpace();
      const quote = source[at];
      if (quote !== '"' && quote !== "'") throw new Error(`unquoted attribute ${attribute} at ${at}`);
      const end = source.indexOf(quote, at + 1);
      if (end < 0) throw new Error(`unterminated attribute ${attribute}`);
      if (Object.hasOwn(attributes, attribute)) throw new Error(`repeated attribute ${attribute}`);
      attributes[attribute] = decode(source.slice(at + 1, end), at);
      at = end + 1;
    }
    const node: XmlElement = { name, attributes, children: [], text: '' };
    for (;;) {
      const next = source.indexOf('<', at);
      if (next < 0) throw new Error(`unclosed element ${name}`);
      node.text += decode(source.slice(at, next), at);
      at = next;
      if (source.startsWith('</', at)) {
        at += 2;
        const closing = NAME.exec(rest())?.[0];
        if (closing !== name) throw new Error(`</${closing ?? '?'}> closes <${name}>`);
        at += closing.length;
        skipSpace();
        expect('>');
        return node;
      }
      if (source.startsWith('<!--', at)) {
        skipMisc();
        continue;
      }
      node.children.push(element());
    }
  };

  const root = element();
  skipMisc();
  if (at !== source.length) throw new Error(`content after the root element at ${at}`);
  return root;
}
