import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { GrantView } from '../../../preload/src/contract';
import { Details } from '../components/Details';
import { SafeImage } from '../components/safe';
import { appIconUrl } from '../lib/images';
import { appNameOr } from '../lib/app-names';
import { formatDate, integrationTypeText } from '../lib/format';
import { useApp } from '../store/react';

export function GrantsScreen(): ReactNode {
  const grants = useApp((s) => s.data?.grants);
  const openDeviceLink = useApp((s) => s.openDeviceLink);
  // A game asked Companion to show its connected-games settings (OpenConnectedGamesSettingsInDiscord).
  const highlighted = useApp((s) => s.highlightedApplicationId);
  const highlightedName = useApp((s) => (highlighted === null ? null : appNameOr(s.data, highlighted, 'The game')));
  if (grants === undefined) return null;
  const notAuthorized = highlighted !== null && !grants.some((grant) => grant.application.id === highlighted);
  return (
    <section aria-labelledby="grants-title">
      <h1 id="grants-title">Authorized apps</h1>
      <div className="card-actions">
        <button type="button" onClick={openDeviceLink} data-testid="grants-link-device">
          Link a device…
        </button>
      </div>
      {notAuthorized && (
        <p className="muted" data-testid="grants-not-authorized">
          {highlightedName} asked to show its settings here, but it is not authorized on your account.
        </p>
      )}
      {grants.length === 0 ? (
        <p className="empty" data-testid="grants-empty">
          No app is authorized on your account.
        </p>
      ) : (
        <ul className="cards">
          {grants.map((grant) => (
            <GrantRow key={grant.id} grant={grant} highlighted={grant.application.id === highlighted} />
          ))}
        </ul>
      )}
    </section>
  );
}

function GrantRow({ grant, highlighted }: { readonly grant: GrantView; readonly highlighted: boolean }): ReactNode {
  const revoke = useApp((s) => s.revokeGrant);
  const row = useRef<HTMLLIElement>(null);
  useEffect(() => {
    if (highlighted) row.current?.scrollIntoView({ block: 'nearest' });
  }, [highlighted]);
  const busy = useApp((s) => s.busy.includes(`revoke:${grant.application.id}`));
  const [confirming, setConfirming] = useState(false);
  return (
    <li
      ref={row}
      className={highlighted ? 'card grant grant-highlighted' : 'card grant'}
      aria-current={highlighted ? 'true' : undefined}
      data-highlighted={highlighted ? 'true' : undefined}
      data-testid="grant-row"
      data-application-id={grant.application.id}
    >
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
