import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../src/protocol/json-depth.js';
import { nonceOfUnreadPayload, topLevelMember } from '../../src/protocol/json-member.js';

const bytes = (text: string): Buffer => Buffer.from(text, 'utf8');
const text = (found: Uint8Array | undefined): string | undefined => (found === undefined ? undefined : Buffer.from(found).toString('utf8'));
const deep = (depth: number): string => `${'['.repeat(depth)}${']'.repeat(depth)}`;

describe('a top-level member read without parsing the body', () => {
  it('finds the member JSON.parse would give, for any object (property)', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.jsonValue(), fc.boolean(), (rest, nonce, spaced) => {
        const body = JSON.stringify({ ...rest, nonce }, null, spaced ? 2 : undefined);
        const found = text(topLevelMember(bytes(body), 'nonce'));
        expect(found).toBeDefined();
        expect(JSON.parse(found as string)).toEqual(JSON.parse(body).nonce);
      }),
    );
  });

  it('never throws on any bytes, and a member it finds lies inside the body (property)', () => {
    const pieces = fc.constantFrom('{', '}', '[', ']', '"', '\\', ':', ',', ' ', 'nonce', '"nonce"', '1', 'x');
    const bodies = fc.oneof(fc.uint8Array({ maxLength: 200 }), fc.array(pieces, { maxLength: 60 }).map((parts) => bytes(parts.join(''))));
    fc.assert(
      fc.property(bodies, (body) => {
        const found = topLevelMember(body, 'nonce');
        if (found !== undefined) {
          expect(found.length).toBeGreaterThan(0);
          expect(found.byteOffset + found.length).toBeLessThanOrEqual(body.byteOffset + body.length);
        }
        expect(() => nonceOfUnreadPayload(body)).not.toThrow();
      }),
    );
  });

  it('is not fooled by a nested or quoted "nonce", takes the last of a repeated key and decodes an escaped key', () => {
    expect(text(topLevelMember(bytes('{"args":{"nonce":"inner"},"s":"\\"nonce\\":1","nonce":"outer"}'), 'nonce'))).toBe('"outer"');
    expect(topLevelMember(bytes('{"args":{"nonce":"inner"}}'), 'nonce')).toBeUndefined();
    expect(text(topLevelMember(bytes('{"nonce":"a","nonce":"b"}'), 'nonce'))).toBe('"b"');
    expect(text(topLevelMember(bytes('{"non\\u0063e":7}'), 'nonce'))).toBe('7');
  });

  it('skips a value nested far deeper than the limit, before or after the member', () => {
    const depth = 30_000;
    expect(text(topLevelMember(bytes(`{"args":${deep(depth)},"nonce":"n1"}`), 'nonce'))).toBe('"n1"');
    expect(text(topLevelMember(bytes(`{"nonce":"n2","args":${deep(depth)}}`), 'nonce'))).toBe('"n2"');
  });

  it('gives nothing for text that is not an object or breaks before the member', () => {
    for (const body of ['', '[]', '"nonce"', '{"args":[[[', '{"args" "nonce":"x"}', '{"args":1 "nonce":"x"}', '{"nonce":']) {
      expect(topLevelMember(bytes(body), 'nonce')).toBeUndefined();
    }
  });

  it('the nonce of an unread payload: its value, or null when missing, empty, broken or itself too deep', () => {
    expect(nonceOfUnreadPayload(bytes(`{"args":${deep(MAX_JSON_DEPTH + 1)},"nonce":{"n":[1]}}`))).toEqual({ n: [1] });
    expect(nonceOfUnreadPayload(bytes(`{"args":${deep(MAX_JSON_DEPTH + 1)}}`))).toBeNull();
    expect(nonceOfUnreadPayload(bytes(`{"args":${deep(MAX_JSON_DEPTH + 1)},"nonce":""}`))).toBeNull();
    expect(nonceOfUnreadPayload(bytes(`{"nonce":tru,"args":${deep(MAX_JSON_DEPTH + 1)}}`))).toBeNull();
    expect(nonceOfUnreadPayload(bytes(`{"nonce":${deep(MAX_JSON_DEPTH + 1)}}`))).toBeNull();
  });
});
