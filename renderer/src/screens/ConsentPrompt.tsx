import type { ReactNode } from 'react';
import type { ConsentPromptView } from '../../../preload/src/contract';
import { selectQueuedConsentCount, selectVisibleConsent } from '../store/app-store';
import { useApp } from '../store/react';
import { ConsentAccount, ConsentFacts, ConsentHeader, ConsentScopes } from './ConsentDetails';
import { useModalDialog } from './use-modal-dialog';

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
  const { dialogRef, onKeyDown } = useModalDialog(() => void decide(request.id, 'dismiss'));
  const titleId = `consent-title-${request.id}`;
  const descriptionId = `consent-description-${request.id}`;
  // The grant would be the signed-in account's: switching cancels this request and opens the sign-in.
  const switchAccount = (): void => {
    void decide(request.id, 'dismiss');
    window.location.hash = 'settings';
  };

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
        <ConsentHeader application={request.application} titleId={titleId} />
        <ConsentAccount user={user} onSwitch={switchAccount} />
        <ConsentScopes request={request} descriptionId={descriptionId} />
        <ConsentFacts request={request} />
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
