import fc from 'fast-check';

/**
 * Values around every rule of the schema. Each field is usually valid, so that most inputs
 * break at most one rule: that is where a fast check that is off by one would show.
 */
const junk = fc.constantFrom<unknown>(null, [], {}, true, 0, -1, Number.NaN, '', 'x', '[]', [1, 2]);
const mostly = <T>(valid: fc.Arbitrary<T>, edges: fc.Arbitrary<unknown>) =>
  fc.oneof({ weight: 38, arbitrary: valid }, { weight: 1, arbitrary: edges }, { weight: 1, arbitrary: junk });
const textOf = (min: number, max: number) =>
  mostly(
    fc.string({ minLength: min, maxLength: max }),
    fc.constantFrom('a'.repeat(Math.max(0, min - 1)), 'a'.repeat(min), 'a'.repeat(max), 'a'.repeat(max + 1), 'é'.repeat(max), '😀'.repeat(max / 2), '😀'.repeat(max / 2 + 1)),
  );
const uriOf = (max: number) =>
  mostly(
    fc.webUrl().filter((url) => url.length <= max),
    fc.constantFrom('steam://run/123', 'not a url', 'https://', `https://e.x/${'a'.repeat(max - 12)}`, `https://e.x/${'a'.repeat(max - 11)}`, 'mailto:a@b.c', 'http://exa mple.com'),
  );
const numberFrom = (min: number) =>
  mostly(fc.integer({ min, max: 2_000_000_000_000 }), fc.constantFrom(min - 1, min - 0.5, min, min + 0.5, Number.NaN, 1e15));
const oneOfNumbers = (valid: readonly number[], invalid: readonly unknown[]) => mostly(fc.constantFrom(...valid), fc.constantFrom(...invalid));
const record = (model: Record<string, fc.Arbitrary<unknown>>) => mostly(fc.record(model, { requiredKeys: [] }), fc.constant('{}'));

const activity = fc.oneof(
  { weight: 1, arbitrary: fc.constantFrom(null, undefined) },
  {
    weight: 12,
    arbitrary: fc.record(
      {
        name: textOf(1, 128),
        type: oneOfNumbers([0, 2, 3, 5], [1, 4, '0', 6]),
        status_display_type: oneOfNumbers([0, 1, 2], [3, -1, '1']),
        state: textOf(2, 128),
        state_url: uriOf(256),
        details: textOf(2, 128),
        details_url: uriOf(256),
        timestamps: record({ start: numberFrom(1), end: numberFrom(1) }),
        assets: record({
          large_image: textOf(1, 300),
          large_text: textOf(2, 128),
          large_url: uriOf(256),
          small_image: textOf(1, 300),
          small_text: textOf(2, 128),
          small_url: uriOf(256),
          invite_cover_image: textOf(1, 300),
        }),
        party: record({
          id: textOf(2, 128),
          size: mostly(fc.tuple(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 0, max: 8 })), fc.constantFrom([0, 4], [1, -1], [1], [1, 2, 3], [Number.NaN, 2], ['1', 2])),
          privacy: oneOfNumbers([0, 1], [2, '1']),
        }),
        secrets: record({ match: textOf(2, 128), join: textOf(2, 128), spectate: textOf(2, 128) }),
        buttons: mostly(
          fc.array(fc.record({ label: textOf(1, 32), url: uriOf(512) }), { minLength: 1, maxLength: 2 }),
          fc.constantFrom([], [{}], [{ label: 'a' }], [{ url: 'https://a.b' }], [{ label: 'a', url: 'https://a.b' }, { label: 'b', url: 'https://a.b' }, { label: 'c', url: 'https://a.b' }]),
        ),
        instance: mostly(fc.boolean(), fc.constantFrom(0, 'true')),
        supported_platforms: mostly(fc.array(textOf(1, 32), { minLength: 1, maxLength: 10 }), fc.constantFrom([], Array(11).fill('desktop'))),
        created_at: fc.integer(),
        unknown_key: fc.anything(),
      },
      { requiredKeys: [] },
    ),
  },
);
/** SET_ACTIVITY args: mostly valid, often one rule broken, sometimes junk. */
export const setActivityArgs = fc.oneof(
  { weight: 12, arbitrary: fc.record({ pid: mostly(fc.integer({ min: 0, max: 70000 }), fc.constantFrom(-1, '1')), activity }, { requiredKeys: ['activity'] }) },
  { weight: 1, arbitrary: junk },
);

