/**
 * The lint stream: what the real client accepts on the wire but shows badly, or not at all.
 * Pure and cheap (it runs on every SET_ACTIVITY): one pass over the fields the game sent,
 * no allocation unless there is something to say. It never changes the wire answer, which
 * stays the real client's (rpc/src/commands/set-activity.ts); it only explains.
 */

export type LintSeverity = 'warning' | 'info';

export interface ActivityLint {
  /** Stable identifier, e.g. `timestamp-seconds`. */
  readonly code: string;
  /** The field, as a path into the activity: `timestamps.start`, `buttons[0].label`. */
  readonly field: string;
  readonly message: string;
  /** warning: others will see it wrong or not at all; info: worth knowing. */
  readonly severity: LintSeverity;
}

export interface LintContext {
  /** Now, in milliseconds (default Date.now()). */
  readonly now?: number;
  /**
   * The asset keys the application uploaded (names, as `oauth2/applications/{id}/assets`
   * lists them); unknown: asset keys are not checked.
   */
  readonly assetKeys?: ReadonlySet<string> | undefined;
}

/** Limits some clients and SDKs count in UTF-8 bytes where the wire counts characters. */
const TEXT_BYTE_LIMIT = 128;
const LABEL_BYTE_LIMIT = 32;
/** "Near" the byte limit: within this many bytes. */
const NEAR_LIMIT_BYTES = 8;
const DAY_MS = 24 * 60 * 60 * 1000;
/** A start more than this far ahead shows a timer stuck at 0:00. */
const FUTURE_SLACK_MS = 60_000;

/** Characters shown as emoji: emoji presentation by default, or asked for with U+FE0F; flags. Not ©, ® or ™. */
const EMOJI = /\p{Emoji_Presentation}|\p{Extended_Pictographic}\uFE0F|\p{Regional_Indicator}/u;
const HTTP_URL = /^https?:\/\//i;
/** Image values that are not asset keys: external URLs, and media-proxy references. */
const NOT_AN_ASSET_KEY = /^(https?:|mp:)/i;

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The lints for SET_ACTIVITY args (`{pid, activity}`); a clear has none. */
export function lintSetActivityArgs(args: unknown, context: LintContext = {}): ActivityLint[] {
  if (!isObject(args)) return [];
  return lintActivity(args['activity'], context);
}

/** The lints for an activity as a game sends it (before the server normalises it). */
export function lintActivity(activity: unknown, context: LintContext = {}): ActivityLint[] {
  if (!isObject(activity)) return [];
  const lints: ActivityLint[] = [];
  const add = (code: string, field: string, severity: LintSeverity, message: string): void => {
    lints.push({ code, field, message, severity });
  };
  // Fields one by one, not in a loop over key names: constant keys keep the property loads fast.
  checkText(activity['details'], 'details', add);
  checkText(activity['state'], 'state', add);
  checkText(activity['name'], 'name', add);
  const assets = isObject(activity['assets']) ? activity['assets'] : undefined;
  if (assets !== undefined) checkAssets(assets, context, add);
  const party = isObject(activity['party']) ? activity['party'] : undefined;
  if (party !== undefined) checkText(party['id'], 'party.id', add);
  const secrets = isObject(activity['secrets']) ? activity['secrets'] : undefined;
  if (secrets !== undefined) checkSecrets(secrets, add);
  checkJoin(activity, party, secrets, add);
  if (isObject(activity['timestamps'])) checkTimestamps(activity['timestamps'], context.now ?? Date.now(), add);
  if (Array.isArray(activity['buttons'])) checkButtons(activity['buttons'], add);
  checkUrl(activity['details_url'], 'details_url', add);
  checkUrl(activity['state_url'], 'state_url', add);
  checkInstance(activity, party, secrets, add);
  checkStatusDisplay(activity, add);
  return lints;
}

type Add = (code: string, field: string, severity: LintSeverity, message: string) => void;

function utf8Bytes(text: string): number {
  // Only text that might be long in bytes pays for the count: each UTF-16 unit is at most 3 bytes.
  return text.length * 3 <= TEXT_BYTE_LIMIT - NEAR_LIMIT_BYTES ? text.length : Buffer.byteLength(text, 'utf8');
}

function checkText(value: unknown, field: string, add: Add): void {
  if (typeof value !== 'string') return;
  // Blank only if it starts with white space: the common case costs one character test.
  if (value.length >= 2 && value.charCodeAt(0) <= 32 && value.trim() === '') {
    add('text-blank', field, 'warning', `${field} is only spaces: the client accepts it and shows an empty line`);
    return;
  }
  if (value.length > TEXT_BYTE_LIMIT) return; // refused on the wire already
  const bytes = utf8Bytes(value);
  if (bytes > TEXT_BYTE_LIMIT) {
    add(
      'text-over-byte-limit',
      field,
      'warning',
      `${field} is ${value.length} characters but ${bytes} bytes: the wire limit counts characters (128), but clients and SDKs with 128-byte buffers (the C library, the Social SDK) cut it, possibly inside a character`,
    );
  } else if (bytes > TEXT_BYTE_LIMIT - NEAR_LIMIT_BYTES) {
    add('text-near-limit', field, 'info', `${field} is ${bytes} bytes, near the 128 limit: a little more text and it is refused or cut`);
  }
}

function checkAssets(assets: Json, context: LintContext, add: Add): void {
  checkText(assets['large_text'], 'assets.large_text', add);
  checkText(assets['small_text'], 'assets.small_text', add);
  if (context.assetKeys !== undefined) {
    checkAssetKey(assets['large_image'], 'assets.large_image', context.assetKeys, add);
    checkAssetKey(assets['small_image'], 'assets.small_image', context.assetKeys, add);
  }
  if (typeof assets['large_text'] === 'string' && assets['large_image'] === undefined) {
    add('asset-text-without-image', 'assets.large_text', 'info', 'assets.large_text is the tooltip of the large image, and there is no large_image: nobody sees it');
  }
  if (typeof assets['small_text'] === 'string' && assets['small_image'] === undefined) {
    add('asset-text-without-image', 'assets.small_text', 'info', 'assets.small_text is the tooltip of the small image, and there is no small_image: nobody sees it');
  }
}

function checkAssetKey(key: unknown, field: string, uploaded: ReadonlySet<string>, add: Add): void {
  if (typeof key !== 'string' || key === '' || uploaded.has(key) || NOT_AN_ASSET_KEY.test(key) || uploaded.has(key.toLowerCase())) return;
  add('asset-not-uploaded', field, 'warning', `${field} "${key}" is not an asset the application uploaded: the client drops unknown keys, so no image shows (upload it, or use an https URL)`);
}

function checkSecret(value: unknown, field: string, add: Add): void {
  if (typeof value !== 'string' || value.length > TEXT_BYTE_LIMIT) return;
  const bytes = utf8Bytes(value);
  if (bytes > TEXT_BYTE_LIMIT) {
    add('secret-over-byte-limit', field, 'warning', `${field} is ${bytes} bytes: clients with 128-byte buffers (the C library) cut it, and a cut secret does not join`);
  }
}

function checkSecrets(secrets: Json, add: Add): void {
  checkSecret(secrets['join'], 'secrets.join', add);
  checkSecret(secrets['spectate'], 'secrets.spectate', add);
  checkSecret(secrets['match'], 'secrets.match', add);
  if (typeof secrets['spectate'] === 'string') add('secret-spectate-removed', 'secrets.spectate', 'info', 'Spectate has been removed from the clients: no Spectate button shows');
  if (typeof secrets['match'] === 'string') add('secret-match-deprecated', 'secrets.match', 'info', 'secrets.match is deprecated and shows nothing');
}

/** A Join (or Ask to Join) button needs a party id, a party size with room left, and a join secret. */
function checkJoin(activity: Json, party: Json | undefined, secrets: Json | undefined, add: Add): void {
  const join = secrets?.['join'];
  if (typeof join !== 'string') {
    if (party !== undefined && Array.isArray(party['size']) && party['id'] !== undefined && activity['buttons'] === undefined) {
      add('join-without-secret', 'secrets.join', 'info', 'the party has an id and a size but there is no secrets.join: no Join button shows');
    }
    return;
  }
  if (party === undefined || typeof party['id'] !== 'string') {
    add('join-needs-party-id', 'party.id', 'warning', 'secrets.join is set but party.id is missing: the Join button does not appear');
  }
  const size = party?.['size'];
  if (!Array.isArray(size)) {
    add('join-needs-party-size', 'party.size', 'warning', 'secrets.join is set but party.size is missing: the Join button does not appear (send [current, max])');
    return;
  }
  const [current, max] = size as unknown[];
  if (typeof current !== 'number' || typeof max !== 'number') return;
  if (max === 0) {
    add('join-needs-party-max', 'party.size', 'warning', 'party.size has no max (0): the client shows no Join or Ask to Join without a max');
  } else if (current >= max) {
    add('join-party-full', 'party.size', 'warning', `the party is full (${current} of ${max}): the Join button does not appear until there is room`);
  }
}

function checkTimestamps(timestamps: Json, now: number, add: Add): void {
  // The real client's rule: 3 or more fewer digits than now in ms means seconds.
  const digits = Math.floor(Math.log10(now)) + 1;
  const secondsBelow = 10 ** (digits - 3);
  const tooLargeFrom = 10 ** (digits + 1);
  const start = timestampMs(timestamps['start'], 'start', secondsBelow, tooLargeFrom, add);
  const end = timestampMs(timestamps['end'], 'end', secondsBelow, tooLargeFrom, add);
  if (start !== undefined && start > now + FUTURE_SLACK_MS) {
    add('timestamp-start-in-future', 'timestamps.start', 'warning', 'timestamps.start is in the future: the elapsed timer stays at 0:00 until then');
  }
  if (start !== undefined && end === undefined && now - start > DAY_MS) {
    add('timestamp-elapsed-over-day', 'timestamps.start', 'info', 'timestamps.start is more than 24 hours ago: the elapsed timer wraps after 24 hours, so it shows less than the real time');
  }
  if (start !== undefined && end !== undefined && end <= start) {
    add('timestamp-end-before-start', 'timestamps.end', 'warning', 'timestamps.end is not after timestamps.start: the remaining time shows 0:00');
  } else if (end !== undefined && end < now) {
    add('timestamp-end-passed', 'timestamps.end', 'info', 'timestamps.end has passed: the remaining time shows 0:00');
  }
}

/** The value in milliseconds as the client reads it, linting its unit; undefined when absent or unusable. */
function timestampMs(value: unknown, field: 'start' | 'end', secondsBelow: number, tooLargeFrom: number, add: Add): number | undefined {
  if (typeof value !== 'number' || !(value >= 1)) return undefined;
  if (value < secondsBelow) {
    add(
      'timestamp-seconds',
      `timestamps.${field}`,
      'info',
      `timestamps.${field} ${value} looks like seconds: the client multiplies it by 1000. Libraries disagree (npm and @xhayper send milliseconds, the C library seconds): send milliseconds`,
    );
    return value * 1000;
  }
  if (value >= tooLargeFrom) {
    add('timestamp-too-large', `timestamps.${field}`, 'warning', `timestamps.${field} ${value} has more digits than a time in milliseconds (microseconds?): the timer shows a date far in the future`);
    return undefined;
  }
  return value;
}

function checkButtons(buttons: readonly unknown[], add: Add): void {
  for (let i = 0; i < buttons.length; i += 1) {
    const button = buttons[i];
    if (!isObject(button)) continue;
    const label = button['label'];
    if (typeof label === 'string') {
      if (EMOJI.test(label)) {
        add('button-label-emoji', `buttons[${i}].label`, 'warning', `buttons[${i}].label has an emoji: the client accepts it, but other users may see the activity without its buttons (or not at all); use plain text`);
      }
      const bytes = label.length * 3 <= LABEL_BYTE_LIMIT ? label.length : Buffer.byteLength(label, 'utf8');
      if (bytes > LABEL_BYTE_LIMIT) {
        add('button-label-over-byte-limit', `buttons[${i}].label`, 'warning', `buttons[${i}].label is ${label.length} characters but ${bytes} bytes: SDKs with 32-byte labels cut it`);
      }
    }
    const url = button['url'];
    if (typeof url === 'string' && !HTTP_URL.test(url)) {
      add('button-url-not-http', `buttons[${i}].url`, 'warning', `buttons[${i}].url is not an http(s) URL: the button shows but does not open it`);
    }
  }
  if (buttons.length > 0) {
    add('buttons-hidden-from-author', 'buttons', 'info', "the client never shows an activity's buttons to its own author: look from a second account (or Companion's preview) to see them");
  }
}

function checkUrl(value: unknown, field: string, add: Add): void {
  if (typeof value === 'string' && !HTTP_URL.test(value)) add('url-not-http', field, 'warning', `${field} is not an http(s) URL: the text shows without a link`);
}

/**
 * `instance` says the player is in an instanced session (a match): it sets the INSTANCE flag.
 * pypresence sends true by default and the C library always sends it; alone it does nothing.
 */
function checkInstance(activity: Json, party: Json | undefined, secrets: Json | undefined, add: Add): void {
  if (activity['instance'] !== true) return;
  if (party === undefined && secrets === undefined) {
    add('instance-without-party', 'instance', 'info', 'instance is true without a party or secrets: it marks a joinable match instance and shows nothing by itself (pypresence sends it by default)');
  }
}

const DISPLAY_FIELDS: Readonly<Record<number, string>> = { 1: 'state', 2: 'details' };

function checkStatusDisplay(activity: Json, add: Add): void {
  const type = activity['status_display_type'];
  if (typeof type !== 'number') return;
  const field = DISPLAY_FIELDS[type];
  if (field !== undefined && typeof activity[field] !== 'string') {
    add('status-display-missing-field', 'status_display_type', 'info', `status_display_type ${type} shows ${field} in the member list, but there is no ${field}: the application name shows`);
  }
}

/**
 * For the host, per SET_ACTIVITY: looks up the application's uploaded asset keys (cached by
 * the caller; undefined while unknown) and lints the args as of `now` (default: the clock).
 */
export function createActivityLinter(options: { assetKeys?: (applicationId: string) => ReadonlySet<string> | undefined; now?: () => number } = {}): (applicationId: string, args: unknown, now?: number) => ActivityLint[] {
  return (applicationId, args, now) =>
    lintSetActivityArgs(args, {
      ...(now !== undefined ? { now } : options.now === undefined ? {} : { now: options.now() }),
      assetKeys: options.assetKeys?.(applicationId),
    });
}
