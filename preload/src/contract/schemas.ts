import * as v from 'valibot';
import { INVOKE_CHANNELS, type InvokeChannel, type InvokeChannels } from './actions.js';
import { ARBITRATION_POLICIES, LOG_LEVELS, REDACTABLE_FIELDS, RELATIONSHIP_ACTIONS, type DetectionPatch, type PresencePatch } from './views.js';

/**
 * The one schema module of the contract (valibot): what every call's arguments must be, used
 * by the Electron IPC guard, the host's UI bridge, the web bridge's message envelope and the
 * control API's routes. Nothing reaches the host before it passed here. Tuples are strict: an
 * extra argument is an error.
 *
 * Not re-exported by the contract's barrel: the sandboxed preload bundle must not carry valibot.
 */

/** Ids the host hands out (consent requests, join requests, invites, origins): opaque, url-safe. */
export const opaqueId = v.pipe(v.string('must be a string'), v.regex(/^[A-Za-z0-9_.:-]{1,128}$/, 'must be 1 to 128 letters, digits or _.:-'));
/** An application or user id. */
export const snowflake = v.pipe(v.string('must be a string'), v.regex(/^[0-9]{1,20}$/, 'must be an id of 1 to 20 digits'));
export const SNOWFLAKE_PATTERN = /^[0-9]{1,20}$/;

/** Non-empty text of at most `max` characters. */
export const text = (max: number) =>
  v.pipe(v.string('must be a string'), v.minLength(1, 'must not be empty'), v.maxLength(max, `must be at most ${max} characters`));

const oneOf = (values: readonly string[]): string => `must be one of ${values.join(', ')}`;

const RuleSchema = v.nullable(
  v.variant(
    'mode',
    [
      v.strictObject({ mode: v.literal('share') }, 'share takes no other fields'),
      v.strictObject({ mode: v.literal('hide') }, 'hide takes no other fields'),
      v.strictObject(
        {
          mode: v.literal('redact'),
          fields: v.optional(
            v.pipe(
              v.array(v.picklist(REDACTABLE_FIELDS, oneOf(REDACTABLE_FIELDS)), 'must be an array'),
              v.minLength(1, 'must name at least one field (or leave it out for the default set)'),
            ),
          ),
        },
        'redact takes only fields',
      ),
    ],
    'must be {mode: share | hide | redact, fields?} or null',
  ),
);

/** A presence settings patch (`PresencePatch`): every field optional, unknown fields refused. Rule keys are not checked here. */
export const PresencePatchSchema = v.strictObject(
  {
    policy: v.optional(v.picklist(ARBITRATION_POLICIES, oneOf(ARBITRATION_POLICIES))),
    pinned_application_id: v.optional(v.nullable(snowflake)),
    hide_all: v.optional(v.boolean('must be true or false')),
    rules: v.optional(v.record(v.string(), RuleSchema, 'must be an object of application id: rule')),
  },
  'is not a presence setting (policy, pinned_application_id, hide_all, rules)',
);

/** The presence patch with the rules' keys checked too (a record's schema does not name a bad key). */
const presencePatch = v.pipe(
  PresencePatchSchema,
  v.check((patch) => Object.keys(patch.rules ?? {}).every((key) => SNOWFLAKE_PATTERN.test(key)), 'rules: every key must be an application id of 1 to 20 digits'),
) as v.GenericSchema<unknown, PresencePatch>;

const detectionPatch = v.strictObject(
  {
    enabled: v.optional(v.boolean('must be a boolean')),
    game: v.optional(v.strictObject({ application_id: snowflake, shown: v.boolean('must be a boolean') }, 'must be {application_id, shown}')),
  },
  'must be an object with only enabled and game',
) as v.GenericSchema<unknown, DetectionPatch>;
/** An executable as a player's "Add it" names it: a path or a file name. */
const executable = v.pipe(v.string('must be a string'), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(260, 'must be at most 260 characters'));
const gameName = v.pipe(v.string('must be a string'), v.trim(), v.minLength(1, 'the name is empty'), v.maxLength(100, 'the name is longer than 100 characters'));

const SettingsPatchSchema = v.strictObject(
  {
    consent_policy: v.exactOptional(v.picklist(['prompt', 'approve', 'deny'], 'must be prompt, approve or deny')),
    consent_always_ask: v.exactOptional(v.boolean('must be a boolean')),
    log_level: v.exactOptional(v.picklist(LOG_LEVELS, `must be ${LOG_LEVELS.join(', ')}`)),
    start_at_login: v.exactOptional(v.boolean('must be a boolean')),
  },
  'must be an object with only consent_policy, consent_always_ask, log_level and start_at_login',
);

const username = text(32);

/** A device flow's user code as the player types it (the platform ignores case and dashes). */
const userCode = v.pipe(v.string('must be a string'), v.trim(), v.minLength(1, 'type the code the game shows'), v.maxLength(32, 'a code is at most 32 characters'));

/** Whom a friend request goes to: a platform username (2 to 32 of a-z, 0-9, _ and .; any case), trimmed, one leading `@` dropped. */
const friendUsername = v.pipe(
  v.string('must be a string'),
  v.trim(),
  v.transform((name: string) => name.replace(/^@/, '')),
  v.minLength(1, 'type a username'),
  v.regex(/^[A-Za-z0-9_.]{2,32}$/, 'a username is 2 to 32 letters, digits, _ or .'),
);

/** The argument schemas of every invoke channel of the contract, and of nothing else. */
export const CHANNEL_SCHEMAS = {
  'companion:ready': v.strictTuple([], 'takes no arguments'),
  'companion:decide-consent': v.strictTuple([opaqueId, v.picklist(['approve', 'deny', 'dismiss'], 'must be approve, deny or dismiss')], 'takes [id, decision]'),
  'companion:accept-join-request': v.strictTuple([opaqueId], 'takes [id]'),
  'companion:decline-join-request': v.strictTuple([opaqueId], 'takes [id]'),
  'companion:accept-invite': v.strictTuple([opaqueId], 'takes [id]'),
  'companion:decline-invite': v.strictTuple([opaqueId], 'takes [id]'),
  'companion:request-to-join': v.strictTuple([snowflake, v.nullable(snowflake)], 'takes [userId, applicationId | null]'),
  'companion:send-invite': v.strictTuple([snowflake, v.nullable(snowflake)], 'takes [userId, applicationId | null]'),
  'companion:send-dm': v.strictTuple([snowflake, v.pipe(v.string(), v.trim(), v.minLength(1, 'the message is empty'), v.maxLength(2000, 'the message is longer than 2,000 characters'))], 'takes [userId, content]'),
  'companion:read-conversation': v.strictTuple([snowflake, v.boolean('must be a boolean')], 'takes [userId, showing]'),
  'companion:change-relationship': v.strictTuple([snowflake, v.picklist(RELATIONSHIP_ACTIONS, oneOf(RELATIONSHIP_ACTIONS))], 'takes [userId, action]'),
  'companion:send-friend-request': v.strictTuple([friendUsername], 'takes [username]'),
  'companion:revoke-grant': v.strictTuple([snowflake], 'takes [applicationId]'),
  'companion:send-authorize-request': v.strictTuple([snowflake], 'takes [applicationId]'),
  'companion:login': v.strictTuple([username], 'takes [username]'),
  'companion:logout': v.strictTuple([], 'takes no arguments'),
  'companion:decide-origin': v.strictTuple([opaqueId, v.picklist(['approve', 'deny'], 'must be approve or deny')], 'takes [id, decision]'),
  'companion:forget-origin': v.strictTuple([opaqueId], 'takes [id]'),
  'companion:doctor': v.strictTuple([], 'takes no arguments'),
  'companion:update-presence': v.strictTuple([presencePatch], 'takes [patch]'),
  'companion:set-recording': v.strictTuple([v.boolean('must be a boolean')], 'takes [on]'),
  'companion:set-voice': v.strictTuple(
    [v.strictObject({ mute: v.optional(v.boolean('must be a boolean')), deaf: v.optional(v.boolean('must be a boolean')) }, 'takes only mute and deaf')],
    'takes [{mute?, deaf?}]',
  ),
  'companion:update-settings': v.strictTuple([SettingsPatchSchema], 'takes [settings]'),
  'companion:watch-inspector': v.strictTuple([v.pipe(v.number('must be a number'), v.safeInteger('must be a safe integer'), v.minValue(0, 'must not be negative'))], 'takes [since]'),
  'companion:preview-device-code': v.strictTuple([userCode], 'takes [userCode]'),
  'companion:decide-device-code': v.strictTuple([userCode, v.boolean('must be a boolean')], 'takes [userCode, authorize]'),
  'companion:close-device-screen': v.strictTuple([opaqueId], 'takes [screenId]'),
  'companion:update-detection': v.strictTuple([detectionPatch], 'takes [patch]'),
  'companion:running-programs': v.strictTuple([], 'takes no arguments'),
  'companion:add-game': v.strictTuple([executable, gameName], 'takes [executable, name]'),
  'companion:remove-game': v.strictTuple([snowflake], 'takes [id]'),
} as const satisfies { readonly [C in InvokeChannel]: v.GenericSchema<unknown, InvokeChannels[C]['args']> };

const EnvelopeSchema = v.strictObject(
  {
    id: v.pipe(v.number('must be a number'), v.safeInteger('must be a safe integer'), v.minValue(0, 'must not be negative')),
    channel: v.string('must be a string'),
    args: v.pipe(v.array(v.unknown(), 'must be an array'), v.maxLength(8, 'has too many items')),
  },
  'must be an object with only id, channel and args',
);

/** A validated invoke from the web bridge: the channel narrows the arguments. */
export type BridgeInvoke = { [C in InvokeChannel]: { readonly id: number; readonly channel: C; readonly args: InvokeChannels[C]['args'] } }[InvokeChannel];

export type ParsedMessage =
  | { readonly ok: true; readonly message: BridgeInvoke }
  /** `id`: the message's own when it had a usable one, else 0. */
  | { readonly ok: false; readonly id: number; readonly error: string };

const CHANNELS: ReadonlySet<string> = new Set(INVOKE_CHANNELS);

/** Is this one of the contract's invoke channels? */
export function isInvokeChannel(channel: unknown): channel is InvokeChannel {
  return typeof channel === 'string' && CHANNELS.has(channel);
}

function describe(issues: readonly v.BaseIssue<unknown>[], prefix: string): string {
  const issue = issues[0];
  if (issue === undefined) return `${prefix}: invalid`;
  const path = v.getDotPath(issue);
  return `${path === null || path === '' ? prefix : `${prefix}.${path}`}: ${issue.message}`;
}

/** The id a malformed message carried, so the UI can still pair the error with its call. */
function salvageId(raw: unknown): number {
  if (typeof raw !== 'object' || raw === null) return 0;
  const id = (raw as { id?: unknown }).id;
  return typeof id === 'number' && Number.isSafeInteger(id) && id >= 0 ? id : 0;
}

/** Validates one decoded web bridge client message. */
export function parseClientMessage(raw: unknown): ParsedMessage {
  const envelope = v.safeParse(EnvelopeSchema, raw);
  if (!envelope.success) return { ok: false, id: salvageId(raw), error: describe(envelope.issues, 'message') };
  const { id, channel, args } = envelope.output;
  if (!isInvokeChannel(channel)) return { ok: false, id, error: 'message.channel: unknown channel' };
  const parsed = v.safeParse(CHANNEL_SCHEMAS[channel], args);
  if (!parsed.success) return { ok: false, id, error: describe(parsed.issues, 'args') };
  return { ok: true, message: { id, channel, args: parsed.output } as BridgeInvoke };
}

export type ArgsCheck<C extends InvokeChannel> =
  | { readonly ok: true; readonly args: InvokeChannels[C]['args'] }
  | { readonly ok: false; readonly reason: string };

/** Parses one call's arguments; the reason names the first wrong argument. */
export function parseChannelArgs<C extends InvokeChannel>(channel: C, args: readonly unknown[]): ArgsCheck<C> {
  const schema = CHANNEL_SCHEMAS[channel] as v.GenericSchema<unknown, InvokeChannels[C]['args']>;
  const result = v.safeParse(schema, args, { abortEarly: true });
  if (result.success) return { ok: true, args: result.output };
  const issue = result.issues[0];
  const path = v.getDotPath(issue);
  return { ok: false, reason: `bad arguments${path === null || path === '' ? '' : ` at ${path}`}: ${issue.message}` };
}
