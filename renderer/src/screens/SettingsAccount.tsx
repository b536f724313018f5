import { useId, useState, type FormEvent, type ReactNode } from 'react';
import type { UserView } from '../../../preload/src/contract';
import { Details } from '../components/Details';
import { displayName } from '../lib/format';
import { useApp } from '../store/react';

/** Who is signed in, signing in (or switching) by username, and signing out. */
export function AccountSettings({ user }: { readonly user: UserView | null }): ReactNode {
  const login = useApp((s) => s.login);
  const logout = useApp((s) => s.logout);
  const accountBusy = useApp((s) => s.busy.includes('account'));
  const banned = useApp((s) => s.data?.status.gateway.status === 'banned');
  const [username, setUsername] = useState('');
  const usernameId = useId();

  const onSignIn = (event: FormEvent<HTMLFormElement>): void => {
    event.preventDefault();
    const name = username.trim();
    if (name === '') return;
    void login(name).then((ok) => {
      if (ok) setUsername('');
    });
  };

  return (
    <section className="card" aria-labelledby="account-title">
      <h2 id="account-title">Account</h2>
      {user === null ? (
        <p data-testid="account-signed-out">Not signed in.</p>
      ) : (
        <p data-testid="account-user">
          Signed in as <strong>{displayName(user)}</strong> <span className="muted">@{user.username}</span>
        </p>
      )}
      {user !== null && banned && (
        <p className="banner banner-error" role="status" data-testid="account-banned-note">
          This account is banned on the platform. Companion keeps trying and signs in again by itself once the ban is lifted.
        </p>
      )}
      <form onSubmit={onSignIn} className="inline-form">
        <label htmlFor={usernameId}>{user === null ? 'Username' : 'Switch to username'}</label>
        <input id={usernameId} value={username} autoComplete="username" onChange={(e) => setUsername(e.target.value)} data-testid="account-username" />
        <button type="submit" disabled={accountBusy || username.trim() === ''} data-testid="account-login">
          Sign in
        </button>
        {user !== null && (
          <button type="button" disabled={accountBusy} onClick={() => void logout()} data-testid="account-logout">
            Sign out
          </button>
        )}
      </form>
      {user !== null && <Details testId="account-details" facts={[{ label: 'User ID', value: user.id, testId: 'account-user-id' }]} />}
    </section>
  );
}
