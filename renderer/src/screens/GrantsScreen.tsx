import { useState, type ReactNode } from 'react';
import type { GrantView } from '../../../preload/src/contract';
import { Details } from '../components/Details';
import { SafeImage } from '../components/safe';
import { appIconUrl } from '../lib/images';
import { formatDate, integrationTypeText } from '../lib/format';
import { useApp } from '../store/react';

export function GrantsScreen(): ReactNode {
  const grants = useApp((s) => s.data?.grants);
  if (grants === undefined) return null;
  return (
    <section aria-labelledby="grants-title">
      <h1 id="grants-title">Authorized apps</h1>
      {grants.length === 0 ? (
        <p className="empty" data-testid="grants-empty">
          No app is authorized on your account.
        </p>
      ) : (
        <ul className="cards">
          {grants.map((grant) => (
            <GrantRow key={grant.id} grant={grant} />
          ))}
        </ul>
      )}
    </section>
  );
}

function GrantRow({ grant }: { readonly grant: GrantView }): ReactNode {
  const revoke = useApp((s) => s.revokeGrant);
  const busy = useApp((s) => s.busy.includes(`revoke:${grant.application.id}`));
  const [confirming, setConfirming] = useState(false);
  return (
    <li className="card grant" data-testid="grant-row" data-application-id={grant.application.id}>
      <div className="grant-head">
        <SafeImage src={appIconUrl(grant.application.id, grant.application.icon)} alt="" className="app-icon small" size={32} testId="grant-app-icon" fallback={<div className="app-icon small placeholder" aria-hidden="true" />} />
        <h2 className="card-title" data-testid="grant-app-name">
          {grant.application.name}
        </h2>
      </div>
      <dl className="facts">
        <dt>Allows</dt>
        <dd data-testid="grant-scopes">
          {grant.descriptions.length === 0 ? (
            'nothing'
          ) : (
            <ul className="scopes">
              {grant.descriptions.map((d) => (
                <li key={d.scope} data-testid="grant-scope" data-scope={d.scope}>
                  {d.text === d.scope ? 'A permission Companion has no words for (its code is under Details)' : d.text}
                </li>
              ))}
            </ul>
          )}
        </dd>
        <dt>Authorized</dt>
        <dd>{formatDate(grant.created_at)}</dd>
      </dl>
      <Details
        testId="grant-details"
        facts={[
          { label: 'Application ID', value: grant.application.id, testId: 'grant-app-id' },
          { label: 'Scopes', value: <code>{grant.scopes.join(' ') || 'none'}</code>, testId: 'grant-scope-codes' },
          { label: 'Install', value: integrationTypeText(grant.integration_type) },
        ]}
      />
      {confirming ? (
        <div className="card-actions" role="group" aria-label={`Revoke ${grant.application.name}?`}>
          <span data-testid="grant-revoke-question">
            Revoke {grant.application.name}? It loses access to your account now, and its games must ask again.
          </span>
          <button
            type="button"
            className="danger"
            disabled={busy}
            onClick={() => void revoke(grant.application.id).then(() => setConfirming(false))}
            data-testid="grant-revoke-confirm"
          >
            Revoke
          </button>
          <button type="button" disabled={busy} onClick={() => setConfirming(false)} data-testid="grant-revoke-cancel">
            Cancel
          </button>
        </div>
      ) : (
        <div className="card-actions">
          <button type="button" className="danger" onClick={() => setConfirming(true)} data-testid="grant-revoke" aria-label={`Revoke ${grant.application.name}`}>
            Revoke…
          </button>
        </div>
      )}
    </li>
  );
}
