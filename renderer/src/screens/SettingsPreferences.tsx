import { useId, type ReactNode } from 'react';
import type { SettingsView } from '../../../preload/src/contract';
import { useApp } from '../store/react';

const POLICIES: readonly { readonly value: SettingsView['consent_policy']; readonly label: string }[] = [
  { value: 'prompt', label: 'Ask me (show the prompt)' },
  { value: 'approve', label: 'Approve automatically (unattended test runs)' },
  { value: 'deny', label: 'Deny automatically' },
];

function isPolicy(value: string): value is SettingsView['consent_policy'] {
  return POLICIES.some((p) => p.value === value);
}

const LOG_LEVELS: readonly SettingsView['log_level'][] = ['error', 'warn', 'info', 'debug', 'trace'];

function isLogLevel(value: string): value is SettingsView['log_level'] {
  return (LOG_LEVELS as readonly string[]).includes(value);
}

/** Start at login (desktop app only) and the log level. */
export function ApplicationSettings({ settings }: { readonly settings: SettingsView }): ReactNode {
  const updateSettings = useApp((s) => s.updateSettings);
  const settingsBusy = useApp((s) => s.busy.includes('settings'));
  const ids = { logLevel: useId(), startAtLogin: useId() };
  return (
    <section className="card" aria-labelledby="app-settings-title">
      <h2 id="app-settings-title">Application</h2>
      <div className="field">
        <input
          id={ids.startAtLogin}
          type="checkbox"
          checked={settings.start_at_login === true}
          disabled={settingsBusy || settings.start_at_login === null}
          onChange={(e) => void updateSettings({ start_at_login: e.target.checked })}
          data-testid="settings-start-at-login"
        />
        <label htmlFor={ids.startAtLogin}>Start Companion when I log in</label>
        {settings.start_at_login === null && <span className="muted"> (only in the desktop app)</span>}
      </div>
      <div className="field">
        <label htmlFor={ids.logLevel}>Log level</label>
        <select
          id={ids.logLevel}
          value={settings.log_level}
          disabled={settingsBusy}
          onChange={(e) => {
            if (isLogLevel(e.target.value)) void updateSettings({ log_level: e.target.value });
          }}
          data-testid="settings-log-level"
        >
          {LOG_LEVELS.map((level) => (
            <option key={level} value={level}>
              {level}
            </option>
          ))}
        </select>
        <span className="muted"> Logs never contain tokens or secrets, at any level.</span>
      </div>
    </section>
  );
}

/** How authorization requests are answered: the consent policy and "always ask". */
export function AuthorizationSettings({ settings }: { readonly settings: SettingsView }): ReactNode {
  const updateSettings = useApp((s) => s.updateSettings);
  const settingsBusy = useApp((s) => s.busy.includes('settings'));
  const ids = { policy: useId(), alwaysAsk: useId() };
  return (
    <section className="card" aria-labelledby="consent-settings-title">
      <h2 id="consent-settings-title">Authorization</h2>
      <div className="field">
        <label htmlFor={ids.policy}>When a game asks for authorization</label>
        <select
          id={ids.policy}
          value={settings.consent_policy}
          disabled={settingsBusy}
          onChange={(e) => {
            if (isPolicy(e.target.value)) void updateSettings({ consent_policy: e.target.value });
          }}
          data-testid="settings-consent-policy"
        >
          {POLICIES.map((p) => (
            <option key={p.value} value={p.value}>
              {p.label}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <input
          id={ids.alwaysAsk}
          type="checkbox"
          checked={settings.consent_always_ask}
          disabled={settingsBusy}
          onChange={(e) => void updateSettings({ consent_always_ask: e.target.checked })}
          data-testid="settings-always-ask"
        />
        <label htmlFor={ids.alwaysAsk}>Ask again whenever a game wants me to confirm, even for an app I already allowed</label>
      </div>
    </section>
  );
}
