import { useId, useState, type FormEvent, type ReactNode } from 'react';
import type { SettingsView } from '../../../preload/src/contract';
import { displayName } from '../lib/format';
import { useApp } from '../store/react';
import { DoctorPanel } from './DoctorPanel';

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

/** Which game friends see when several run, and the switch that hides them all. */
function PresenceSettings(): ReactNode {
  const presence = useApp((s) => s.data?.presence ?? null);
  const update = useApp((s) => s.updatePresence);
  const busy = useApp((s) => s.busy.includes('presence'));
  const ids = { policy: useId(), hideAll: useId() };
  if (presence === null) return null;
  const ruled = Object.entries(presence.rules);
  return (
    <section className="card" aria-labelledby="presence-settings-title" data-testid="presence-settings">
      <h2 id="presence-settings-title">What friends see</h2>
      <div className="field">
        <input
          id={ids.hideAll}
          type="checkbox"
          checked={presence.hide_all}
          disabled={busy}
          onChange={(e) => void update({ hide_all: e.target.checked })}
          data-testid="presence-hide-all"
        />
        <label htmlFor={ids.hideAll}>Hide everything: no game activity reaches friends</label>
      </div>
      <div className="field">
        <label htmlFor={ids.policy}>When several games set an activity, show</label>
        <select
          id={ids.policy}
          value={presence.policy}
          disabled={busy}
          onChange={(e) => void update({ policy: e.target.value === 'first-connected' ? 'first-connected' : 'most-recent' })}
          data-testid="presence-policy"
        >
          <option value="most-recent">the one updated last</option>
          <option value="first-connected">the one started first</option>
        </select>
        {presence.pinned_application_id !== null && (
          <span className="muted" data-testid="presence-pinned">
            {' '}
            (app {presence.pinned_application_id} is pinned: it wins while it has an activity){' '}
            <button type="button" disabled={busy} onClick={() => void update({ pinned_application_id: null })}>
              Unpin
            </button>
          </span>
        )}
      </div>
      {ruled.length > 0 && (
        <ul className="rows" aria-label="Per-game rules">
          {ruled.map(([applicationId, rule]) => (
            <li className="row" key={applicationId} data-testid="presence-rule">
              <span>
                App {applicationId}: {rule.mode === 'hide' ? 'hidden' : `redacted (${rule.fields.join(', ')})`}
              </span>
              <span className="row-actions">
                <button type="button" disabled={busy} onClick={() => void update({ rules: { [applicationId]: null } })}>
                  Share again
                </button>
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** Web origins the player answered for the RPC WebSocket; forgetting one makes it ask again. */
function OriginDecisions(): ReactNode {
  const origins = useApp((s) => s.data?.origins);
  const forget = useApp((s) => s.forgetOrigin);
  const busy = useApp((s) => s.busy);
  if (origins === undefined || origins.length === 0) return <p className="muted" data-testid="origins-empty">No web page has asked to connect.</p>;
  return (
    <ul className="rows" aria-label="Web pages">
      {origins.map((origin) => (
        <li className="row" key={origin.id} data-testid="origin-row" data-id={origin.id}>
          <span>
            <strong>{origin.origin}</strong> for {origin.application_name ?? `app ${origin.client_id}`}:{' '}
            <span className={origin.decision === 'approved' ? 'badge verified' : 'badge unverified'}>{origin.decision === 'approved' ? 'allowed' : 'denied until restart'}</span>
          </span>
          <span className="row-actions">
            <button type="button" disabled={busy.includes(`origin:${origin.id}`)} onClick={() => void forget(origin.id)} data-testid="origin-forget">
              Forget
            </button>
          </span>
        </li>
      ))}
    </ul>
  );
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
  const ids = { username: useId(), platform: useId(), policy: useId(), alwaysAsk: useId(), logLevel: useId(), startAtLogin: useId() };
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
        <p className="muted">Companion {status.version}</p>
      </section>

      <section className="card" aria-labelledby="transports-title">
        <h2 id="transports-title">Where games connect</h2>
        <dl className="facts">
          <dt>IPC socket</dt>
          <dd data-testid="settings-ipc-path">{status.ipc?.path ?? 'not listening'}</dd>
          <dt>WebSocket</dt>
          <dd data-testid="settings-websocket">{status.websocket === null ? 'not listening' : `ws://127.0.0.1:${status.websocket.port}`}</dd>
        </dl>
        <OriginDecisions />
        <p className="muted">Transports and socket locations are chosen when Companion starts (see <code>companion serve --help</code>).</p>
      </section>

      <PresenceSettings />

      <DoctorPanel />

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
