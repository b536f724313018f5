import { Decoder } from '@msgpack/msgpack';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MsgpackBuffer, PROTO_KEY, UnencodableValueError } from '../../../src/host/record/msgpack-buffer.js';
import { holdsSecret, redactSecrets } from '../../../src/host/record/redact-secrets.js';
import { JSON_PAYLOAD_EXT } from '../../../../common/src/recording/recording-format.js';
import { recordingDecoder } from '../../../../common/src/recording/recording-codec.js';

function decodeAll(bytes: Uint8Array): unknown[] {
  return [...new Decoder().decodeMulti(bytes)];
}

/** What a JSON round trip makes of a value: what the recording must hold (`__proto__` keys renamed). */
function viaJson(value: unknown): unknown {
  return renameProto(JSON.parse(JSON.stringify(value)));
}

function renameProto(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(renameProto);
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key === '__proto__' ? PROTO_KEY : key] = renameProto(item);
  return out;
}

describe('MsgpackBuffer', () => {
  it('writes any JSON value so that @msgpack/msgpack reads back what JSON would', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { minLength: 1, maxLength: 5 }), (values) => {
        const buffer = new MsgpackBuffer(16);
        for (const value of values) buffer.append(value);
        // -0 becomes 0 in JSON; MessagePack keeps -0 as a float: compare as JSON does.
        expect(viaJson(decodeAll(buffer.take()))).toEqual(values.map(viaJson));
      }),
      { numRuns: 300 },
    );
  });

  it('every integer size, floats, long and non-ASCII strings, large maps and arrays; undefined left out as JSON does', () => {
    const values = [0, 127, 128, 255, 256, 65535, 65536, 2 ** 32 - 1, 2 ** 32, -1, -32, -33, -128, -129, -32768, -32769, -(2 ** 31), -(2 ** 31) - 1, 1795325354229, 0.5, -1.25e-7, NaN, Infinity];
    const big = { long: 'x'.repeat(70_000), utf8: 'héllo wörld ✓ 🎮'.repeat(20), short: 'é', arr: Array.from({ length: 70_000 }, (_, i) => i % 3), map: Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${i}`, i])), huge: Object.fromEntries(Array.from({ length: 70_000 }, (_, i) => [`k${i}`, i])), skipped: undefined, fn: () => 1, date: new Date(0) };
    const buffer = new MsgpackBuffer(8);
    buffer.append(values);
    buffer.append(big);
    expect(decodeAll(buffer.take())).toEqual([viaJson(values), viaJson(big)]);
  });

  it('a __proto__ key (JSON.parse makes one; MessagePack readers refuse it) is written as [__proto__], and the file stays readable', () => {
    const hostile = JSON.parse('{"cmd":"SET_ACTIVITY","args":{"__proto__":{"polluted":true}},"nonce":"1"}') as unknown;
    const buffer = new MsgpackBuffer();
    buffer.append(hostile);
    buffer.append({ after: true });
    expect(decodeAll(buffer.take())).toEqual([{ cmd: 'SET_ACTIVITY', args: { '[__proto__]': { polluted: true } }, nonce: '1' }, { after: true }]);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('a value it cannot write leaves nothing behind; the next one is whole', () => {
    const buffer = new MsgpackBuffer();
    buffer.append({ ok: 1 });
    expect(() => buffer.append({ n: 1n })).toThrow(UnencodableValueError);
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    expect(() => buffer.append(cyclic)).toThrow(UnencodableValueError);
    buffer.append({ ok: 2 });
    expect(decodeAll(buffer.take())).toEqual([{ ok: 1 }, { ok: 2 }]);
  });

  it('appendFrame writes the same bytes as append of the frame record', () => {
    const payload = { cmd: 'AUTHENTICATE', nonce: 'n1', args: { access_token: 'tok', list: [1, 2.5, -3] } };
    for (const redact of [false, true]) {
      // One buffer for all: its per-connection field cache must give each frame its own fields.
      const fast = new MsgpackBuffer();
      const slow = new MsgpackBuffer();
      for (let round = 0; round < 2; round += 1) {
        for (const [connection, transport] of [['c7', 'ipc'], ['c8', 'websocket'], ['c7', 'websocket']] as const) {
          for (const direction of ['in', 'out'] as const) {
            for (const opcode of [0, 1, 3, 200]) {
              fast.appendFrame(12.25 + round, connection, transport, direction, opcode, payload, redact);
              slow.append({ kind: 'frame', t: 12.25 + round, connection, transport, direction, opcode, payload }, redact ? 'payload' : undefined);
            }
          }
        }
      }
      expect(fast.take().equals(slow.take())).toBe(true);
    }
  });

  it('redacting while encoding gives exactly what redactSecrets gives', () => {
    const payloads = [
      { cmd: 'AUTHENTICATE', nonce: 'n1', args: { access_token: 'tok' } },
      { cmd: 'AUTHORIZE', nonce: 'n2', evt: null, data: { code: 'abc' } },
      { cmd: 'X', nonce: 'n3', evt: 'ERROR', data: { code: 4000, message: 'bad' } },
      { cmd: 'SET_ACTIVITY', nonce: 'n4', args: { activity: { state: 's', secrets: { join: 'j', spectate: 's', extra: [1, 'x'] } } } },
      { cmd: 'DISPATCH', nonce: null, evt: 'ACTIVITY_JOIN', data: { secret: 'join-secret' } },
      { cmd: 'AUTHORIZE', nonce: 'n5', args: { nonce: 'oidc', code_verifier: 'v', list: [{ refresh_token: 'r' }, 'plain'] } },
      [{ nonce: 'nested-in-array', token: 't' }],
      { code: 1000, message: 'closed' },
      'a string payload',
      null,
    ];
    for (const payload of payloads) {
      const buffer = new MsgpackBuffer();
      buffer.append({ kind: 'frame', t: 1, payload }, 'payload');
      expect(decodeAll(buffer.take())).toEqual([{ kind: 'frame', t: 1, payload: viaJson(redactSecrets(payload)) }]);
    }
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom('nonce', 'code', 'token', 'secrets', 'state', 'args', 'data', 'id'), fc.jsonValue()), (payload) => {
        const buffer = new MsgpackBuffer();
        buffer.append({ kind: 'gateway', t: 0, type: 'X', data: payload }, 'data');
        expect(viaJson(decodeAll(buffer.take())[0])).toEqual(viaJson({ kind: 'gateway', t: 0, type: 'X', data: redactSecrets(payload) }));
      }),
      { numRuns: 300 },
    );
  });

  it('a payload with nothing to redact is recorded as its wire JSON, byte for byte; one with a secret is encoded, redacted', () => {
    const plain = { cmd: 'SET_ACTIVITY', nonce: 'n1', args: { pid: 7, activity: { state: 'Ünïcode ✓', party: { size: [1, 4] } } } };
    const json = Buffer.from(JSON.stringify(plain));
    const buffer = new MsgpackBuffer();
    buffer.appendFrame(1, 'c1', 'ipc', 'in', 1, plain, true, json);
    const bytes = buffer.take();
    // ext8: 0xc7, length, type, then the bytes themselves.
    const at = bytes.indexOf(json);
    expect(at).toBeGreaterThan(3);
    expect([...bytes.subarray(at - 3, at)]).toEqual([0xc7, json.length, JSON_PAYLOAD_EXT]);
    expect([...recordingDecoder().decodeMulti(bytes)]).toEqual([{ kind: 'frame', t: 1, connection: 'c1', transport: 'ipc', direction: 'in', opcode: 1, payload: plain }]);
    // A plain decoder still reads the file: the payload is an extension object.
    expect(decodeAll(bytes)[0]).toMatchObject({ kind: 'frame', payload: { type: JSON_PAYLOAD_EXT } });

    const secret = { cmd: 'SET_ACTIVITY', nonce: 'n2', args: { activity: { state: 'x', secrets: { join: 'the-join-secret' } } } };
    const withSecret = new MsgpackBuffer();
    withSecret.appendFrame(2, 'c1', 'ipc', 'in', 1, secret, true, Buffer.from(JSON.stringify(secret)));
    const secretBytes = withSecret.take();
    expect(secretBytes.includes(Buffer.from('the-join-secret'))).toBe(false);
    expect((decodeAll(secretBytes)[0] as { payload: unknown }).payload).toEqual(redactSecrets(secret));
    // Secrets kept (--record-secrets): the wire JSON as it is.
    const kept = new MsgpackBuffer();
    kept.appendFrame(3, 'c1', 'ipc', 'in', 1, secret, false, Buffer.from(JSON.stringify(secret)));
    expect(kept.take().includes(Buffer.from(JSON.stringify(secret)))).toBe(true);
    // Sizes past ext8: ext16 and ext32 headers.
    for (const size of [300, 70_000]) {
      const big = { cmd: 'X', nonce: 'n', data: 'y'.repeat(size) };
      const b = new MsgpackBuffer();
      b.appendFrame(4, 'c1', 'ipc', 'out', 1, big, true, Buffer.from(JSON.stringify(big)));
      expect((recordingDecoder().decode(b.take()) as { payload: unknown }).payload).toEqual(big);
    }
  });

  it('recorded with its wire JSON, any payload reads back exactly as redactSecrets makes it', () => {
    const key = fc.constantFrom('nonce', 'code', 'token', 'access_token', 'Secret', 'secrets', 'state', 'args', 'data', 'id', 'PASSWORD', 'list');
    const { value } = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null)), tie('array'), tie('object')),
      array: fc.array(tie('value'), { maxLength: 3 }),
      object: fc.dictionary(key, tie('value'), { maxKeys: 4 }),
    }));
    fc.assert(
      fc.property(fc.oneof(fc.dictionary(key, value, { maxKeys: 5 }), value), (payload) => {
        const buffer = new MsgpackBuffer();
        buffer.appendFrame(1, 'c1', 'ipc', 'in', 1, payload, true, Buffer.from(JSON.stringify(payload)));
        const record = recordingDecoder().decode(buffer.take()) as { payload: unknown };
        expect(record.payload).toEqual(JSON.parse(JSON.stringify(redactSecrets(payload))));
        if (!holdsSecret(payload)) expect(redactSecrets(payload)).toEqual(payload);
      }),
      { numRuns: 500 },
    );
  });
});
