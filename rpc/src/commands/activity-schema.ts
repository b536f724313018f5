import * as v from 'valibot';

/*
 * The SET_ACTIVITY argument schema, with the limits of the real client's own validation
 * (its newest published build), and Joi's rule texts as messages so that errors read as
 * the real ones do. Unknown keys are dropped, not rejected: current libraries send keys
 * (created_at, ...) that the client accepts.
 *
 * Where this differs from older notes: image keys and invite_cover_image allow up to 300
 * characters (the newest build; older builds had 256); party.size[0] (current) must be
 * at least 1, size[1] (max) at least 0, where 0 means "no max shown".
 */

const str = v.string('must be a string');
const num = v.number('must be a number');

function text(min: number, max: number) {
  return v.pipe(
    str,
    v.minLength(min, `length must be at least ${min} characters long`),
    v.maxLength(max, `length must be less than or equal to ${max} characters long`),
  );
}

/**
 * Joi's uri(): an RFC 3986 URI with a scheme, checked by syntax as Joi does (no URL parsing):
 * a scheme, then only URI characters, with every `%` followed by two hex digits. Spaces,
 * quotes, angle brackets and non-ASCII characters are refused, as by Joi.
 */
const URI_CHARACTERS = /^[A-Za-z][A-Za-z0-9+.-]*:[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]*$/;
const BAD_PERCENT = /%(?![0-9A-Fa-f]{2})/;

export function isUri(value: string): boolean {
  return URI_CHARACTERS.test(value) && (!value.includes('%') || !BAD_PERCENT.test(value));
}

function uri(max: number) {
  return v.pipe(
    str,
    v.check(isUri, 'must be a valid uri'),
    v.minLength(1, 'length must be at least 1 characters long'),
    v.maxLength(max, `length must be less than or equal to ${max} characters long`),
  );
}

function atLeast(min: number) {
  return v.pipe(num, v.minValue(min, `must be larger than or equal to ${min}`));
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Joi's object(): arrays are not objects (valibot's object() alone would accept them). */
export function obj<T extends v.ObjectEntries>(entries: T) {
  return v.pipe(v.custom<Record<string, unknown>>(isPlainObject, 'must be an object'), v.object(entries, 'must be an object'));
}

/** Joi's number().valid(...): a non-number is "must be a number", a wrong number "must be one of". */
function oneOf<const T extends readonly number[]>(options: T) {
  return v.pipe(
    num,
    v.check((value) => options.includes(value), `must be one of [${options.join(', ')}]`),
  ) as unknown as v.GenericSchema<unknown, T[number]>;
}

export const ALLOWED_ACTIVITY_TYPES = [0, 2, 3, 5] as const;
export const STATUS_DISPLAY_TYPES = [0, 1, 2] as const;
export const PARTY_PRIVACY = [0, 1] as const;

/** `[current, max]`: current at least 1, max at least 0 (0: no max shown). */
const PARTY_SIZE_MINIMUMS = [1, 0] as const;

const partySize = v.pipe(
  v.array(num, 'must be an array'),
  v.length(2, 'must contain 2 items'),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const size = dataset.value;
    for (const [position, min] of PARTY_SIZE_MINIMUMS.entries()) {
      const value = size[position] as number;
      if (value >= min) continue;
      addIssue({
        message: `must be larger than or equal to ${min}`,
        input: value,
        path: [{ type: 'array', origin: 'value', input: size, key: position, value }],
      });
      return;
    }
  }),
);

export const ActivitySchema = obj({
  name: v.optional(text(1, 128)),
  type: v.optional(oneOf(ALLOWED_ACTIVITY_TYPES)),
  status_display_type: v.optional(oneOf(STATUS_DISPLAY_TYPES)),
  state: v.optional(text(2, 128)),
  state_url: v.optional(uri(256)),
  details: v.optional(text(2, 128)),
  details_url: v.optional(uri(256)),
  timestamps: v.optional(
    obj({
      start: v.optional(atLeast(1)),
      end: v.optional(atLeast(1)),
    }),
  ),
  assets: v.optional(
    obj({
      large_image: v.optional(text(1, 300)),
      large_text: v.optional(text(2, 128)),
      large_url: v.optional(uri(256)),
      small_image: v.optional(text(1, 300)),
      small_text: v.optional(text(2, 128)),
      small_url: v.optional(uri(256)),
      invite_cover_image: v.optional(text(1, 300)),
    }),
  ),
  party: v.optional(
    obj({
      id: v.optional(text(2, 128)),
      size: v.optional(partySize),
      privacy: v.optional(oneOf(PARTY_PRIVACY)),
    }),
  ),
  secrets: v.optional(
    obj({
      match: v.optional(text(2, 128)),
      join: v.optional(text(2, 128)),
      spectate: v.optional(text(2, 128)),
    }),
  ),
  buttons: v.optional(
    v.pipe(
      v.array(obj({ label: text(1, 32), url: uri(512) }), 'must be an array'),
      v.minLength(1, 'must contain at least 1 items'),
      v.maxLength(2, 'must contain less than or equal to 2 items'),
    ),
  ),
  instance: v.optional(v.boolean('must be a boolean')),
  supported_platforms: v.optional(
    v.pipe(
      v.array(text(1, 32), 'must be an array'),
      v.minLength(1, 'must contain at least 1 items'),
      v.maxLength(10, 'must contain less than or equal to 10 items'),
    ),
  ),
});

export const SetActivityArgsSchema = obj({
  pid: v.optional(atLeast(0)),
  activity: v.nullish(ActivitySchema),
});

export type ActivityInput = v.InferOutput<typeof ActivitySchema>;
export type SetActivityArgs = v.InferOutput<typeof SetActivityArgsSchema>;
