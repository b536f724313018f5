import { useId, type ReactNode } from 'react';
import type { GatewayState, StatusView } from '../../../preload/src/contract';
import { Details } from '../components/Details';
import { knownAppName } from '../lib/app-names';
import { useApp } from '../store/react';

/** The connection to the platform, as a sentence (the gateway's own state word is in Details). */
const CONNECTION_WORDS: Readonly<Record<GatewayState, string>> = {
  ready: 'Connected: friends see your games and you see theirs.',
  connecting: 'Connecting to the platform…',
  reconnecting: 'Connection lost: reconnecting…',
  disconnected: 'Not connected to the platform.',
  banned: 'This account is banned on the platform.',
};

/** The platform Companion talks to, the connection's state, the version. */
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
      <p data-testid="settings-connection">{CONNECTION_WORDS[status.gateway.status]}</p>
      <p className="muted">Companion {status.version}</p>
      <Details
        testId="platform-details"
        facts={[
          { label: 'Gateway', value: status.gateway.status, testId: 'settings-gateway-status' },
          { label: 'Gateway detail', value: status.gateway.detail },
        ]}
      />
    </section>
  );
}

/** Where games connect (IPC socket, WebSocket), and the web pages answered for the WebSocket. */
export function TransportSettings({ status }: { readonly status: StatusView }): ReactNode {
  return (
    <section className="card" aria-labelledby="transports-title">
      <h2 id="transports-title">Where games connect</h2>
      <p>{status.ipc === null && status.websocket === null ? 'Games cannot connect: Companion is not listening for them.' : 'Games on this computer find Companion by themselves.'}</p>
      <OriginDecisions />
      <Details
        testId="transports-details"
        facts={[
          { label: 'IPC socket', value: status.ipc?.path ?? 'not listening', testId: 'settings-ipc-path' },
          { label: 'WebSocket', value: status.websocket === null ? 'not listening' : `ws://127.0.0.1:${status.websocket.port}`, testId: 'settings-websocket' },
          {
            label: 'Chosen',
            value: (
              <>
                when Companion starts (<code>companion serve --help</code>)
              </>
            ),
          },
        ]}
      />
    </section>
  );
}

/** Web origins the player answered for the RPC WebSocket; forgetting one makes it ask again. */
function OriginDecisions(): ReactNode {
  const origins = useApp((s) => s.data?.origins);
  const data = useApp((s) => s.data);
  const forget = useApp((s) => s.forgetOrigin);
  const busy = useApp((s) => s.busy);
  if (origins === undefined || origins.length === 0) return <p className="muted" data-testid="origins-empty">No web page has asked to connect.</p>;
  return (
    <ul className="rows" aria-label="Web pages">
      {origins.map((origin) => (
        <li className="row" key={origin.id} data-testid="origin-row" data-id={origin.id}>
          <span>
            <strong>{origin.origin}</strong> for {origin.application_name ?? knownAppName(data, origin.client_id) ?? 'an unknown app'}:{' '}
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
