import type { ReactNode } from 'react';
import type { OriginRequestView } from '../../../preload/src/contract';
import { Details } from '../components/Details';
import { formatDate } from '../lib/format';
import { useApp } from '../store/react';

/**
 * Web pages that tried the RPC WebSocket from an origin the player has not approved. The
 * connection was refused (4001); approving lets that origin connect for that app next time.
 * The origin is the page's own claim (its Origin header), shown as text.
 */
export function OriginRequests(): ReactNode {
  const requests = useApp((s) => s.data?.origin_requests);
  if (requests === undefined || requests.length === 0) return null;
  return (
    <section className="card origin-requests" aria-labelledby="origin-requests-title" data-testid="origin-requests">
      <h2 id="origin-requests-title">A web page wants to talk to Companion</h2>
      <ul className="rows">
        {requests.map((request) => (
          <OriginRequestRow key={request.id} request={request} />
        ))}
      </ul>
    </section>
  );
}

function OriginRequestRow({ request }: { readonly request: OriginRequestView }): ReactNode {
  const decide = useApp((s) => s.decideOrigin);
  const busy = useApp((s) => s.busy.includes(`origin:${request.id}`));
  return (
    <li className="row" data-testid="origin-request-row" data-id={request.id}>
      <span>
        <strong data-testid="origin-request-origin">{request.origin}</strong> asks to connect as{' '}
        <strong>{request.application_name ?? 'an unknown app'}</strong>
        <br />
        <span className="muted">Allow only pages you trust: the page could then set your activity and ask for permissions as this app.</span>
        <Details
          testId="origin-request-details"
          facts={[
            { label: 'Application ID', value: request.client_id },
            { label: 'Refused', value: `${request.attempts} attempt${request.attempts === 1 ? '' : 's'}, the last ${formatDate(request.last_attempt_at)}` },
          ]}
        />
      </span>
      <span className="row-actions">
        <button type="button" className="primary" disabled={busy} onClick={() => void decide(request.id, 'approve')} data-testid="origin-request-approve">
          Allow
        </button>
        <button type="button" disabled={busy} onClick={() => void decide(request.id, 'deny')} data-testid="origin-request-deny">
          Deny
        </button>
      </span>
    </li>
  );
}
