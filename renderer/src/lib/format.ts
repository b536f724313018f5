import { HOST_EVENT_OPCODE } from '../../../common/src/recording/host-event-row';
import type { ActivityView, RelayOutcomeView, UserView } from '../../../preload/src/contract';

/** `h:mm:ss` or `m:ss`. */
export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const ss = String(seconds).padStart(2, '0');
  if (hours > 0) return `${hours}:${String(minutes).padStart(2, '0')}:${ss}`;
  return `${minutes}:${ss}`;
}

/** Activity timestamps in epoch ms (games sometimes send seconds: small values are scaled). */
export function toEpochMs(value: number): number {
  return value < 1e11 ? value * 1000 : value;
}

export type ActivityTime = { readonly kind: 'elapsed' | 'remaining'; readonly text: string } | null;

/** "1:02 elapsed" from start, "0:45 left" until end (end wins, as the client shows it). */
export function activityTime(timestamps: ActivityView['timestamps'], now: number): ActivityTime {
  if (timestamps === undefined) return null;
  if (typeof timestamps.end === 'number' && Number.isFinite(timestamps.end)) {
    return { kind: 'remaining', text: `${formatDuration(toEpochMs(timestamps.end) - now)} left` };
  }
  if (typeof timestamps.start === 'number' && Number.isFinite(timestamps.start)) {
    return { kind: 'elapsed', text: `${formatDuration(now - toEpochMs(timestamps.start))} elapsed` };
  }
  return null;
}

const ACTIVITY_VERBS: Readonly<Record<number, string>> = { 0: 'Playing', 1: 'Streaming', 2: 'Listening to', 3: 'Watching', 4: '', 5: 'Competing in' };

export function activityHeading(activity: ActivityView): string {
  const name = activity.name ?? 'an unnamed activity';
  const verb = ACTIVITY_VERBS[activity.type ?? 0] ?? 'Playing';
  return verb === '' ? name : `${verb} ${name}`;
}

export function displayName(user: UserView): string {
  return user.global_name ?? user.username;
}

/** Where the app is installed, as the developer facts say it (the request's integration_type). */
export function integrationTypeText(type: number | null): string {
  if (type === 0) return 'integration_type 0: server install';
  if (type === 1) return 'integration_type 1: user install';
  return 'integration_type not given (neither a server nor a user install)';
}

/** Where the app is installed, in a player's words; null when the app did not say (nothing to tell the player). */
export function integrationTypePlayerText(type: number | null): string | null {
  if (type === 0) return 'The app is added to a server.';
  if (type === 1) return 'The app is added to your account, so you can use it anywhere.';
  return null;
}

export function formatClock(at: number): string {
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) return '—';
  const pad = (n: number, w = 2): string => String(n).padStart(w, '0');
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}`;
}

/** The time of day as the player's locale writes it ("7:08 AM"), the date too when it is not today. */
export function formatTime(at: number, now: number = Date.now()): string {
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) return '—';
  const time = date.toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit' });
  return date.toDateString() === new Date(now).toDateString() ? time : `${date.toLocaleDateString()} ${time}`;
}

/** A message's time as the client players know writes it: "Today at 7:08 AM", "Yesterday at 7:08 AM", else the date and time. */
export function formatMessageTime(at: number, now: number = Date.now()): string {
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) return '—';
  const time = date.toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit' });
  const today = new Date(now);
  const yesterday = new Date(today.getFullYear(), today.getMonth(), today.getDate() - 1);
  if (date.toDateString() === today.toDateString()) return `Today at ${time}`;
  if (date.toDateString() === yesterday.toDateString()) return `Yesterday at ${time}`;
  return `${date.toLocaleDateString()} ${time}`;
}

/** A `<time dateTime>` value, or undefined for a time that is not one. */
export function isoTime(at: number): string | undefined {
  const date = new Date(at);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

export function formatDate(value: string | number): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? String(value) : date.toLocaleString();
}

/** The protocol's opcodes, and the host events' (HOST_EVENT_OPCODE) among them. */
const OPCODES: Readonly<Record<number, string>> = { [HOST_EVENT_OPCODE]: 'EVENT', 0: 'HANDSHAKE', 1: 'FRAME', 2: 'CLOSE', 3: 'PING', 4: 'PONG' };

export function opcodeName(opcode: number): string {
  return OPCODES[opcode] ?? String(opcode);
}

/** What became of a game update, in a few words ("held until 12:00:05", "shadowed by 42"). */
export function relayOutcomeText(outcome: RelayOutcomeView, appName: (applicationId: string) => string = (id) => `app ${id}`): string {
  const what = outcome.cause === 'disconnect' ? 'closed: ' : outcome.cleared ? 'cleared: ' : '';
  switch (outcome.kind) {
    case 'sent':
      return `${what}sent to the platform`;
    case 'coalesced':
      return `${what}sent, ${outcome.count ?? 2} updates in one`;
    case 'held':
      return `${what}held by the rate limit until ${outcome.until === undefined ? 'a slot frees' : formatClock(outcome.until)}${(outcome.count ?? 1) > 1 ? ` (${outcome.count} updates)` : ''}`;
    case 'shadowed':
      return `${what}not shown: ${outcome.by_application_id === undefined ? 'another game' : appName(outcome.by_application_id)} is shown instead`;
    case 'hidden':
      return `${what}hidden by ${outcome.rule === 'hide-all' ? '"hide everything"' : "this game's privacy rule"}`;
    case 'rejected':
      return `${what}rejected by the platform (${outcome.reason ?? 'no reason'})${outcome.retry_after_ms === null || outcome.retry_after_ms === undefined ? '' : `, retried in ${Math.ceil(outcome.retry_after_ms / 1000)} s`}`;
    case 'unchanged':
      return `${what}nothing new to send`;
  }
}

/**
 * What became of a game update, in a player's words: whether friends see it, will in a moment,
 * or why not. The relay's precise word (rate limit, coalescing, the platform's reason) is
 * relayOutcomeText's, for the card's Details and the inspector.
 */
export function relayOutcomePlayerText(outcome: RelayOutcomeView, appName: (applicationId: string) => string = () => 'another game'): string {
  if (outcome.cause === 'disconnect') return 'the game closed: friends no longer see it';
  if (outcome.cleared && (outcome.kind === 'sent' || outcome.kind === 'coalesced')) return 'the game cleared its activity: friends no longer see it';
  switch (outcome.kind) {
    case 'sent':
    case 'coalesced':
      return 'friends see it';
    case 'held':
      return 'friends see it in a few seconds';
    case 'shadowed':
      return `not shown: ${outcome.by_application_id === undefined ? 'another game' : appName(outcome.by_application_id)} is shown instead`;
    case 'hidden':
      return `hidden by ${outcome.rule === 'hide-all' ? '"Hide everything"' : "this game's privacy rule"}`;
    case 'rejected':
      return outcome.retry_after_ms === null || outcome.retry_after_ms === undefined ? 'friends could not be shown it' : 'friends could not be shown it yet; Companion tries again shortly';
    case 'unchanged':
      return 'nothing new to show';
  }
}
