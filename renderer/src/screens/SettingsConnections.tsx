import { useId, type ReactNode } from 'react';
import type { StatusView } from '../../../preload/src/contract';
import { useApp } from '../store/react';

/** The platform Companion talks to, the gateway's state, the version. */
export function PlatformSettings({ status }: { readonly status: StatusView }): ReactNode {
  const platformId = useId();
  return (
    <section className="card" aria-labelledby="platform-title">
      <h2 id="platform-title">Platform</h2>
      <div className="field">
        <label htmlFor={platformId}>Platform URL</label>
        <input id={platformId} value={status.platform.url} readOnly data-testid="settings-platform-url" />
        {status.platform.embedded && <span className="muted"> (embedded platform)</span>}
      </div>
      <p>
        Gateway: <strong data-testid="settings-gateway-status">{status.gateway.status}</strong>
        {status.gateway.detail !== null && <span className="muted"> · {status.gateway.detail}</span>}
      </p>
      <p className="muted">Companion {status.version}</p>
    </section>
  );
}

/** Where games connect (IPC socket, WebSocket), and the web pages answered for the WebSocket. */
export function TransportSettings({ status }: { readonly status: StatusView }): ReactNode {
  return (
    <section className="card" aria-labelledby="transports-title">
      <h2 id="transports-title">Where games connect</h2>
      <dl className="facts">
        <dt>IPC socket</dt>
        <dd data-testid="settings-ipc-path">{status.ipc?.path ?? 'not listening'}</dd>
        <dt>WebSocket</dt>
        <dd data-testid="settings-websocket">{status.websocket === null ? 'not listening' : `ws://127.0.0.1:${status.websocket.port}`}</dd>
      </dl>
      <OriginDecisions />
      <p className="muted">Transports and socket locations are chosen when Companion starts (see <code>companion serve --help</code>).</p>
    </section>
  );
}

/** Web origins the player answered for the RPC WebSocket; forgetting one makes it ask again. */
function OriginDecisions(): ReactNode {
  const origins = useApp((s) => s.data?.origins);
  const forget = useApp((s) => s.forgetOrigin);
  const busy = useApp((s) => s.busy);
  if (origins === undefined || origins.length === 0) return <p className="muted" data-testid="origins-empty">No web page has asked to connect.</p>;
  return (
    <ul className="rows" aria-label="Web pages">
      {origins.map((origin) => (
        <li className="row" key={origin.id} data-testid="origin-row" data-id={origin.id}>
          <span>
            <strong>{origin.origin}</strong> for {origin.application_name ?? `app ${origin.client_id}`}:{' '}
            <span className={origin.decision === 'approved' ? 'badge verified' : 'badge unverified'}>{origin.decision === 'approved' ? 'allowed' : 'denied until restart'}</span>
          </span>
          <span className="row-actions">
            <button type="button" disabled={busy.includes(`origin:${origin.id}`)} onClick={() => void forget(origin.id)} data-testid="origin-forget">
              Forget
            </button>
          </span>
        </li>
      ))}
    </ul>
  );
}
