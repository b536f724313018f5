import * as v from 'valibot';
import { ARBITRATION_POLICIES, REDACTABLE_FIELDS } from '../presence/presence-privacy.js';
import type { PresenceSettingsPatch } from '../presence/presence-service.js';
import { check, InvalidRequest } from './control-schemas.js';

const snowflake = v.pipe(v.string('must be a string'), v.regex(/^[0-9]{1,20}$/, 'must be an id of 1 to 20 digits'));
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

export const PresencePatchSchema = v.strictObject(
  {
    policy: v.optional(v.picklist(ARBITRATION_POLICIES, oneOf(ARBITRATION_POLICIES))),
    pinned_application_id: v.optional(v.nullable(snowflake)),
    hide_all: v.optional(v.boolean('must be true or false')),
    rules: v.optional(v.record(v.string(), RuleSchema, 'must be an object of application id: rule')),
  },
  'is not a presence setting (policy, pinned_application_id, hide_all, rules)',
);

/** PATCH /v1/presence/settings: every field optional, unknown fields refused (a typo must not pass silently). */
export function parsePresencePatch(body: unknown): PresenceSettingsPatch {
  const parsed = check(PresencePatchSchema, body, 'body');
  if (Array.isArray((body as { rules?: unknown }).rules)) throw new InvalidRequest('rules', 'must be an object of application id: rule');
  for (const applicationId of Object.keys(parsed.rules ?? {})) {
    // Keys first: a record's key issue would not name the key.
    if (!/^[0-9]{1,20}$/.test(applicationId)) throw new InvalidRequest(`rules.${applicationId.slice(0, 40)}`, 'must be an application id of 1 to 20 digits');
  }
  return parsed as PresenceSettingsPatch;
}
