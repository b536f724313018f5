import { useEffect, useRef, type KeyboardEvent, type ReactNode } from 'react';
import type { ConsentPromptView, UserView } from '../../../preload/src/contract';
import { SafeImage } from '../components/safe';
import { displayName, formatDuration, integrationTypeText } from '../lib/format';
import { useNow } from '../lib/use-now';
import { selectQueuedConsentCount, selectVisibleConsent } from '../store/app-store';
import { useApp } from '../store/react';

const UMBRELLAS: Readonly<Record<string, string>> = {
  'sdk.social_layer': 'friends, presence and messaging for the game',
  'sdk.social_layer_presence': 'friends and presence for the game',
};

/** The overlay shown while the host has a visible consent request. */
export function ConsentOverlay(): ReactNode {
  const request = useApp(selectVisibleConsent);
  if (request === null) return null;
  // Keyed by id: a new request gets a fresh dialog (focus, timers).
  return <ConsentPrompt key={request.id} request={request} />;
}

function ConsentPrompt({ request }: { readonly request: ConsentPromptView }): ReactNode {
  const decide = useApp((s) => s.decideConsent);
  const user = useApp((s) => s.data?.status.account?.user ?? null);
  const queued = useApp(selectQueuedConsentCount);
  const dialogRef = useRef<HTMLDivElement>(null);
  const titleId = `consent-title-${request.id}`;
  const descriptionId = `consent-description-${request.id}`;

  // Focus the dialog itself (not Approve): a stray Enter must never approve. Restore on close.
  useEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    dialogRef.current?.focus();
    return () => previous?.focus();
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      void decide(request.id, 'dismiss');
      return;
    }
    if (event.key === 'Enter') {
      // Enter acts only on the focused button (native behaviour); anywhere else it does nothing.
      const target = event.target as HTMLElement;
      if (target.tagName !== 'BUTTON') event.preventDefault();
      return;
    }
    if (event.key === 'Tab') trapFocus(event, dialogRef.current);
  };

  const umbrellas = request.scopes.filter((scope) => UMBRELLAS[scope] !== undefined);
  return (
    <div className="overlay">
      <div
        ref={dialogRef}
        className="consent"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={descriptionId}
        tabIndex={-1}
        onKeyDown={onKeyDown}
        data-testid="consent-prompt"
      >
        <button type="button" className="close" aria-label="Dismiss (cancels the request)" title="Dismiss" onClick={() => void decide(request.id, 'dismiss')} data-testid="consent-dismiss">
          ×
        </button>
        <header className="consent-header">
          <SafeImage src={request.application.icon} alt="" className="app-icon" size={64} fallback={<div className="app-icon placeholder" aria-hidden="true" />} />
          <div>
            <h2 id={titleId}>
              <span data-testid="consent-app-name">{request.application.name}</span> wants to access your account
            </h2>
            {request.application.verified ? (
              <span className="badge verified" data-testid="consent-verified">
                Verified app
              </span>
            ) : (
              <span className="badge unverified" data-testid="consent-unverified">
                Unverified app: the platform has not checked who made it
              </span>
            )}
            <div className="muted">Application ID {request.application.id}</div>
          </div>
        </header>
        <p className="consent-account" data-testid="consent-account">
          {user === null ? 'No account is signed in.' : <AccountLine user={user} />}
        </p>
        <div id={descriptionId}>
          <h3>This will allow the developer of {request.application.name} to:</h3>
          <ul className="scopes">
            {request.descriptions.map((description) => (
              <li key={description.scope} data-testid="consent-scope" data-scope={description.scope}>
                <span>{description.text}</span> <code className="muted">{description.scope}</code>
              </li>
            ))}
          </ul>
          {umbrellas.length > 0 && (
            <p className="muted" data-testid="consent-expansion">
              {umbrellas.map((scope) => `${scope} (${UMBRELLAS[scope] ?? ''})`).join(' and ')} {umbrellas.length === 1 ? 'expands' : 'expand'} to the
              permissions above.
            </p>
          )}
          <p className="muted">Requested scopes: {request.scopes.join(', ') || 'none'}</p>
          <p data-testid="consent-install-context">{integrationTypeText(request.integration_type)}</p>
          {request.expires_at !== null && <Expiry at={request.expires_at} />}
        </div>
        <div className="consent-actions">
          <button type="button" className="secondary" onClick={() => void decide(request.id, 'deny')} data-testid="consent-deny">
            Deny
          </button>
          <button type="button" className="primary" onClick={() => void decide(request.id, 'approve')} data-testid="consent-approve">
            Approve
          </button>
        </div>
        {queued > 0 && <p className="muted">{queued} more request(s) waiting</p>}
      </div>
    </div>
  );
}

function AccountLine({ user }: { readonly user: UserView }): ReactNode {
  return (
    <>
      Signed in as <strong>{displayName(user)}</strong> <span className="muted">(@{user.username})</span>
    </>
  );
}

function Expiry({ at }: { readonly at: number }): ReactNode {
  const now = useNow(1000);
  return <p className="muted">This request expires in {formatDuration(at - now)}.</p>;
}

function trapFocus(event: KeyboardEvent, container: HTMLElement | null): void {
  if (container === null) return;
  const focusable = [...container.querySelectorAll<HTMLElement>('button:not([disabled]), a[href], input, select, [tabindex]:not([tabindex="-1"])')];
  const first = focusable[0];
  const last = focusable[focusable.length - 1];
  if (first === undefined || last === undefined) return;
  const active = document.activeElement;
  if (event.shiftKey && (active === first || active === container)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && active === last) {
    event.preventDefault();
    first.focus();
  }
}
