import { useId, type ReactNode } from 'react';
import { useApp } from '../store/react';

/** Which game friends see when several run, and the switch that hides them all. */
export function PresenceSettings(): ReactNode {
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
