import { useId, useState, type FormEvent, type ReactNode } from 'react';
import type { SettingsView } from '../../../preload/src/contract';
import { displayName } from '../lib/format';
import { useApp } from '../store/react';

const POLICIES: readonly { readonly value: SettingsView['consent_policy']; readonly label: string }[] = [
  { value: 'prompt', label: 'Ask me (show the prompt)' },
  { value: 'approve', label: 'Approve automatically (unattended test runs)' },
  { value: 'deny', label: 'Deny automatically' },
];

function isPolicy(value: string): value is SettingsView['consent_policy'] {
  return POLICIES.some((p) => p.value === value);
}

export function SettingsScreen(): ReactNode {
  const status = useApp((s) => s.data?.status);
  const settings = useApp((s) => s.data?.settings);
  const login = useApp((s) => s.login);
  const logout = useApp((s) => s.logout);
  const updateSettings = useApp((s) => s.updateSettings);
  const accountBusy = useApp((s) => s.busy.includes('account'));
  const settingsBusy = useApp((s) => s.busy.includes('settings'));
  const [username, setUsername] = useState('');
  const ids = { username: useId(), platform: useId(), policy: useId(), alwaysAsk: useId() };
  if (status === undefined || settings === undefined) return null;
  const user = status.account?.user ?? null;

  const onSignIn = (event: FormEvent<HTMLFormElement>): void => {
    event.preventDefault();
    const name = username.trim();
    if (name === '') return;
    void login(name).then((ok) => {
      if (ok) setUsername('');
    });
  };

  return (
    <section aria-labelledby="settings-title">
      <h1 id="settings-title">Account &amp; settings</h1>
      <section className="card" aria-labelledby="account-title">
        <h2 id="account-title">Account</h2>
        {user === null ? (
          <p data-testid="account-signed-out">Not signed in.</p>
        ) : (
          <p data-testid="account-user">
            Signed in as <strong>{displayName(user)}</strong> <span className="muted">@{user.username} · ID {user.id}</span>
          </p>
        )}
        <form onSubmit={onSignIn} className="inline-form">
          <label htmlFor={ids.username}>{user === null ? 'Username' : 'Switch to username'}</label>
          <input id={ids.username} value={username} autoComplete="username" onChange={(e) => setUsername(e.target.value)} data-testid="account-username" />
          <button type="submit" disabled={accountBusy || username.trim() === ''} data-testid="account-login">
            Sign in
          </button>
          {user !== null && (
            <button type="button" disabled={accountBusy} onClick={() => void logout()} data-testid="account-logout">
              Sign out
            </button>
          )}
        </form>
      </section>

      <section className="card" aria-labelledby="platform-title">
        <h2 id="platform-title">Platform</h2>
        <div className="field">
          <label htmlFor={ids.platform}>Platform URL</label>
          <input id={ids.platform} value={status.platform.url} readOnly data-testid="settings-platform-url" />
          {status.platform.embedded && <span className="muted"> (embedded platform)</span>}
        </div>
        <p>
          Gateway: <strong data-testid="settings-gateway-status">{status.gateway.status}</strong>
          {status.gateway.detail !== null && <span className="muted"> · {status.gateway.detail}</span>}
        </p>
        <p className="muted">
          RPC socket: {status.ipc?.path ?? 'not listening'} · Companion {status.version}
        </p>
      </section>

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
          <label htmlFor={ids.alwaysAsk}>Always ask when the app asks (a request with prompt=consent shows the prompt even if already authorized)</label>
        </div>
      </section>
    </section>
  );
}
