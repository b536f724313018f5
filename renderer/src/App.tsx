import { useEffect, useRef, type ReactNode } from 'react';
import { ConsentOverlay } from './screens/ConsentPrompt';
import { FriendsScreen } from './screens/FriendsScreen';
import { GamesScreen } from './screens/GamesScreen';
import { GrantsScreen } from './screens/GrantsScreen';
import { InspectorScreen } from './screens/InspectorScreen';
import { OriginRequests } from './screens/OriginRequests';
import { SettingsScreen } from './screens/SettingsScreen';
import { useApp } from './store/react';
import { selectUnreadCount, selectWaitingCount } from './store/app-store';
import { screenFromHash, type ScreenId } from './store/navigation';
import { DeviceLinkOverlay } from './screens/DeviceLink';
import { VoicePanel } from './screens/VoicePanel';
import { Details } from './components/Details';
import { playerErrorText } from './lib/player-error';
import type { GatewayState } from '../../preload/src/contract';

export const SCREENS: readonly { readonly id: ScreenId; readonly label: string }[] = [
  { id: 'games', label: 'Games' },
  { id: 'friends', label: 'Friends' },
  { id: 'inspector', label: 'Inspector' },
  { id: 'apps', label: 'Authorized apps' },
  { id: 'settings', label: 'Account & settings' },
];

export { screenFromHash, type ScreenId };

/** The store's screen, kept in the location hash (`#inspector`) both ways: a game's request moves it too. */
function useHashScreen(): [ScreenId, (id: ScreenId) => void] {
  const screen = useApp((s) => s.screen);
  const go = useApp((s) => s.go);
  useEffect(() => {
    const onHash = (): void => go(screenFromHash(window.location.hash));
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, [go]);
  const first = useRef(true);
  useEffect(() => {
    // The first screen came from the hash (or its absence: the consent window's `#/consent` stays).
    if (first.current) {
      first.current = false;
      return;
    }
    if (screenFromHash(window.location.hash) !== screen) window.location.hash = screen;
  }, [screen]);
  return [screen, go];
}

export function App(): ReactNode {
  const [screen, go] = useHashScreen();
  useUnreadTitle();
  const hasData = useApp((s) => s.data !== null);
  const heading = useRef<HTMLElement>(null);
  const first = useRef(true);

  // Moving between screens moves focus to the new screen (screen readers announce it).
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    // A dialog that came with the move (a game's "Link a device") keeps the focus.
    if ((document.activeElement?.closest('[aria-modal="true"]') ?? null) !== null) return;
    heading.current?.focus();
  }, [screen]);

  return (
    <div className="app">
      <nav className="nav" aria-label="Screens">
        <div className="brand">Companion</div>
        <ul>
          {SCREENS.map((s) => (
            <li key={s.id}>
              <button type="button" className={screen === s.id ? 'active' : ''} aria-current={screen === s.id ? 'page' : undefined} onClick={() => go(s.id)} data-testid={`nav-${s.id}`}>
                {s.label}
                {s.id === 'friends' && (
                  <span className="nav-badges">
                    <UnreadBadge />
                    <FriendsBadge />
                  </span>
                )}
              </button>
            </li>
          ))}
        </ul>
        <VoicePanel />
        <GatewayBadge />
      </nav>
      <main className="main" ref={heading} tabIndex={-1}>
        <ConnectionBanner />
        <BannedBanner />
        <Messages />
        <OriginRequests />
        {hasData ? <Screen id={screen} /> : <Loading />}
      </main>
      <DeviceLinkOverlay />
      <ConsentOverlay />
    </div>
  );
}

function Screen({ id }: { readonly id: ScreenId }): ReactNode {
  switch (id) {
    case 'games':
      return <GamesScreen />;
    case 'friends':
      return <FriendsScreen />;
    case 'inspector':
      return <InspectorScreen />;
    case 'apps':
      return <GrantsScreen />;
    case 'settings':
      return <SettingsScreen />;
  }
}

function Loading(): ReactNode {
  const status = useApp((s) => s.connection.status);
  if (status === 'failed' || status === 'lost') return null; // the banner says why
  return (
    <p className="empty" data-testid="loading">
      Connecting to Companion…
    </p>
  );
}

/** How many join requests, open invites and friend requests to the player wait for an answer, on the Friends button. */
function FriendsBadge(): ReactNode {
  const waiting = useApp(selectWaitingCount);
  if (waiting === 0) return null;
  return (
    <span className="nav-badge" data-testid="friends-badge">
      {waiting}
      <span className="visually-hidden"> waiting for an answer</span>
    </span>
  );
}

/** The connection to the platform in a player's words; the gateway's own state word is a developer fact (data-state, Settings' Details). */
const GATEWAY_WORDS: Readonly<Record<GatewayState, string>> = {
  ready: 'Connected',
  connecting: 'Connecting…',
  reconnecting: 'Reconnecting…',
  disconnected: 'Not connected',
  banned: 'Account banned',
};

/** How many direct messages the player has not read, on the Friends button. */
function UnreadBadge(): ReactNode {
  const unread = useApp(selectUnreadCount);
  if (unread === 0) return null;
  return (
    <span className="nav-badge nav-badge-unread" data-testid="friends-unread" title={`${unread} unread ${unread === 1 ? 'message' : 'messages'}`}>
      {unread}
      <span className="visually-hidden"> unread {unread === 1 ? 'message' : 'messages'}</span>
    </span>
  );
}

/** The window's title carries the unread count, as the client players know does: "(2) Companion". */
export function unreadTitle(unread: number): string {
  return unread > 0 ? `(${unread}) Companion` : 'Companion';
}

function useUnreadTitle(): void {
  const unread = useApp(selectUnreadCount);
  useEffect(() => {
    document.title = unreadTitle(unread);
  }, [unread]);
}

function GatewayBadge(): ReactNode {
  const gateway = useApp((s) => s.data?.status.gateway.status ?? null);
  const hostLost = useApp((s) => s.connection.status === 'lost' || s.connection.status === 'failed');
  if (gateway === null) return null;
  if (hostLost) {
    // What the host last said is no longer known to be true.
    return (
      <div className="gateway gateway-unknown" data-testid="gateway-status" data-state="unknown">
        Companion not reachable
      </div>
    );
  }
  return (
    <div className={`gateway gateway-${gateway}`} data-testid="gateway-status" data-state={gateway}>
      {GATEWAY_WORDS[gateway]}
    </div>
  );
}

/** The platform refuses the player's account for a ban: games' presence and invites are refused until it is lifted. */
function BannedBanner(): ReactNode {
  const gateway = useApp((s) => s.data?.status.gateway ?? null);
  if (gateway?.status !== 'banned') return null;
  return (
    <div className="banner banner-error" role="alert" data-testid="account-banned">
      Your platform account is banned. Games cannot show your activity or send invites; Companion signs in again by itself when the ban is lifted.
      {gateway.detail !== null && (
        <Details testId="account-banned-details" facts={[{ label: 'Gateway', value: `${gateway.status}: ${gateway.detail}` }]} />
      )}
    </div>
  );
}

function ConnectionBanner(): ReactNode {
  const connection = useApp((s) => s.connection);
  const refresh = useApp((s) => s.refresh);
  if (connection.status === 'lost') {
    return (
      <div className="banner banner-error" role="alert" data-testid="connection-lost">
        Connection to the Companion host lost. Reconnecting
        {connection.retryInMs !== null ? ` (attempt ${connection.attempt}, next try in ${Math.max(1, Math.ceil(connection.retryInMs / 1000))} s)` : ''}… What you see may be out of date.
      </div>
    );
  }
  if (connection.status === 'failed') {
    return (
      <div className="banner banner-error" role="alert" data-testid="connection-error">
        Could not load Companion&apos;s state: {playerErrorText(connection.error ?? '')}{' '}
        <button type="button" onClick={() => void refresh()}>
          Retry
        </button>
      </div>
    );
  }
  return null;
}

function Messages(): ReactNode {
  const messages = useApp((s) => s.messages);
  const dismiss = useApp((s) => s.dismissMessage);
  if (messages.length === 0) return null;
  return (
    <div className="messages">
      {messages.map((message) => (
        <div key={message.id} className={`banner banner-${message.kind}`} role={message.kind === 'error' ? 'alert' : 'status'} data-testid={message.kind === 'error' ? 'error-message' : 'info-message'}>
          <div>
            <span>{message.text}</span>
            {message.detail !== undefined && (
              <Details testId="message-details">
                <code data-testid="message-detail">{message.detail}</code>
              </Details>
            )}
          </div>
          <button type="button" className="link" aria-label="Dismiss message" onClick={() => dismiss(message.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
