import { RpcError, RpcErrorCode } from '../protocol/codes.js';
import { SetActivityArgsSchema, type ActivityInput, type SetActivityArgs } from './activity-schema.js';
import { isValidSetActivityArgs } from './activity-fast-check.js';
import { parseArgs } from './joi-message.js';
import { ActivityFlags } from '../../../common/src/activity-flags.js';

/** The activity as the gateway carries it, which is also the SET_ACTIVITY reply. */
export type GatewayActivity = Omit<ActivityInput, 'instance' | 'buttons' | 'party' | 'type' | 'name'> & {
  name: string;
  type: number;
  application_id: string;
  platform: 'desktop';
  flags?: number;
  party?: { id?: string | undefined; size?: number[] | undefined };
  /** Button labels only; the URLs are in metadata.button_urls. */
  buttons?: string[];
  metadata: { button_urls?: string[] };
};

export interface SetActivityContext {
  readonly applicationId: string;
  readonly applicationName: string;
  /** pid is required on IPC only. */
  readonly transport: 'ipc' | 'websocket';
  readonly now: () => number;
}

export interface SetActivityResult {
  readonly pid: number | null;
  /** null: the activity is cleared. */
  readonly activity: GatewayActivity | null;
}

/**
 * Validates and normalises SET_ACTIVITY args in the real client's order: the schema (4000
 * with Joi text), the IPC pid rule (4002 "nonzero pid required"), a clear when activity is
 * null or absent, then the secret rules (5005), then normalisation. The fast check decides
 * valid input without the schema library; the schema runs only to explain a rejection.
 */
export function runSetActivity(args: unknown, context: SetActivityContext): SetActivityResult {
  const parsed: SetActivityArgs = isValidSetActivityArgs(args) ? args : parseArgs(SetActivityArgsSchema, args);
  const { pid, activity } = parsed;
  if (pid === undefined && context.transport === 'ipc') {
    throw new RpcError(RpcErrorCode.InvalidCommand, 'nonzero pid required');
  }
  if (activity === null || activity === undefined) return { pid: pid ?? null, activity: null };
  checkSecrets(activity);
  return { pid: pid ?? null, activity: normalizeActivity(activity, context) };
}

function checkSecrets(activity: ActivityInput): void {
  const secrets = activity.secrets;
  if (secrets === undefined) return;
  const values: string[] = [];
  for (const secret of [secrets.match, secrets.join, secrets.spectate]) if (secret) values.push(secret);
  const partyId = activity.party?.id;
  if (partyId !== undefined && values.includes(partyId)) {
    throw new RpcError(RpcErrorCode.InvalidActivitySecret, 'secrets cannot match the party id');
  }
  if (new Set(values).size < values.length) {
    throw new RpcError(RpcErrorCode.InvalidActivitySecret, 'secrets must be unique');
  }
  if (activity.buttons !== undefined) {
    throw new RpcError(RpcErrorCode.InvalidActivitySecret, 'secrets cannot currently be sent with buttons');
  }
}

/**
 * Builds the gateway form field by field. Only known keys are copied, at every level, so
 * unknown keys in the input are dropped without a separate pass; explicit copies (no object
 * spread) keep one object shape per field set, which is what keeps this and JSON.stringify
 * cheap on the hot path.
 */
export function normalizeActivity(input: ActivityInput, context: SetActivityContext): GatewayActivity {
  const activity: GatewayActivity = {
    name: input.name || context.applicationName,
    type: input.type ?? 0,
    application_id: context.applicationId,
    platform: 'desktop',
    metadata: {},
  };
  const flags = computeFlags(input);
  if (flags > 0) activity.flags = flags;
  if (input.status_display_type !== undefined) activity.status_display_type = input.status_display_type;
  if (input.state !== undefined) activity.state = input.state;
  if (input.state_url !== undefined) activity.state_url = input.state_url;
  if (input.details !== undefined) activity.details = input.details;
  if (input.details_url !== undefined) activity.details_url = input.details_url;
  if (input.timestamps !== undefined) activity.timestamps = normalizeTimestamps(input.timestamps, context.now());
  if (input.assets !== undefined) activity.assets = copyAssets(input.assets);
  if (input.party !== undefined) {
    const party: NonNullable<GatewayActivity['party']> = {};
    if (input.party.id !== undefined) party.id = input.party.id;
    if (input.party.size !== undefined) party.size = [input.party.size[0] as number, input.party.size[1] as number];
    activity.party = party;
  }
  if (input.secrets !== undefined) {
    const secrets: NonNullable<GatewayActivity['secrets']> = {};
    if (input.secrets.match !== undefined) secrets.match = input.secrets.match;
    if (input.secrets.join !== undefined) secrets.join = input.secrets.join;
    if (input.secrets.spectate !== undefined) secrets.spectate = input.secrets.spectate;
    activity.secrets = secrets;
  }
  if (input.buttons !== undefined) {
    activity.buttons = input.buttons.map((button) => button.label);
    activity.metadata = { button_urls: input.buttons.map((button) => button.url) };
  }
  if (input.supported_platforms !== undefined) activity.supported_platforms = input.supported_platforms.slice();
  return activity;
}

function copyAssets(input: NonNullable<ActivityInput['assets']>): NonNullable<GatewayActivity['assets']> {
  const assets: NonNullable<GatewayActivity['assets']> = {};
  if (input.large_image !== undefined) assets.large_image = input.large_image;
  if (input.large_text !== undefined) assets.large_text = input.large_text;
  if (input.large_url !== undefined) assets.large_url = input.large_url;
  if (input.small_image !== undefined) assets.small_image = input.small_image;
  if (input.small_text !== undefined) assets.small_text = input.small_text;
  if (input.small_url !== undefined) assets.small_url = input.small_url;
  if (input.invite_cover_image !== undefined) assets.invite_cover_image = input.invite_cover_image;
  return assets;
}

function computeFlags(input: ActivityInput): number {
  let flags = 0;
  if (input.instance === true) flags |= ActivityFlags.Instance;
  if (input.secrets?.join) flags |= ActivityFlags.Join;
  if (input.secrets?.spectate) flags |= ActivityFlags.Spectate;
  if (input.party?.privacy === 1) flags |= ActivityFlags.PartyPrivacyFriends | ActivityFlags.PartyPrivacyVoiceChannel;
  return flags;
}

/**
 * Seconds become milliseconds when the value has at least 3 fewer integer digits than the
 * current time in ms, the real client's rule. The real client counts the characters of the
 * number as written, so `1700000000.5` would stay in seconds there; here only the integer
 * part counts, so fractional seconds are converted too. Results are whole milliseconds.
 */
export function normalizeTimestamps(
  timestamps: { start?: number | undefined; end?: number | undefined },
  nowMs: number,
): { start?: number; end?: number } {
  // A value is in seconds when it is below 10^(digits of now - 3).
  const secondsBelow = secondsBound(nowMs);
  const out: { start?: number; end?: number } = {};
  if (timestamps.start !== undefined) out.start = toMilliseconds(timestamps.start, secondsBelow);
  if (timestamps.end !== undefined) out.end = toMilliseconds(timestamps.end, secondsBelow);
  return out;
}

function toMilliseconds(value: number, secondsBelow: number): number {
  return Math.floor(value) < secondsBelow ? Math.floor(value * 1000) : Math.floor(value);
}

/**
 * 10^(digits of now's integer part - 3), by multiplying: no pow and no number printed, this runs
 * for every SET_ACTIVITY with timestamps. Below 1000 it is 1, where the power would be a
 * fraction: the same verdict, since what it is compared with is a whole number.
 */
function secondsBound(nowMs: number): number {
  let bound = 1;
  for (let power = 1000; power <= nowMs; power *= 10) bound *= 10;
  return bound;
}
