import { useId, type ReactNode } from 'react';
import type { AppRuleView } from '../../../preload/src/contract';
import { Details } from '../components/Details';
import { knownAppName } from '../lib/app-names';
import { useApp } from '../store/react';

/** A rule in a player's words: what friends see of that game. */
function ruleWords(rule: AppRuleView): string {
  if (rule.mode === 'hide') return 'hidden from friends';
  const fields: readonly string[] = rule.fields;
  const all = ['details', 'state', 'party', 'buttons', 'assets'].every((field) => fields.includes(field));
  return all ? 'friends see the game and the time only' : 'friends see part of it';
}

/** Which game friends see when several run, the switch that hides them all, and the per-game rules (by name). */
export function PresenceSettings(): ReactNode {
  const presence = useApp((s) => s.data?.presence ?? null);
  const data = useApp((s) => s.data);
  const update = useApp((s) => s.updatePresence);
  const busy = useApp((s) => s.busy.includes('presence'));
  const ids = { policy: useId(), hideAll: useId() };
  if (presence === null) return null;
  const ruled = Object.entries(presence.rules);
  const name = (applicationId: string): string => knownAppName(data, applicationId) ?? 'A game Companion cannot name';
  const pinned = presence.pinned_application_id;
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
        {pinned !== null && (
          <span className="muted" data-testid="presence-pinned">
            {' '}
            ({name(pinned)} is pinned: it is shown whenever it has an activity){' '}
            <button type="button" disabled={busy} onClick={() => void update({ pinned_application_id: null })}>
              Unpin
            </button>
          </span>
        )}
      </div>
      {ruled.length > 0 && (
        <ul className="rows" aria-label="Per-game rules">
          {ruled.map(([applicationId, rule]) => (
            <li className="row" key={applicationId} data-testid="presence-rule" data-application-id={applicationId}>
              <span>
                <strong>{name(applicationId)}</strong>: {ruleWords(rule)}
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
      {(ruled.length > 0 || pinned !== null) && (
        <Details testId="presence-details">
          <dl className="facts">
            {pinned !== null && (
              <>
                <dt>Pinned</dt>
                <dd>application {pinned}</dd>
              </>
            )}
            {ruled.map(([applicationId, rule]) => (
              <RuleFact key={applicationId} applicationId={applicationId} rule={rule} />
            ))}
          </dl>
        </Details>
      )}
    </section>
  );
}

function RuleFact({ applicationId, rule }: { readonly applicationId: string; readonly rule: AppRuleView }): ReactNode {
  return (
    <>
      <dt>Application {applicationId}</dt>
      <dd data-testid="presence-rule-detail">{rule.mode === 'hide' ? 'hide' : `redact: ${rule.fields.join(', ')}`}</dd>
    </>
  );
}
