import type { SettingsView } from '../../../../preload/src/contract.js';
import type { ConsentPolicy } from '../auth/consent-broker.js';
import type { ControlLogger } from '../control/control-server.js';
import { LOG_LEVELS, type LogLevel } from '../../base/logger.js';

/**
 * The settings the UI may change at runtime, over the parts of the host that own them: the
 * consent broker's policy and always-ask flag, the logger's level, and (desktop shell only)
 * starting at login. Every change takes effect at once; none is a restart-only setting.
 */
export interface WebUiSettings {
  get(): SettingsView;
  /** Applies the given fields and answers the settings now in force. */
  update(partial: Partial<SettingsView>): Promise<SettingsView>;
}


/** The host logger's level (pino's `level` is a live property). */
export interface LogLevelPort {
  get(): LogLevel;
  set(level: LogLevel): void;
}

/** Start at login: Electron's login item on macOS and Windows, an XDG autostart entry on Linux. */
export interface LoginItemPort {
  get(): boolean;
  set(openAtLogin: boolean): Promise<void>;
}

const LEVELS: ReadonlySet<string> = new Set(LOG_LEVELS);

/** The level port of a pino-like logger (one with a settable `level`), or undefined. */
export function logLevelOf(logger: unknown): LogLevelPort | undefined {
  if (typeof logger !== 'object' || logger === null) return undefined;
  const live = logger as { level?: unknown };
  if (typeof live.level !== 'string' || !LEVELS.has(live.level)) return undefined;
  return {
    get: () => live.level as LogLevel,
    set: (level) => {
      live.level = level;
    },
  };
}

export interface HostSettingsParts {
  readonly broker: { policy: ConsentPolicy; alwaysAsk: boolean };
  readonly logger?: Pick<ControlLogger, 'info'>;
  /** Absent: the level is shown as 'info' and cannot be changed (a logger without levels). */
  readonly logLevel?: LogLevelPort;
  /** Absent: start at login is not offered here (`start_at_login: null`). */
  readonly loginItem?: LoginItemPort;
}

export function hostSettings(parts: HostSettingsParts): WebUiSettings {
  const { broker, logLevel, loginItem } = parts;
  const settings: WebUiSettings = {
    get: () => ({
      consent_policy: broker.policy,
      consent_always_ask: broker.alwaysAsk,
      log_level: logLevel?.get() ?? 'info',
      start_at_login: loginItem === undefined ? null : loginItem.get(),
    }),
    update: async (partial) => {
      if (partial.start_at_login !== undefined && partial.start_at_login !== null) {
        if (loginItem === undefined) throw new SettingUnavailable('starting at login is only available in the desktop app');
        await loginItem.set(partial.start_at_login);
      }
      if (partial.log_level !== undefined) {
        if (logLevel === undefined) throw new SettingUnavailable('this host\'s log level cannot be changed');
        logLevel.set(partial.log_level);
      }
      if (partial.consent_policy !== undefined) broker.policy = partial.consent_policy;
      if (partial.consent_always_ask !== undefined) broker.alwaysAsk = partial.consent_always_ask;
      const now = settings.get();
      parts.logger?.info(
        { policy: now.consent_policy, alwaysAsk: now.consent_always_ask, logLevel: now.log_level, startAtLogin: now.start_at_login },
        'settings changed from the UI',
      );
      return now;
    },
  };
  return settings;
}

/** A setting this runtime does not offer (status 409, like the control API's conflicts). */
export class SettingUnavailable extends Error {
  override readonly name = 'SettingUnavailable';
  readonly status = 409;
}
