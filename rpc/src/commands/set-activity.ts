import * as v from 'valibot';
import { RpcError, RpcErrorCode } from '../protocol/codes.js';
import { SetActivityArgsSchema, type ActivityInput } from './activity-schema.js';
import { joiMessage } from './joi-message.js';

/** Gateway activity flags (bit values). */
export const ActivityFlags = {
  Instance: 1 << 0,
  Join: 1 << 1,
  Spectate: 1 << 2,
  JoinRequest: 1 << 3,
  Sync: 1 << 4,
  Play: 1 << 5,
  PartyPrivacyFriends: 1 << 6,
  PartyPrivacyVoiceChannel: 1 << 7,
  Embedded: 1 << 8,
} as const;

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
 * null or absent, then the secret rules (5005), then normalisation.
 */
export function runSetActivity(args: unknown, context: SetActivityContext): SetActivityResult {
  const parsed = v.safeParse(SetActivityArgsSchema, args, { abortEarly: true });
  if (!parsed.success) {
    throw new RpcError(RpcErrorCode.InvalidPayload, joiMessage(parsed.issues[0]));
  }
  const { pid, activity } = parsed.output;
  if (pid === undefined && context.transport === 'ipc') {
    throw new RpcError(RpcErrorCode.InvalidCommand, 'nonzero pid required');
  }
  if (activity === null || activity === undefined) return { pid: pid ?? null, activity: null };
  checkSecrets(activity);
  return { pid: pid ?? null, activity: normalizeActivity(activity, context) };
}

function checkSecrets(activity: ActivityInput): void {
  if (activity.secrets === undefined) return;
  const values = Object.values(activity.secrets).filter((secret): secret is string => Boolean(secret));
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

function normalizeActivity(input: ActivityInput, context: SetActivityContext): GatewayActivity {
  const { instance, buttons, party, timestamps, type, name, ...rest } = input;
  const activity: GatewayActivity = {
    ...rest,
    name: name || context.applicationName,
    type: type ?? 0,
    application_id: context.applicationId,
    platform: 'desktop',
    metadata: {},
  };
  const flags = computeFlags(input);
  if (flags > 0) activity.flags = flags;
  if (party !== undefined) {
    const { privacy: _privacy, ...kept } = party;
    activity.party = kept;
  }
  if (buttons !== undefined) {
    activity.buttons = buttons.map((button) => button.label);
    activity.metadata = { button_urls: buttons.map((button) => button.url) };
  }
  if (timestamps !== undefined) activity.timestamps = normalizeTimestamps(timestamps, context.now());
  void instance;
  return activity;
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
  const nowDigits = String(Math.floor(nowMs)).length;
  const out: { start?: number; end?: number } = {};
  for (const key of ['start', 'end'] as const) {
    const value = timestamps[key];
    if (value === undefined) continue;
    const digits = String(Math.floor(value)).length;
    out[key] = nowDigits - digits > 2 ? Math.floor(value * 1000) : Math.floor(value);
  }
  return out;
}
