import type { ReactNode } from 'react';
import type { ConsentPromptView, UserView } from '../../../preload/src/contract';
import { SafeImage } from '../components/safe';
import { appIconUrl } from '../lib/images';
import { displayName, formatDuration, integrationTypeText } from '../lib/format';
import { useNow } from '../lib/use-now';

const UMBRELLAS: Readonly<Record<string, string>> = {
  'sdk.social_layer': 'friends, presence and messaging for the game',
  'sdk.social_layer_presence': 'friends and presence for the game',
};

/** The application asking: icon, name (the dialog's title), whether the platform verified it, its id. */
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
        <div className="muted">Application ID {application.id}</div>
      </div>
    </header>
  );
}

/** Which account the grant is for. */
export function ConsentAccount({ user }: { readonly user: UserView | null }): ReactNode {
  return (
    <p className="consent-account" data-testid="consent-account">
      {user === null ? (
        'No account is signed in.'
      ) : (
        <>
          Signed in as <strong>{displayName(user)}</strong> <span className="muted">(@{user.username})</span>
        </>
      )}
    </p>
  );
}

/** What the grant allows (the dialog's description): the scopes in plain words, the install context, the expiry. */
export function ConsentScopes({ request, descriptionId }: { readonly request: ConsentPromptView; readonly descriptionId: string }): ReactNode {
  const umbrellas = request.scopes.filter((scope) => UMBRELLAS[scope] !== undefined);
  return (
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
  );
}

function Expiry({ at }: { readonly at: number }): ReactNode {
  const now = useNow(1000);
  return <p className="muted">This request expires in {formatDuration(at - now)}.</p>;
}
