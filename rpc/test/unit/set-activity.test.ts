import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { normalizeTimestamps } from '../../src/commands/set-activity.js';
import { RpcError, runSetActivity, type SetActivityContext, type SetActivityResult } from '../../src/index.js';

const NOW_MS = 1_750_000_000_000;
const APP_ID = '1234567890123456789';
const ctx: SetActivityContext = {
  applicationId: APP_ID,
  applicationName: 'My Game',
  transport: 'ipc',
  now: () => NOW_MS,
};

function run(args: unknown, context: SetActivityContext = ctx): SetActivityResult {
  return runSetActivity(args, context);
}

/** Runs SET_ACTIVITY with pid 1234 and returns the normalised activity, which must not be a clear. */
function activityOf(activity: unknown): Record<string, unknown> {
  const result = run({ pid: 1234, activity });
  expect(result.pid).toBe(1234);
  if (result.activity === null) throw new Error('expected an activity, got a clear');
  return result.activity as unknown as Record<string, unknown>;
}

function failure(args: unknown, context: SetActivityContext = ctx): { code: number; message: string } {
  try {
    runSetActivity(args, context);
  } catch (error) {
    expect(error).toBeInstanceOf(RpcError);
    const rpc = error as RpcError;
    return { code: rpc.code, message: rpc.message };
  }
  throw new Error('expected runSetActivity to throw an RpcError');
}

function activityFailure(activity: unknown): { code: number; message: string } {
  return failure({ pid: 1234, activity });
}

/** Joi's nested text: child "a" fails because [child "b" fails because ["b" <rule>]]. */
function joi(path: readonly string[], rule: string): string {
  let inner = `"${path[path.length - 1] ?? ''}" ${rule}`;
  for (let i = path.length - 1; i >= 0; i -= 1) inner = `child "${path[i] ?? ''}" fails because [${inner}]`;
  return inner;
}

/** An activity with `value` at `path` (relative to activity). */
function at(path: readonly string[], value: unknown): Record<string, unknown> {
  let node: unknown = value;
  for (let i = path.length - 1; i >= 0; i -= 1) node = { [path[i] ?? '']: node };
  return node as Record<string, unknown>;
}

function get(root: unknown, path: readonly string[]): unknown {
  let node = root;
  for (const key of path) node = (node as Record<string, unknown> | undefined)?.[key];
  return node;
}

const BUTTON = { label: 'Join', url: 'https://example.com/join' };

describe('SET_ACTIVITY: the Joi message helper used by these tests', () => {
  it('produces the literal nested text reported by real clients', () => {
    expect(joi(['activity', 'state'], 'length must be at least 2 characters long')).toBe(
      'child "activity" fails because [child "state" fails because ["state" length must be at least 2 characters long]]',
    );
  });
});

describe('SET_ACTIVITY: pid', () => {
  it('refuses a missing pid on IPC with 4002 "nonzero pid required"', () => {
    expect(failure({ activity: { state: 'In a match' } })).toEqual({ code: 4002, message: 'nonzero pid required' });
    expect(failure({})).toEqual({ code: 4002, message: 'nonzero pid required' });
    expect(failure({ activity: null })).toEqual({ code: 4002, message: 'nonzero pid required' });
  });

  it('accepts pid 0', () => {
    expect(run({ pid: 0 })).toEqual({ pid: 0, activity: null });
    expect(run({ pid: 0, activity: { state: 'ab' } }).pid).toBe(0);
  });

  it('refuses a string pid with Joi text', () => {
    expect(failure({ pid: '12' })).toEqual({ code: 4000, message: 'child "pid" fails because ["pid" must be a number]' });
  });

  it('refuses a negative pid', () => {
    expect(failure({ pid: -1 })).toEqual({
      code: 4000,
      message: 'child "pid" fails because ["pid" must be larger than or equal to 0]',
    });
  });

  it('does not require pid outside IPC', () => {
    expect(run({ activity: { state: 'ab' } }, { ...ctx, transport: 'websocket' }).pid).toBeNull();
  });
});

describe('SET_ACTIVITY: clearing', () => {
  it('treats an absent activity as a clear', () => {
    expect(run({ pid: 42 })).toEqual({ pid: 42, activity: null });
  });

  it('treats activity null as a clear', () => {
    expect(run({ pid: 42, activity: null })).toEqual({ pid: 42, activity: null });
  });

  it('refuses an activity that is not an object', () => {
    expect(activityFailure('playing')).toEqual({
      code: 4000,
      message: 'child "activity" fails because ["activity" must be an object]',
    });
  });
});

// Joi's object() refuses arrays ("must be an object"); the real client validates with Joi
// (the real client: "activity object or null"; its server answers with Joi text).
// A PHP client, for one, serialises an empty map as [].
describe('SET_ACTIVITY: arrays are not objects', () => {
  it('refuses activity: [] instead of setting an empty activity', () => {
    expect(activityFailure([])).toEqual({
      code: 4000,
      message: 'child "activity" fails because ["activity" must be an object]',
    });
  });

  it('refuses assets: []', () => {
    expect(activityFailure({ assets: [] })).toEqual({
      code: 4000,
      message: 'child "activity" fails because [child "assets" fails because ["assets" must be an object]]',
    });
  });

  it('refuses secrets: [] as "must be an object" (not by reading Array.prototype.join)', () => {
    expect(activityFailure({ secrets: [] })).toEqual({
      code: 4000,
      message: 'child "activity" fails because [child "secrets" fails because ["secrets" must be an object]]',
    });
  });
});

describe('SET_ACTIVITY: state length (golden messages)', () => {
  it('refuses a 1-character state', () => {
    expect(activityFailure({ state: 'a' })).toEqual({
      code: 4000,
      message:
        'child "activity" fails because [child "state" fails because ["state" length must be at least 2 characters long]]',
    });
  });

  it('refuses a 129-character state', () => {
    expect(activityFailure({ state: 'a'.repeat(129) })).toEqual({
      code: 4000,
      message:
        'child "activity" fails because [child "state" fails because ["state" length must be less than or equal to 128 characters long]]',
    });
  });

  it('accepts exactly 128 ASCII characters', () => {
    expect(activityOf({ state: 'a'.repeat(128) }).state).toBe('a'.repeat(128));
  });

  it('refuses an empty state as "not allowed to be empty"', () => {
    expect(activityFailure({ state: '' })).toEqual({
      code: 4000,
      message: 'child "activity" fails because [child "state" fails because ["state" is not allowed to be empty]]',
    });
  });

  // Observed: limits count UTF-16 code units (JS string length), as Joi does, not code points or bytes.
  it('counts UTF-16 code units: 128 x "é" (1 unit, 2 UTF-8 bytes each) is accepted', () => {
    const state = 'é'.repeat(128);
    expect(Buffer.byteLength(state, 'utf8')).toBe(256);
    expect(activityOf({ state }).state).toBe(state);
  });

  it('counts UTF-16 code units: 64 emoji (128 units) accepted, 65 emoji (130 units) refused', () => {
    expect(activityOf({ state: '😀'.repeat(64) }).state).toBe('😀'.repeat(64));
    expect(activityFailure({ state: '😀'.repeat(65) })).toEqual({
      code: 4000,
      message: joi(['activity', 'state'], 'length must be less than or equal to 128 characters long'),
    });
  });

  it('counts UTF-16 code units: a single emoji (2 units) meets the 2-character minimum', () => {
    expect(activityOf({ state: '😀' }).state).toBe('😀');
  });
});

describe('SET_ACTIVITY: text field limits', () => {
  const textFields: ReadonlyArray<readonly [path: readonly string[], min: number, max: number]> = [
    [['state'], 2, 128],
    [['details'], 2, 128],
    [['name'], 1, 128],
    [['assets', 'large_text'], 2, 128],
    [['assets', 'small_text'], 2, 128],
    [['assets', 'large_image'], 1, 300],
    [['assets', 'small_image'], 1, 300],
    [['assets', 'invite_cover_image'], 1, 300],
    [['party', 'id'], 2, 128],
    [['secrets', 'join'], 2, 128],
    [['secrets', 'spectate'], 2, 128],
    [['secrets', 'match'], 2, 128],
  ];

  describe.each(textFields)('%j', (path, min, max) => {
    const full = ['activity', ...path];

    it(`accepts ${min} and ${max} characters and keeps the value`, () => {
      for (const length of [min, max]) {
        const value = 'x'.repeat(length);
        expect(get(activityOf(at(path, value)), path)).toBe(value);
      }
    });

    it(`refuses ${max + 1} characters`, () => {
      expect(activityFailure(at(path, 'x'.repeat(max + 1)))).toEqual({
        code: 4000,
        message: joi(full, `length must be less than or equal to ${max} characters long`),
      });
    });

    it('refuses an empty string as "not allowed to be empty"', () => {
      expect(activityFailure(at(path, ''))).toEqual({ code: 4000, message: joi(full, 'is not allowed to be empty') });
    });

    if (min > 1) {
      it(`refuses ${min - 1} characters`, () => {
        expect(activityFailure(at(path, 'x'.repeat(min - 1)))).toEqual({
          code: 4000,
          message: joi(full, `length must be at least ${min} characters long`),
        });
      });
    }

    it('refuses a non-string', () => {
      expect(activityFailure(at(path, 12345))).toEqual({ code: 4000, message: joi(full, 'must be a string') });
    });
  });

  it('renders the nested assets.large_text message exactly', () => {
    expect(activityFailure({ assets: { large_text: 'a' } })).toEqual({
      code: 4000,
      message:
        'child "activity" fails because [child "assets" fails because [child "large_text" fails because ["large_text" length must be at least 2 characters long]]]',
    });
  });
});

describe('SET_ACTIVITY: URL fields', () => {
  const urlFields: ReadonlyArray<readonly string[]> = [
    ['state_url'],
    ['details_url'],
    ['assets', 'large_url'],
    ['assets', 'small_url'],
  ];

  describe.each(urlFields)('%j', (...path) => {
    const full = ['activity', ...path];

    it('accepts a URL and keeps it', () => {
      expect(get(activityOf(at(path, 'https://example.com/x?y=1')), path)).toBe('https://example.com/x?y=1');
    });

    it('refuses text that is not a URI', () => {
      expect(activityFailure(at(path, 'not a url'))).toEqual({ code: 4000, message: joi(full, 'must be a valid uri') });
      expect(activityFailure(at(path, 'example.com/page'))).toEqual({
        code: 4000,
        message: joi(full, 'must be a valid uri'),
      });
    });

    it('accepts 256 characters and refuses 257', () => {
      const base = 'https://example.com/';
      const url256 = base + 'a'.repeat(256 - base.length);
      expect(url256).toHaveLength(256);
      expect(get(activityOf(at(path, url256)), path)).toBe(url256);
      expect(activityFailure(at(path, url256 + 'a'))).toEqual({
        code: 4000,
        message: joi(full, 'length must be less than or equal to 256 characters long'),
      });
    });

    it('refuses an empty string with 4000 and Joi text for that field', () => {
      // The exact rule text for '' is not known from the real client; the nesting is.
      const { code, message } = activityFailure(at(path, ''));
      expect(code).toBe(4000);
      const [prefix] = joi(full, '\u0000').split('\u0000');
      expect(message.startsWith(prefix ?? '')).toBe(true);
    });
  });

  it('renders the state_url message exactly', () => {
    expect(activityFailure({ state_url: 'not a url' })).toEqual({
      code: 4000,
      message: 'child "activity" fails because [child "state_url" fails because ["state_url" must be a valid uri]]',
    });
  });
});

describe('SET_ACTIVITY: type and status_display_type', () => {
  it.each([0, 2, 3, 5])('accepts type %i and returns it', (type) => {
    expect(activityOf({ type }).type).toBe(type);
  });

  it.each([1, 4, 6, -1])('refuses type %j', (type) => {
    expect(activityFailure({ type })).toEqual({
      code: 4000,
      message: 'child "activity" fails because [child "type" fails because ["type" must be one of [0, 2, 3, 5]]]',
    });
  });

  it('refuses a type that is not a number as Joi does, before the allowed values', () => {
    expect(activityFailure({ type: '0' })).toEqual({
      code: 4000,
      message: 'child "activity" fails because [child "type" fails because ["type" must be a number]]',
    });
  });

  it.each([0, 1, 2])('accepts status_display_type %i and keeps it', (value) => {
    expect(activityOf({ status_display_type: value }).status_display_type).toBe(value);
  });

  it('refuses status_display_type 3', () => {
    expect(activityFailure({ status_display_type: 3 })).toEqual({
      code: 4000,
      message:
        'child "activity" fails because [child "status_display_type" fails because ["status_display_type" must be one of [0, 1, 2]]]',
    });
  });
});

describe('SET_ACTIVITY: party.size', () => {
  it('accepts [1, 4]', () => {
    expect(activityOf({ party: { id: 'party-1', size: [1, 4] } }).party).toEqual({ id: 'party-1', size: [1, 4] });
  });

  it('accepts [2, 0] (0: no maximum shown)', () => {
    expect(activityOf({ party: { size: [2, 0] } }).party).toEqual({ size: [2, 0] });
  });

  it('refuses a current size of 0', () => {
    expect(activityFailure({ party: { size: [0, 4] } })).toEqual({
      code: 4000,
      message:
        'child "activity" fails because [child "party" fails because [child "size" fails because ["size" at position 0 fails because ["0" must be larger than or equal to 1]]]]',
    });
  });

  it('refuses a negative maximum', () => {
    expect(activityFailure({ party: { size: [1, -1] } })).toEqual({
      code: 4000,
      message:
        'child "activity" fails because [child "party" fails because [child "size" fails because ["size" at position 1 fails because ["1" must be larger than or equal to 0]]]]',
    });
  });

  it.each([[[3]], [[1, 2, 3]], [[]]])('refuses %j: must contain 2 items', (size) => {
    expect(activityFailure({ party: { size } })).toEqual({
      code: 4000,
      message: 'child "activity" fails because [child "party" fails because [child "size" fails because ["size" must contain 2 items]]]',
    });
  });

  it('refuses a privacy outside 0/1', () => {
    expect(activityFailure({ party: { privacy: 2 } })).toEqual({
      code: 4000,
      message: joi(['activity', 'party', 'privacy'], 'must be one of [0, 1]'),
    });
  });
});

describe('SET_ACTIVITY: buttons', () => {
  it('refuses an empty list', () => {
    expect(activityFailure({ buttons: [] })).toEqual({
      code: 4000,
      message: 'child "activity" fails because [child "buttons" fails because ["buttons" must contain at least 1 items]]',
    });
  });

  it('refuses three buttons', () => {
    expect(activityFailure({ buttons: [BUTTON, BUTTON, BUTTON] })).toEqual({
      code: 4000,
      message:
        'child "activity" fails because [child "buttons" fails because ["buttons" must contain less than or equal to 2 items]]',
    });
  });

  it('accepts a 32-character label and refuses 33', () => {
    expect(activityOf({ buttons: [{ label: 'L'.repeat(32), url: BUTTON.url }] }).buttons).toEqual(['L'.repeat(32)]);
    expect(activityFailure({ buttons: [{ label: 'L'.repeat(33), url: BUTTON.url }] })).toEqual({
      code: 4000,
      message:
        'child "activity" fails because [child "buttons" fails because ["buttons" at position 0 fails because [child "label" fails because ["label" length must be less than or equal to 32 characters long]]]]',
    });
  });

  it('refuses a missing label with "is required"', () => {
    expect(activityFailure({ buttons: [{ url: BUTTON.url }] })).toEqual({
      code: 4000,
      message:
        'child "activity" fails because [child "buttons" fails because ["buttons" at position 0 fails because [child "label" fails because ["label" is required]]]]',
    });
  });

  it('refuses a missing url with "is required"', () => {
    expect(activityFailure({ buttons: [{ label: 'Join' }] })).toEqual({
      code: 4000,
      message:
        'child "activity" fails because [child "buttons" fails because ["buttons" at position 0 fails because [child "url" fails because ["url" is required]]]]',
    });
  });

  it('refuses a url that is not a URI, naming the position of the bad button', () => {
    expect(activityFailure({ buttons: [BUTTON, { label: 'Watch', url: 'not a url' }] })).toEqual({
      code: 4000,
      message:
        'child "activity" fails because [child "buttons" fails because ["buttons" at position 1 fails because [child "url" fails because ["url" must be a valid uri]]]]',
    });
  });

  it('accepts a 512-character url and refuses 513', () => {
    const base = 'https://example.com/';
    const url = base + 'u'.repeat(512 - base.length);
    expect((activityOf({ buttons: [{ label: 'Go', url }] }).metadata as { button_urls: string[] }).button_urls).toEqual([
      url,
    ]);
    expect(activityFailure({ buttons: [{ label: 'Go', url: url + 'u' }] })).toEqual({
      code: 4000,
      message:
        'child "activity" fails because [child "buttons" fails because ["buttons" at position 0 fails because [child "url" fails because ["url" length must be less than or equal to 512 characters long]]]]',
    });
  });
});

describe('SET_ACTIVITY: timestamps', () => {
  it('refuses start 0', () => {
    expect(activityFailure({ timestamps: { start: 0 } })).toEqual({
      code: 4000,
      message:
        'child "activity" fails because [child "timestamps" fails because [child "start" fails because ["start" must be larger than or equal to 1]]]',
    });
  });

  it('refuses end 0 and a string start', () => {
    expect(activityFailure({ timestamps: { end: 0 } })).toEqual({
      code: 4000,
      message: joi(['activity', 'timestamps', 'end'], 'must be larger than or equal to 1'),
    });
    expect(activityFailure({ timestamps: { start: '1700000000' } })).toEqual({
      code: 4000,
      message: joi(['activity', 'timestamps', 'start'], 'must be a number'),
    });
  });

  it('turns seconds into milliseconds', () => {
    expect(activityOf({ timestamps: { start: 1700000000 } }).timestamps).toEqual({ start: 1700000000000 });
    expect(activityOf({ timestamps: { start: 1700000000, end: 1700003600 } }).timestamps).toEqual({
      start: 1700000000000,
      end: 1700003600000,
    });
  });

  it('keeps milliseconds as they are', () => {
    expect(activityOf({ timestamps: { start: 1700000000000, end: 1700003600000 } }).timestamps).toEqual({
      start: 1700000000000,
      end: 1700003600000,
    });
  });

  it('turns fractional seconds into whole milliseconds', () => {
    expect(activityOf({ timestamps: { start: 1700000000.5 } }).timestamps).toEqual({ start: 1700000000500 });
  });

  it('judges seconds as 10^(digits of now - 3) says, for any clock and value', () => {
    const reference = (value: number, nowMs: number): number => {
      const below = 10 ** (String(Math.floor(nowMs)).length - 3);
      return Math.floor(value) < below ? Math.floor(value * 1000) : Math.floor(value);
    };
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1e16, noNaN: true }), fc.double({ min: 0, max: 1e16, noNaN: true }), (start, nowMs) => {
        expect(normalizeTimestamps({ start }, nowMs)).toEqual({ start: reference(start, nowMs) });
      }),
      { numRuns: 2000 },
    );
  });

  it('judges seconds against the injected clock, not the real one', () => {
    // With a clock of 10 digits (ms), a 10-digit value is already milliseconds.
    const early = { ...ctx, now: () => 1_000_000_000 };
    const result = run({ pid: 1, activity: { timestamps: { start: 1_000_000_000 } } }, early);
    expect((result.activity as unknown as { timestamps: unknown }).timestamps).toEqual({ start: 1_000_000_000 });
  });
});

describe('SET_ACTIVITY: secrets (5005)', () => {
  it('refuses secrets together with buttons', () => {
    expect(activityFailure({ secrets: { join: 'join-secret' }, buttons: [BUTTON] })).toEqual({
      code: 5005,
      message: 'secrets cannot currently be sent with buttons',
    });
  });

  it('refuses duplicate secrets', () => {
    expect(activityFailure({ secrets: { join: 'same-secret', spectate: 'same-secret' } })).toEqual({
      code: 5005,
      message: 'secrets must be unique',
    });
    expect(activityFailure({ secrets: { match: 'same-secret', join: 'same-secret' } })).toEqual({
      code: 5005,
      message: 'secrets must be unique',
    });
  });

  it('refuses a secret equal to the party id', () => {
    expect(activityFailure({ party: { id: 'party-1' }, secrets: { join: 'party-1' } })).toEqual({
      code: 5005,
      message: 'secrets cannot match the party id',
    });
    expect(activityFailure({ party: { id: 'party-1' }, secrets: { match: 'party-1' } })).toEqual({
      code: 5005,
      message: 'secrets cannot match the party id',
    });
  });

  it('accepts distinct secrets that differ from the party id, without buttons', () => {
    const activity = activityOf({
      party: { id: 'party-1', size: [1, 4] },
      secrets: { join: 'join-1', spectate: 'spectate-1', match: 'match-1' },
    });
    expect(activity.secrets).toEqual({ join: 'join-1', spectate: 'spectate-1', match: 'match-1' });
  });

  it('validates the schema (4000) before the secret rules (5005)', () => {
    expect(activityFailure({ state: 'a', secrets: { join: 'dup-secret', spectate: 'dup-secret' } }).code).toBe(4000);
  });
});

describe('SET_ACTIVITY: unknown keys', () => {
  it('accepts unknown activity keys and leaves them out of the result', () => {
    const activity = activityOf({ state: 'In a match', created_at: 1700000000000, foo: 'bar' });
    expect(activity.state).toBe('In a match');
    expect(activity).not.toHaveProperty('created_at');
    expect(activity).not.toHaveProperty('foo');
  });

  it('accepts unknown nested and top-level keys', () => {
    const result = run({ pid: 7, extra: true, activity: { assets: { large_image: 'map', bogus: 1 } } });
    expect(result.activity?.assets).toEqual({ large_image: 'map' });
    expect(result).not.toHaveProperty('extra');
  });
});

describe('SET_ACTIVITY: normalised result', () => {
  it('defaults name to the application name, and adds application_id, type 0, platform and empty metadata', () => {
    expect(activityOf({ state: 'In a match' })).toEqual({
      state: 'In a match',
      name: 'My Game',
      type: 0,
      application_id: APP_ID,
      platform: 'desktop',
      metadata: {},
    });
  });

  it('keeps a given activity name', () => {
    expect(activityOf({ name: 'Custom Name', state: 'ab' }).name).toBe('Custom Name');
  });

  it('turns buttons into labels plus metadata.button_urls', () => {
    const activity = activityOf({
      buttons: [
        { label: 'Website', url: 'https://example.com' },
        { label: 'Discord', url: 'https://discord.gg/abc' },
      ],
    });
    expect(activity.buttons).toEqual(['Website', 'Discord']);
    expect(activity.metadata).toEqual({ button_urls: ['https://example.com', 'https://discord.gg/abc'] });
  });

  it('removes party.privacy and instance', () => {
    const activity = activityOf({ party: { id: 'party-1', size: [2, 4], privacy: 0 }, instance: false });
    expect(activity.party).toEqual({ id: 'party-1', size: [2, 4] });
    expect(activity.party).not.toHaveProperty('privacy');
    expect(activity).not.toHaveProperty('instance');
  });

  it.each([
    ['instance: true', { instance: true }, 1],
    ['a join secret', { secrets: { join: 'join-1' } }, 2],
    ['a spectate secret', { secrets: { spectate: 'spectate-1' } }, 4],
    ['party privacy 1', { party: { privacy: 1 } }, 64 | 128],
    [
      'all of them',
      { instance: true, secrets: { join: 'join-1', spectate: 'spectate-1' }, party: { id: 'p-1', privacy: 1 } },
      1 | 2 | 4 | 64 | 128,
    ],
  ])('computes flags for %s', (_label, input, flags) => {
    expect(activityOf(input).flags).toBe(flags);
  });

  it.each([
    ['no flag inputs', { state: 'ab' }],
    ['instance: false', { instance: false }],
    ['party privacy 0', { party: { privacy: 0 } }],
    ['only a match secret', { secrets: { match: 'match-1' } }],
  ])('omits flags when they are 0 (%s)', (_label, input) => {
    expect(activityOf(input)).not.toHaveProperty('flags');
  });

  it('normalises a full pypresence/C-lib style activity exactly', () => {
    const result = run({
      pid: 4321,
      activity: {
        state: 'In a match',
        details: 'Ranked',
        timestamps: { start: 1700000000 },
        assets: { large_image: 'map_1', large_text: 'Map One', small_image: 'rank', small_text: 'Gold' },
        party: { id: 'party-1', size: [2, 4], privacy: 1 },
        secrets: { join: 'join-secret' },
        instance: true,
        type: 0,
        status_display_type: 1,
      },
    });
    expect(result).toEqual({
      pid: 4321,
      activity: {
        state: 'In a match',
        details: 'Ranked',
        timestamps: { start: 1700000000000 },
        assets: { large_image: 'map_1', large_text: 'Map One', small_image: 'rank', small_text: 'Gold' },
        party: { id: 'party-1', size: [2, 4] },
        secrets: { join: 'join-secret' },
        status_display_type: 1,
        name: 'My Game',
        type: 0,
        application_id: APP_ID,
        platform: 'desktop',
        metadata: {},
        flags: 1 | 2 | 64 | 128,
      },
    });
  });

  it('normalises an @xhayper style activity with buttons and unknown keys exactly', () => {
    const activity = activityOf({
      type: 2,
      created_at: 1750000000000,
      name: 'Radio',
      details: 'Song title',
      details_url: 'https://example.com/song',
      timestamps: { start: 1749999990000, end: 1750000200000 },
      buttons: [{ label: 'Listen', url: 'https://example.com/listen' }],
      instance: false,
    });
    expect(activity).toEqual({
      name: 'Radio',
      type: 2,
      details: 'Song title',
      details_url: 'https://example.com/song',
      timestamps: { start: 1749999990000, end: 1750000200000 },
      buttons: ['Listen'],
      metadata: { button_urls: ['https://example.com/listen'] },
      application_id: APP_ID,
      platform: 'desktop',
    });
  });

  it('survives a JSON round trip unchanged (what goes on the wire)', () => {
    const activity = activityOf({ state: 'ab', party: { id: 'party-1' }, timestamps: { start: 1700000000 } });
    expect(JSON.parse(JSON.stringify(activity))).toEqual(activity);
  });
});

describe('SET_ACTIVITY: Joi details', () => {
  it('says an empty URL is not allowed to be empty, as Joi checks emptiness before the uri rule', () => {
    expect(activityFailure({ state_url: '' })).toEqual({
      code: 4000,
      message: 'child "activity" fails because [child "state_url" fails because ["state_url" is not allowed to be empty]]',
    });
  });

  it('accepts any number in party.size, as the real schema does', () => {
    expect(activityOf({ party: { id: 'party', size: [1.5, 4] } }).party).toEqual({ id: 'party', size: [1.5, 4] });
  });
});

describe('SET_ACTIVITY: URI syntax (Joi uri(), no URL parsing)', () => {
  it.each(['https://example.com/a?b=c#d', 'steam://rungameid/570', 'https://e.x/%20space', 'mailto:dev@example.com'])('accepts %s', (url) => {
    expect(activityOf({ details_url: url }).details_url).toBe(url);
  });

  it.each(['https://é.example', 'https://e.x/%zz', 'https://e.x/a b', 'https://e.x/"quoted"', '//no-scheme.example', '1http://x'])('refuses %s', (url) => {
    expect(activityFailure({ details_url: url })).toEqual({
      code: 4000,
      message: 'child "activity" fails because [child "details_url" fails because ["details_url" must be a valid uri]]',
    });
  });
});
