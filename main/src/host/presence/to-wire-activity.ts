import { ActivityFlags } from '../../../../common/src/activity-flags.js';
import type { GatewayActivity } from '../../../../rpc/src/index.js';
import type { WireActivity } from '../../../../platform/src/wire/index.js';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * The activity as the host sends it in Presence Update (op 3), built from the RPC server's
 * normalised activity field by field (no spread, so nothing unknown reaches the wire).
 *
 * - `application_id` is the application the RPC connection authenticated as.
 * - `secrets` are kept: the platform needs the join secret to answer join requests, and it
 *   strips secrets itself when it fans the presence out to friends.
 * - `buttons` go out as `{label, url}` (the sender form): the RPC form keeps labels in
 *   `buttons` and URLs in `metadata.button_urls`, and the platform rebuilds that split for
 *   receivers, so `metadata` is not sent.
 * - `created_at`: the activity's own value when it carries one, else `createdAt` (the relay
 *   passes the time the game's activity began), else absent.
 * - `party.privacy` is restored from the flags: the RPC form keeps only the flag bits.
 * - `platform` ('desktop') has no place in the gateway form and is dropped.
 */
export function toWireActivity(activity: GatewayActivity, applicationId: string, createdAt?: number): WireActivity {
  const wire: Mutable<WireActivity> = { name: activity.name, type: activity.type, application_id: applicationId };
  const ownCreatedAt = (activity as { created_at?: unknown }).created_at;
  if (typeof ownCreatedAt === 'number') wire.created_at = ownCreatedAt;
  else if (createdAt !== undefined) wire.created_at = createdAt;
  if (activity.details !== undefined) wire.details = activity.details;
  if (activity.details_url !== undefined) wire.details_url = activity.details_url;
  if (activity.state !== undefined) wire.state = activity.state;
  if (activity.state_url !== undefined) wire.state_url = activity.state_url;
  if (activity.status_display_type !== undefined) wire.status_display_type = activity.status_display_type;
  if (activity.timestamps !== undefined) {
    const timestamps: { start?: number; end?: number } = {};
    if (activity.timestamps.start !== undefined) timestamps.start = activity.timestamps.start;
    if (activity.timestamps.end !== undefined) timestamps.end = activity.timestamps.end;
    wire.timestamps = timestamps;
  }
  if (activity.assets !== undefined) {
    const assets: Record<string, string> = {};
    for (const [key, value] of Object.entries(activity.assets)) if (typeof value === 'string') assets[key] = value;
    wire.assets = assets;
  }
  const flags = activity.flags ?? 0;
  if (activity.party !== undefined) {
    const party: { id?: string; size?: readonly [number, number]; privacy?: number } = {};
    if (activity.party.id !== undefined) party.id = activity.party.id;
    const size = activity.party.size;
    if (size !== undefined && size.length === 2) party.size = [size[0] as number, size[1] as number];
    if ((flags & ActivityFlags.PartyPrivacyFriends) !== 0) party.privacy = 1;
    wire.party = party;
  }
  if (activity.secrets !== undefined) {
    const secrets: { join?: string; spectate?: string; match?: string } = {};
    if (activity.secrets.join !== undefined) secrets.join = activity.secrets.join;
    if (activity.secrets.spectate !== undefined) secrets.spectate = activity.secrets.spectate;
    if (activity.secrets.match !== undefined) secrets.match = activity.secrets.match;
    wire.secrets = secrets;
  }
  if ((flags & ActivityFlags.Instance) !== 0) wire.instance = true;
  if (activity.flags !== undefined) wire.flags = activity.flags;
  if (activity.buttons !== undefined) {
    const urls = activity.metadata.button_urls ?? [];
    // A label without its URL cannot become a sender button; it stays a bare label.
    wire.buttons = activity.buttons.map((label, index) => {
      const url = urls[index];
      return url === undefined ? label : { label, url };
    });
  }
  if (activity.supported_platforms !== undefined) wire.supported_platforms = activity.supported_platforms.slice();
  return wire;
}
