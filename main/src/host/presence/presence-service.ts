import { EventEmitter } from 'node:events';
import type { WireActivity } from '../../../../platform/src/wire/index.js';
import type { ActivityChange, RpcConnection, RpcServer } from '../../../../rpc/src/index.js';
import type { PresenceRelay } from './presence-relay.js';
import { DEFAULT_REDACTED_FIELDS, type AppRule, type ArbitrationPolicyName, type PresenceSettings, type RedactableField } from './presence-privacy.js';
import { RelayOutcomeLog, type RelayOutcome } from './relay-outcomes.js';
import type { AnnouncedApplication, PresenceSettingsStore } from './presence-settings-store.js';

/** At most this many apps may have a rule. */
export const MAX_RULES = 1000;

/**
 * A change to the presence settings (PATCH /v1/presence/settings): absent fields are kept.
 * `rules` merges per app; `null` (or `{mode: 'share'}`) removes the app's rule; `redact`
 * without `fields` drops DEFAULT_REDACTED_FIELDS.
 */
export interface PresenceSettingsPatch {
  readonly policy?: ArbitrationPolicyName;
  readonly pinned_application_id?: string | null;
  readonly hide_all?: boolean;
  readonly rules?: Readonly<Record<string, AppRuleInput | null>>;
}

export type AppRuleInput =
  | { readonly mode: 'share' }
  | { readonly mode: 'hide' }
  | { readonly mode: 'redact'; readonly fields?: readonly RedactableField[] };

/** One connected game as GET /v1/presence lists it. */
export interface PresenceGameView {
  readonly connection_id: string;
  readonly application_id: string;
  readonly application_name: string;
  /** Its activity is the one the platform was last sent (what friends see). */
  readonly shown: boolean;
  /** Its latest update's outcome; null before its first SET_ACTIVITY. */
  readonly outcome: RelayOutcome | null;
  /**
   * What friends see of its activity when it is the one shown: what the relay sends for it
   * (redact rules applied); null when the settings hide it or it has no activity.
   */
  readonly friends_see: WireActivity | null;
}

/** GET /v1/presence. */
export interface PresenceView extends PresenceSettings {
  readonly games: readonly PresenceGameView[];
  /** The most recent outcomes of every game, oldest first (at most RECENT_OUTCOMES). */
  readonly recent_outcomes: readonly RelayOutcome[];
  /** Applications whose first activity was announced, least recently active first. */
  readonly announced_applications: readonly AnnouncedApplication[];
}

/** Thrown for a patch that cannot be applied; `field` names the culprit. */
export class PresenceSettingsError extends Error {
  override readonly name = 'PresenceSettingsError';

  constructor(
    readonly field: string,
    problem: string,
  ) {
    super(`${field}: ${problem}`);
  }
}

export interface PresenceServiceEvents {
  /** What became of a game update. */
  outcome: [RelayOutcome];
  /** An application set its first activity ever (remembered across restarts). */
  announcement: [AnnouncedApplication];
  /** The settings changed. */
  settings: [PresenceSettings];
}

export interface PresenceServiceLogger {
  warn(fields: object, message: string): void;
}

export interface PresenceServiceOptions {
  readonly relay: PresenceRelay;
  readonly store: PresenceSettingsStore;
  readonly server: RpcServer;
  readonly logger?: PresenceServiceLogger;
  /** A message for the player when the settings file had to be set aside. */
  readonly warning?: string | null;
}

/** The settings after a patch (pure). */
export function applyPatch(settings: PresenceSettings, patch: PresenceSettingsPatch): PresenceSettings {
  const rules: Record<string, AppRule> = { ...settings.rules };
  for (const [applicationId, rule] of Object.entries(patch.rules ?? {})) {
    if (rule === null || rule.mode === 'share') delete rules[applicationId];
    else if (rule.mode === 'hide') rules[applicationId] = { mode: 'hide' };
    else rules[applicationId] = { mode: 'redact', fields: [...new Set(rule.fields ?? DEFAULT_REDACTED_FIELDS)] };
  }
  if (Object.keys(rules).length > MAX_RULES) throw new PresenceSettingsError('rules', `at most ${MAX_RULES} applications may have a rule`);
  return {
    policy: patch.policy ?? settings.policy,
    pinned_application_id: patch.pinned_application_id === undefined ? settings.pinned_application_id : patch.pinned_application_id,
    hide_all: patch.hide_all ?? settings.hide_all,
    rules,
  };
}

/**
 * The host's presence arbitration and privacy as the player sees and edits them: the
 * settings (kept by the store, applied by the relay), each game update's outcome (the relay's
 * events, kept in a RelayOutcomeLog), and the one-time announcement of an application's first
 * activity.
 */
export class PresenceService extends EventEmitter<PresenceServiceEvents> {
  readonly log = new RelayOutcomeLog();
  readonly warning: string | null;
  private readonly relay: PresenceRelay;
  private readonly store: PresenceSettingsStore;
  private readonly server: RpcServer;
  private readonly logger: PresenceServiceLogger | undefined;
  private readonly detach: () => void;

  constructor(options: PresenceServiceOptions) {
    super();
    this.relay = options.relay;
    this.store = options.store;
    this.server = options.server;
    this.logger = options.logger;
    this.warning = options.warning ?? null;
    const onOutcome = (outcome: RelayOutcome): void => {
      this.log.record(outcome);
      this.emit('outcome', outcome);
    };
    const onActivity = ({ connection, activity }: ActivityChange): void => {
      // Announced once; every activity after keeps the app among the remembered ones.
      if (activity !== null && connection.clientId !== null) this.announce(connection.clientId, connection.applicationName);
    };
    const onDisconnect = (connection: RpcConnection): void => {
      this.relay.connectionClosed(connection.id);
      this.log.forget(connection.id);
    };
    this.relay.on('outcome', onOutcome);
    this.server.on('activity', onActivity);
    this.server.on('disconnect', onDisconnect);
    this.detach = () => {
      this.relay.off('outcome', onOutcome);
      this.server.off('activity', onActivity);
      this.server.off('disconnect', onDisconnect);
    };
  }

  get settings(): PresenceSettings {
    return this.store.settings;
  }

  /** `recentLimit`: how many of the newest outcomes to include (default all that are kept). */
  view(recentLimit?: number): PresenceView {
    const shown = this.relay.shownConnectionId();
    const games: PresenceGameView[] = [];
    for (const connection of this.server.connections()) {
      if (connection.state !== 'ready' || connection.clientId === null) continue;
      games.push({
        connection_id: connection.id,
        application_id: connection.clientId,
        application_name: connection.applicationName,
        shown: connection.id === shown,
        outcome: this.log.last(connection.id),
        friends_see: this.relay.sharedActivityOf(connection.id),
      });
    }
    return {
      ...this.store.settings,
      games,
      recent_outcomes: this.log.recent(recentLimit),
      announced_applications: this.store.announced(),
    };
  }

  /**
   * Applies a patch: the relay acts on it at once (hide-all sends a clear; un-hiding sends the
   * activity again, within the rate limit), then it is saved. Resolves with the new settings
   * once they are on disk.
   */
  async updateSettings(patch: PresenceSettingsPatch): Promise<PresenceSettings> {
    const next = applyPatch(this.store.settings, patch);
    const saved = this.store.replace(next);
    this.relay.settingsChanged();
    this.emit('settings', next);
    await saved;
    return next;
  }

  /** A game found running by game detection has an activity: announced once, as an RPC game's first activity is. */
  detectedActivity(applicationId: string, applicationName: string): void {
    this.announce(applicationId, applicationName);
  }

  dispose(): void {
    this.detach();
    this.removeAllListeners();
  }

  private announce(applicationId: string, applicationName: string): void {
    const { added, entry, saved } = this.store.markAnnounced({ application_id: applicationId, application_name: applicationName });
    if (!added) return;
    saved.catch((error: unknown) =>
      this.logger?.warn({ code: (error as NodeJS.ErrnoException).code ?? null }, 'presence settings: could not remember an announced application'),
    );
    this.emit('announcement', entry);
  }
}
