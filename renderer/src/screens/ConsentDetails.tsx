import type { ReactNode } from 'react';
import type { ConsentPromptView, UserView } from '../../../preload/src/contract';
import { Details } from '../components/Details';
import { SafeImage } from '../components/safe';
import { appIconUrl } from '../lib/images';
import { displayName, formatDuration, integrationTypePlayerText, integrationTypeText } from '../lib/format';
import { useNow } from '../lib/use-now';

const UMBRELLAS: Readonly<Record<string, string>> = {
  'sdk.social_layer': 'friends, presence and messaging for the game',
  'sdk.social_layer_presence': 'friends and presence for the game',
};

/** The application asking: icon, name (the dialog's title), whether the platform verified it. */
export function ConsentHeader({ application, titleId }: { readonly application: ConsentPromptView['application']; readonly titleId: string }): ReactNode {
  return (
    <header className="consent-header">
      <SafeImage src={appIconUrl(application.id, application.icon)} alt="" className="app-icon" size={64} testId="consent-app-icon" fallback={<div className="app-icon placeholder" aria-hidden="true" />} />
      <div>
        <h2 id={titleId}>
          <span data-testid="consent-app-name">{application.name}</span> wants to access your account
        </h2>
        {application.verified ? (
          <span className="badge verified" data-testid="consent-verified">
            Verified app
          </span>
        ) : (
          <span className="badge unverified" data-testid="consent-unverified">
            Unverified app: the platform has not checked who made it
          </span>
        )}
      </div>
    </header>
  );
}

/**
 * Which account the grant is for, and the way out when it is the wrong one. The host asks the
 * platform for the grant with the account signed in when the game asked, so switching cancels
 * this request (the game asks again) and opens the sign-in in Settings.
 */
export function ConsentAccount({ user, onSwitch }: { readonly user: UserView | null; readonly onSwitch: () => void }): ReactNode {
  return (
    <p className="consent-account" data-testid="consent-account">
      {user === null ? (
        'No account is signed in.'
      ) : (
        <>
          Signed in as <strong>{displayName(user)}</strong> <span className="muted">(@{user.username})</span>
          <br />
          <span className="muted">Not you?</span>{' '}
          <button type="button" className="link text-link" onClick={onSwitch} aria-describedby="consent-switch-note" data-testid="consent-switch-account">
            Switch account
          </button>
          <span id="consent-switch-note" className="visually-hidden">
            Cancels this request; the game asks again after you sign in.
          </span>
        </>
      )}
    </p>
  );
}

/** What the grant allows (the dialog's description): each permission in plain words, the install, the expiry. */
export function ConsentScopes({ request, descriptionId }: { readonly request: ConsentPromptView; readonly descriptionId: string }): ReactNode {
  const install = integrationTypePlayerText(request.integration_type);
  return (
    <div id={descriptionId}>
      <h3>This will allow the developer of {request.application.name} to:</h3>
      <ul className="scopes">
        {request.descriptions.map((description) => (
          <li key={description.scope} data-testid="consent-scope" data-scope={description.scope}>
            {/* A scope the host has no words for shows as its own code: the player reads that it is one more permission. */}
            <span>{description.text === description.scope ? 'A permission Companion has no words for (its code is under Details)' : description.text}</span>
          </li>
        ))}
      </ul>
      {install !== null && <p data-testid="consent-install-context">{install}</p>}
      {request.expires_at !== null && <Expiry at={request.expires_at} />}
    </div>
  );
}

/** The request as a developer reads it: the application id, the scope codes asked and granted, the install context. */
export function ConsentFacts({ request }: { readonly request: ConsentPromptView }): ReactNode {
  const umbrellas = request.scopes.filter((scope) => UMBRELLAS[scope] !== undefined);
  const expanded = umbrellas.length === 0 ? null : `${request.expanded_scopes.join(', ')} (${umbrellas.map((scope) => `${scope}: ${UMBRELLAS[scope] ?? ''}`).join('; ')})`;
  return (
    <Details
      testId="consent-details"
      facts={[
        { label: 'Application ID', value: request.application.id, testId: 'consent-app-id' },
        { label: 'Scopes', value: <code>{request.scopes.join(' ') || 'none'}</code>, testId: 'consent-scope-codes' },
        { label: 'Expands to', value: expanded, testId: 'consent-expansion' },
        { label: 'Install', value: integrationTypeText(request.integration_type), testId: 'consent-integration-type' },
      ]}
    />
  );
}

function Expiry({ at }: { readonly at: number }): ReactNode {
  const now = useNow(1000);
  return <p className="muted">This request expires in {formatDuration(at - now)}.</p>;
}
