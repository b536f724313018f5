import * as v from 'valibot';
import type { InjectEventInput } from './event-injection.js';
import type { GatewayFaultInput, OutputShapingInput, TokenErrorInput } from './injection-backend.js';
import { check, InvalidRequest } from '../../host/control/control-schemas.js';

const UNKNOWN_KEY = 'is not a known field';
const int = (min: number, max: number) =>
  v.pipe(v.number('must be a number'), v.integer('must be an integer'), v.minValue(min, `must be at least ${min}`), v.maxValue(max, `must be at most ${max}`));
/** Connection ids as GET /v1/games lists them (`c12`); kept opaque. */
const connectionId = v.pipe(v.string('must be a string'), v.regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'must be a connection id from GET /v1/games'));
const snowflake = v.pipe(v.string('must be a string'), v.regex(/^[0-9]{1,20}$/, 'must be an id of 1 to 20 digits'));

const EventSchema = v.strictObject(
  {
    connection_id: connectionId,
    evt: v.pipe(v.string('must be a string'), v.regex(/^[A-Z][A-Z0-9_]{0,63}$/, 'must be an event name in capitals, like ACTIVITY_JOIN')),
    data: v.optional(v.unknown()),
    force: v.optional(v.boolean('must be true or false')),
  },
  UNKNOWN_KEY,
);

const OutputSchema = v.strictObject(
  {
    connection_id: connectionId,
    delay_ms: v.optional(int(0, 60_000)),
    split: v.optional(v.strictObject({ parts: int(2, 64), gap_ms: v.optional(int(0, 10_000)) }, UNKNOWN_KEY)),
    coalesce: v.optional(v.strictObject({ frames: int(2, 64), window_ms: v.optional(int(1, 10_000)) }, UNKNOWN_KEY)),
  },
  UNKNOWN_KEY,
);

const GatewaySchema = v.strictObject(
  {
    action: v.picklist(['drop', 'pause'], "must be 'drop' or 'pause'"),
    duration_ms: v.optional(int(1, 600_000)),
  },
  UNKNOWN_KEY,
);

const TokenErrorSchema = v.strictObject(
  {
    error: v.pipe(v.string('must be a string'), v.regex(/^[a-z][a-z0-9_]{0,63}$/, 'must be an OAuth2 error code like invalid_grant')),
    error_description: v.optional(v.pipe(v.string('must be a string'), v.maxLength(512, 'must be at most 512 characters'))),
    status: v.optional(int(400, 599)),
    application_id: v.optional(snowflake),
    grant_type: v.optional(v.picklist(['authorization_code', 'refresh_token'], "must be 'authorization_code' or 'refresh_token'")),
    count: v.optional(int(1, 1000)),
  },
  UNKNOWN_KEY,
);

/** Default gap between the pieces of a split frame, and the coalescing window. */
export const DEFAULT_SPLIT_GAP_MS = 5;
export const DEFAULT_COALESCE_WINDOW_MS = 50;

export function parseInjectEvent(body: unknown): InjectEventInput {
  const parsed = check(EventSchema, body, 'body');
  return { connection_id: parsed.connection_id, evt: parsed.evt, data: parsed.data ?? null, force: parsed.force === true };
}

export function parseOutputShaping(body: unknown): OutputShapingInput {
  const parsed = check(OutputSchema, body, 'body');
  return {
    connection_id: parsed.connection_id,
    ...(parsed.delay_ms === undefined ? {} : { delay_ms: parsed.delay_ms }),
    ...(parsed.split === undefined ? {} : { split: { parts: parsed.split.parts, gap_ms: parsed.split.gap_ms ?? DEFAULT_SPLIT_GAP_MS } }),
    ...(parsed.coalesce === undefined ? {} : { coalesce: { frames: parsed.coalesce.frames, window_ms: parsed.coalesce.window_ms ?? DEFAULT_COALESCE_WINDOW_MS } }),
  };
}

export function parseGatewayFault(body: unknown): GatewayFaultInput {
  const parsed = check(GatewaySchema, body, 'body');
  if (parsed.action === 'drop') {
    if (parsed.duration_ms !== undefined) throw new InvalidRequest('duration_ms', 'is only for pause');
    return { action: 'drop' };
  }
  if (parsed.duration_ms === undefined) throw new InvalidRequest('duration_ms', 'is required for pause');
  return { action: 'pause', duration_ms: parsed.duration_ms };
}

export function parseTokenError(body: unknown): TokenErrorInput {
  const parsed = check(TokenErrorSchema, body, 'body');
  return Object.fromEntries(Object.entries(parsed).filter(([, value]) => value !== undefined)) as unknown as TokenErrorInput;
}
