import { PresencePatchSchema, SNOWFLAKE_PATTERN } from '../../../../preload/src/contract/schemas.js';
import type { PresenceSettingsPatch } from '../presence/presence-service.js';
import { check, InvalidRequest } from './control-schemas.js';

export { PresencePatchSchema };

/** PATCH /v1/presence/settings: the contract's PresencePatchSchema (every field optional, unknown fields refused). */
export function parsePresencePatch(body: unknown): PresenceSettingsPatch {
  const parsed = check(PresencePatchSchema, body, 'body');
  if (Array.isArray((body as { rules?: unknown }).rules)) throw new InvalidRequest('rules', 'must be an object of application id: rule');
  for (const applicationId of Object.keys(parsed.rules ?? {})) {
    // Keys first: a record's key issue would not name the key.
    if (!SNOWFLAKE_PATTERN.test(applicationId)) throw new InvalidRequest(`rules.${applicationId.slice(0, 40)}`, 'must be an application id of 1 to 20 digits');
  }
  return parsed as PresenceSettingsPatch;
}
