import { JsonText, JsonWriter } from '../protocol/json-text.js';
import type { GatewayActivity } from './set-activity.js';

/**
 * JSON text of a normalised activity, byte-identical to JSON.stringify(activity) for every
 * activity normalizeActivity builds: the keys come in the order it inserts them. This is
 * the SET_ACTIVITY reply's hot path (about half the cost of JSON.stringify in `npm run
 * bench`'s profile); activity-json.test.ts checks the identity on generated activities.
 */
export function activityJsonText(activity: GatewayActivity): JsonText {
  const w = new JsonWriter();
  w.raw('{').key('name', true).string(activity.name);
  w.key('type').number(activity.type);
  w.key('application_id').string(activity.application_id);
  w.key('platform').string(activity.platform);
  w.key('metadata');
  const urls = activity.metadata.button_urls;
  if (urls === undefined) w.raw('{}');
  else w.raw('{').key('button_urls', true).strings(urls).raw('}');
  if (activity.flags !== undefined) w.key('flags').number(activity.flags);
  if (activity.status_display_type !== undefined) w.key('status_display_type').number(activity.status_display_type);
  if (activity.state !== undefined) w.key('state').string(activity.state);
  if (activity.state_url !== undefined) w.key('state_url').string(activity.state_url);
  if (activity.details !== undefined) w.key('details').string(activity.details);
  if (activity.details_url !== undefined) w.key('details_url').string(activity.details_url);
  const { timestamps, assets, party, secrets } = activity;
  if (timestamps !== undefined) {
    w.key('timestamps').raw('{');
    if (timestamps.start !== undefined) w.key('start', true).number(timestamps.start);
    if (timestamps.end !== undefined) w.key('end', timestamps.start === undefined).number(timestamps.end);
    w.raw('}');
  }
  if (assets !== undefined) {
    w.key('assets').raw('{');
    let first = true;
    for (const name of ASSET_KEYS) {
      const value = assets[name];
      if (value === undefined) continue;
      w.key(name, first).string(value);
      first = false;
    }
    w.raw('}');
  }
  if (party !== undefined) {
    w.key('party').raw('{');
    if (party.id !== undefined) w.key('id', true).string(party.id);
    if (party.size !== undefined) w.key('size', party.id === undefined).numbers(party.size);
    w.raw('}');
  }
  if (secrets !== undefined) {
    w.key('secrets').raw('{');
    let first = true;
    for (const name of SECRET_KEYS) {
      const value = secrets[name];
      if (value === undefined) continue;
      w.key(name, first).string(value);
      first = false;
    }
    w.raw('}');
  }
  if (activity.buttons !== undefined) w.key('buttons').strings(activity.buttons);
  if (activity.supported_platforms !== undefined) w.key('supported_platforms').strings(activity.supported_platforms);
  w.raw('}');
  return new JsonText(activity, w.text, w.ascii);
}

/**
 * `previous` again when `activity` would be written as the same text, else a fresh JsonText.
 * Games repeat their presence (a timer resending it, a state that did not change): the text
 * is the largest garbage of a reply, 3.1 KB of the 10.6 KB a SET_ACTIVITY made (measured
 * 2026-11-25 over the bench's ~570-byte activity, heapUsed across 2,000 calls with the young
 * generation large enough for none to be collected); the comparison makes none.
 */
export function activityJsonTextAfter(previous: JsonText | null, activity: GatewayActivity): JsonText {
  return previous !== null && sameText(previous.value as GatewayActivity, activity) ? previous : activityJsonText(activity);
}

/** True when activityJsonText writes `a` and `b` alike: it compares exactly the fields that writer reads. */
export function sameText(a: GatewayActivity, b: GatewayActivity): boolean {
  return (
    a.name === b.name &&
    a.type === b.type &&
    a.application_id === b.application_id &&
    a.platform === b.platform &&
    sameList(a.metadata.button_urls, b.metadata.button_urls) &&
    a.flags === b.flags &&
    a.status_display_type === b.status_display_type &&
    a.state === b.state &&
    a.state_url === b.state_url &&
    a.details === b.details &&
    a.details_url === b.details_url &&
    sameFields(a.timestamps, b.timestamps, TIMESTAMP_KEYS) &&
    sameFields(a.assets, b.assets, ASSET_KEYS) &&
    sameParty(a.party, b.party) &&
    sameFields(a.secrets, b.secrets, SECRET_KEYS) &&
    sameList(a.buttons, b.buttons) &&
    sameList(a.supported_platforms, b.supported_platforms)
  );
}

function sameList(a: readonly unknown[] | undefined, b: readonly unknown[] | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) return false;
  return true;
}

function sameFields<K extends string>(a: Partial<Record<K, unknown>> | undefined, b: Partial<Record<K, unknown>> | undefined, keys: readonly K[]): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined) return false;
  for (const key of keys) if (a[key] !== b[key]) return false;
  return true;
}

function sameParty(a: GatewayActivity['party'], b: GatewayActivity['party']): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined) return false;
  return a.id === b.id && sameList(a.size, b.size);
}

const TIMESTAMP_KEYS = ['start', 'end'] as const;
/** In the order copyAssets and the secrets copy in normalizeActivity insert them. */
const ASSET_KEYS = ['large_image', 'large_text', 'large_url', 'small_image', 'small_text', 'small_url', 'invite_cover_image'] as const;
const SECRET_KEYS = ['match', 'join', 'spectate'] as const;
