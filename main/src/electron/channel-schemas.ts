import * as v from 'valibot';
import type { InvokeChannel, InvokeChannels } from '../../../preload/src/contract.js';

/**
 * The argument schemas of every invoke channel of the contract. Main checks each call with
 * them before anything reaches the host (the Electron IPC guard here, and the headless web
 * bridge may reuse them). Tuples are strict: an extra argument is an error, not ignored.
 */

const text = (max: number) => v.pipe(v.string(), v.minLength(1), v.maxLength(max));

/** An application or user id. */
export const snowflake = v.pipe(v.string(), v.regex(/^[0-9]{1,20}$/, 'must be an id of 1 to 20 digits'));

/** Ids the host hands out (consent requests, join requests, invites): opaque, bounded. */
export const opaqueId = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_.:-]{1,128}$/, 'must be 1 to 128 letters, digits or _.:-'));

const settingsPatch = v.strictObject({
  consent_policy: v.exactOptional(v.picklist(['prompt', 'approve', 'deny'])),
  consent_always_ask: v.exactOptional(v.boolean()),
});

type ArgsSchemas = { readonly [C in InvokeChannel]: v.GenericSchema<unknown, InvokeChannels[C]['args']> };

export const CHANNEL_SCHEMAS: ArgsSchemas = {
  'companion:ready': v.strictTuple([]),
  'companion:decide-consent': v.strictTuple([opaqueId, v.picklist(['approve', 'deny', 'dismiss'])]),
  'companion:accept-join-request': v.strictTuple([opaqueId]),
  'companion:decline-join-request': v.strictTuple([opaqueId]),
  'companion:accept-invite': v.strictTuple([opaqueId]),
  'companion:request-to-join': v.strictTuple([snowflake, v.nullable(snowflake)]),
  'companion:send-invite': v.strictTuple([snowflake, v.nullable(snowflake)]),
  'companion:revoke-grant': v.strictTuple([snowflake]),
  'companion:send-authorize-request': v.strictTuple([snowflake]),
  'companion:login': v.strictTuple([text(32)]),
  'companion:logout': v.strictTuple([]),
  'companion:update-settings': v.strictTuple([settingsPatch]),
};

export type ArgsCheck<C extends InvokeChannel> =
  | { readonly ok: true; readonly args: InvokeChannels[C]['args'] }
  | { readonly ok: false; readonly reason: string };

/** Parses a call's arguments; the reason names the first wrong argument (for the log only). */
export function parseChannelArgs<C extends InvokeChannel>(channel: C, args: readonly unknown[]): ArgsCheck<C> {
  const schema = CHANNEL_SCHEMAS[channel] as v.GenericSchema<unknown, InvokeChannels[C]['args']>;
  const result = v.safeParse(schema, args, { abortEarly: true });
  if (result.success) return { ok: true, args: result.output };
  const issue = result.issues[0];
  const path = v.getDotPath(issue);
  return { ok: false, reason: `bad arguments${path === null ? '' : ` at ${path}`}: ${issue.message}` };
}
