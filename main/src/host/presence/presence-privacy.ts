import { ActivityFlags } from '../../../../common/src/activity-flags.js';
import type { WireActivity } from '../../../../platform/src/wire/index.js';

/** How the relay picks the one game activity the platform shows when several games have one. */
export type ArbitrationPolicyName = 'most-recent' | 'first-connected';
export const ARBITRATION_POLICIES: readonly ArbitrationPolicyName[] = ['most-recent', 'first-connected'];

/** The parts of an activity a `redact` rule can drop before it leaves the host. */
export type RedactableField = 'details' | 'state' | 'party' | 'buttons' | 'assets' | 'timestamps';
export const REDACTABLE_FIELDS: readonly RedactableField[] = ['details', 'state', 'party', 'buttons', 'assets', 'timestamps'];

/**
 * What `redact` drops when no fields are named: everything that says what the player is doing,
 * with whom, or where a link leads. Friends still see that the game is played (its name and
 * type) and for how long (timestamps).
 */
export const DEFAULT_REDACTED_FIELDS: readonly RedactableField[] = ['details', 'state', 'party', 'buttons', 'assets'];

/** A per-application privacy rule. `share` is the default for an app without a rule. */
export type AppRule =
  | { readonly mode: 'share' }
  | { readonly mode: 'hide' }
  | { readonly mode: 'redact'; readonly fields: readonly RedactableField[] };

/**
 * The player's presence settings, in the JSON shape the control API serves and the settings
 * file holds (snake_case). `rules` has no entry for apps that share (the default).
 */
export interface PresenceSettings {
  readonly policy: ArbitrationPolicyName;
  /** This app's activity wins whenever it has one; otherwise `policy` decides. */
  readonly pinned_application_id: string | null;
  /** No game activity reaches the platform at all (a clear is sent). */
  readonly hide_all: boolean;
  readonly rules: Readonly<Record<string, AppRule>>;
}

export const DEFAULT_PRESENCE_SETTINGS: PresenceSettings = {
  policy: 'most-recent',
  pinned_application_id: null,
  hide_all: false,
  rules: {},
};

const SHARE: AppRule = { mode: 'share' };

export function ruleFor(settings: PresenceSettings, applicationId: string): AppRule {
  return Object.hasOwn(settings.rules, applicationId) ? (settings.rules[applicationId] as AppRule) : SHARE;
}

/** Why an app's activity does not reach the platform, or undefined when it may. */
export function hiddenBy(settings: PresenceSettings, applicationId: string): 'hide-all' | 'app' | undefined {
  if (settings.hide_all) return 'hide-all';
  return ruleFor(settings, applicationId).mode === 'hide' ? 'app' : undefined;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

const PARTY_FLAGS = ActivityFlags.Join | ActivityFlags.Spectate | ActivityFlags.JoinRequest | ActivityFlags.PartyPrivacyFriends | ActivityFlags.PartyPrivacyVoiceChannel;
/** status_display_type: 1 shows the state, 2 the details in place of the name. */
const DISPLAY_STATE = 1;
const DISPLAY_DETAILS = 2;

/**
 * The wire activity without the fields a `redact` rule names. `details` and `state` take their
 * links and a status display pointing at them; `party` takes the secrets and the join,
 * spectate and party-privacy flags too (a join cannot work without the party); `buttons` takes
 * the button URLs. A new object: the game's own activity is untouched.
 */
export function redactActivity(activity: WireActivity, fields: readonly RedactableField[]): WireActivity {
  if (fields.length === 0) return activity;
  const out: Mutable<WireActivity> = { ...activity };
  for (const field of fields) {
    switch (field) {
      case 'details':
        delete out.details;
        delete out.details_url;
        if (out.status_display_type === DISPLAY_DETAILS) delete out.status_display_type;
        break;
      case 'state':
        delete out.state;
        delete out.state_url;
        if (out.status_display_type === DISPLAY_STATE) delete out.status_display_type;
        break;
      case 'party':
        delete out.party;
        delete out.secrets;
        if (out.flags !== undefined) {
          const flags = out.flags & ~PARTY_FLAGS;
          if (flags === 0) delete out.flags;
          else out.flags = flags;
        }
        break;
      case 'buttons':
        delete out.buttons;
        delete out.metadata;
        break;
      case 'assets':
        delete out.assets;
        break;
      case 'timestamps':
        delete out.timestamps;
        break;
    }
  }
  return out;
}
