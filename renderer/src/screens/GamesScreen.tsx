import type { ReactNode } from 'react';
import type { DetectedGameView, GameView, PresenceView, RedactableField } from '../../../preload/src/contract';
import { ActivityCard } from '../components/ActivityCard';
import { Details, type Fact } from '../components/Details';
import { DETECTED_STATE_WORDS } from '../lib/detection-words';
import { formatDate, formatTime, relayOutcomePlayerText, relayOutcomeText } from '../lib/format';
import { libraryLabel, transportLabel } from '../lib/game-labels';
import { friendsSeeSentence, gameLabel, replacedBy } from '../lib/presence-reason';
import { useApp } from '../store/react';

export function GamesScreen(): ReactNode {
  const games = useApp((s) => s.data?.games);
  const detected = useApp((s) => s.data?.detection?.games);
  if (games === undefined) return null;
  // A detected game that speaks RPC is shown by its connection's card above.
  const running = (detected ?? []).filter((game) => game.state !== 'ended' && game.state !== 'rpc');
  return (
    <section aria-labelledby="games-title">
      <h1 id="games-title">Games</h1>
      {games.length === 0 && running.length === 0 ? (
        <p className="empty" data-testid="games-empty">
          No game is connected. Start a game that uses Rich Presence and it appears here.
        </p>
      ) : (
        <ul className="cards">
          {games.map((game) => (
            <GameCard key={game.connection_id} game={game} />
          ))}
        </ul>
      )}
      <DetectedGames games={running} />
    </section>
  );
}

/** Games running without Rich Presence, found by game detection: what friends see, since when, from which program. */
function DetectedGames({ games }: { readonly games: readonly DetectedGameView[] }): ReactNode {
  if (games.length === 0) return null;
  return (
    <>
      <h2 id="detected-games-title">Detected without Rich Presence</h2>
      <ul className="rows" aria-labelledby="detected-games-title">
        {games.map((game) => (
          <li className="row" key={`${game.application_id}:${game.detected_at}`} data-testid="games-detected-game" data-application-id={game.application_id} data-state={game.state}>
            <span>
              <strong>{game.name}</strong>: {DETECTED_STATE_WORDS[game.state]}
              <br />
              <span className="muted">
                playing since {formatTime(game.started_at)}, from <code>{game.executable}</code>. Switch it off in Settings, Detected games.
              </span>
            </span>
          </li>
        ))}
      </ul>
    </>
  );
}

/**
 * What QA reads of a game's connection, behind the card's one Details: the process, the
 * application (client) id, the connection and its transport, the client library and why, when
 * it connected, and the relay's precise word on the last update.
 */
function GameDetails({ game }: { readonly game: GameView }): ReactNode {
  const entry = useApp((s) => s.data?.presence?.games.find((g) => g.connection_id === game.connection_id));
  const games = useApp((s) => s.data?.games);
  const appName = (id: string): string => games?.find((g) => g.client_id === id)?.application_name ?? `app ${id}`;
  const facts: Fact[] = [
    { label: 'Process ID', value: game.pid ?? 'unknown', testId: 'game-pid' },
    { label: 'Client ID', value: game.client_id, testId: 'game-client-id' },
    {
      label: 'Connection',
      value: (
        <>
          {game.connection_id} · <span data-testid="game-transport">{transportLabel(game.transport)}</span>
        </>
      ),
    },
    { label: 'Client library', value: `${libraryLabel(game.client_library.library)} (${game.client_library.reason})`, testId: 'game-client-library' },
    { label: 'Connected', value: formatDate(game.connected_at) },
    { label: 'Relay', value: entry?.outcome === null || entry?.outcome === undefined ? null : relayOutcomeText(entry.outcome, appName), testId: 'game-relay-detail' },
  ];
  return <Details facts={facts} testId="game-details" />;
}

function GameCard({ game }: { readonly game: GameView }): ReactNode {
  const link = useApp((s) => s.sendAuthorizeRequest);
  const busy = useApp((s) => s.busy.includes(`authorize:${game.client_id}`));
  return (
    <li className="card" data-testid="game-card" data-connection-id={game.connection_id} data-client-id={game.client_id}>
      <h2 className="card-title" data-testid="game-name">
        {game.application_name}
      </h2>
      <div className="game-body">
        <div>
          <FriendsSeePreview game={game} />
        </div>
        <div>
          <GamePresence game={game} />
          {game.link_requests && (
            <div className="card-actions">
              <button
                type="button"
                onClick={() => void link(game.client_id)}
                disabled={busy}
                aria-describedby={`link-help-${game.connection_id}`}
                data-testid="game-link-account"
              >
                Link account
              </button>
              <span className="muted" id={`link-help-${game.connection_id}`}>
                Asks {game.application_name} to connect your account to the game: the game then asks for your permission.
              </span>
            </div>
          )}
        </div>
      </div>
      <GameDetails game={game} />
    </li>
  );
}

/**
 * The game's activity as friends see it: the copy the host's relay sends for this game (its
 * privacy rule applied), not the game's own. A host without a relay shows the game's activity
 * under its own heading.
 */
function FriendsSeePreview({ game }: { readonly game: GameView }): ReactNode {
  const presence = useApp((s) => s.data?.presence ?? null);
  if (game.activity === null) {
    return (
      <>
        <h3>As friends see it</h3>
        <p className="empty" data-testid="game-no-activity">
          No activity set.
        </p>
      </>
    );
  }
  if (presence === null) {
    return (
      <>
        <h3>Activity the game set</h3>
        <ActivityCard activity={game.activity} applicationId={game.client_id} />
      </>
    );
  }
  const seen = presence.games.find((g) => g.connection_id === game.connection_id)?.friends_see ?? null;
  return (
    <>
      <h3>As friends see it</h3>
      {seen === null ? (
        <p className="empty" data-testid="game-hidden-preview">
          Friends see nothing of this game: your privacy settings hide it.
        </p>
      ) : (
        <div data-testid="game-friends-see">
          <ActivityCard activity={seen} applicationId={game.client_id} />
        </div>
      )}
    </>
  );
}

/** What became of the game's last update; one sent but since replaced says what replaced it. */
function lastUpdateText(entry: PresenceView['games'][number] | undefined, presence: PresenceView, games: readonly GameView[], appName: (id: string) => string): string {
  if (entry?.outcome === null || entry?.outcome === undefined) return 'No update yet.';
  const replacement = replacedBy(entry, presence, games);
  if (replacement !== undefined) return `Last update: shown to friends until ${gameLabel(replacement, games)} took its place.`;
  // Shadowed: the game shown instead, by its connection (two games of one app share a name).
  const shadowing = games.find((g) => g.connection_id === entry.outcome?.by_connection_id);
  return `Last update: ${relayOutcomePlayerText(entry.outcome, shadowing === undefined ? appName : () => gameLabel(shadowing, games))}`;
}

const REDACT_LABEL = 'Game and time only';
const DEFAULT_REDACT: readonly RedactableField[] = ['details', 'state', 'party', 'buttons', 'assets'];

type RuleChoice = 'share' | 'hide' | 'redact';

function ruleOf(presence: PresenceView, applicationId: string): RuleChoice {
  return presence.rules[applicationId]?.mode ?? 'share';
}

/**
 * What friends see of this game: whether its activity is the one shown, what became of its
 * last update (sent, held by the rate limit, shadowed by another game, hidden...), and the
 * player's choices for this app (share, hide, redact; pin it so it wins).
 */
function GamePresence({ game }: { readonly game: GameView }): ReactNode {
  const presence = useApp((s) => s.data?.presence ?? null);
  const games = useApp((s) => s.data?.games);
  const update = useApp((s) => s.updatePresence);
  const busy = useApp((s) => s.busy.includes('presence'));
  if (presence === null) return null;
  const entry = presence.games.find((g) => g.connection_id === game.connection_id);
  const appName = (id: string): string => games?.find((g) => g.client_id === id)?.application_name ?? 'another game';
  const rule = ruleOf(presence, game.client_id);
  const pinned = presence.pinned_application_id === game.client_id;
  const setRule = (choice: RuleChoice): void => {
    void update({ rules: { [game.client_id]: choice === 'redact' ? { mode: 'redact', fields: [...DEFAULT_REDACT] } : { mode: choice } } });
  };
  return (
    <div className="game-presence" data-testid="game-presence">
      <p>
        {entry?.shown === true ? (
          <span className="badge verified" data-testid="game-shown">
            Shown to friends
          </span>
        ) : (
          <span className="badge unverified" data-testid="game-not-shown">
            Not shown to friends
          </span>
        )}{' '}
        <span data-testid="game-friends-see-reason">{friendsSeeSentence(game, presence, games ?? [])}</span>
      </p>
      <p className="muted" data-testid="game-relay-outcome">
        {lastUpdateText(entry, presence, games ?? [], appName)}
      </p>
      <div className="inline-form">
        <label>
          Friends see{' '}
          <select value={rule} disabled={busy} onChange={(e) => setRule(e.target.value as RuleChoice)} data-testid="game-privacy-rule">
            <option value="share">Everything</option>
            <option value="redact">{REDACT_LABEL}</option>
            <option value="hide">Nothing</option>
          </select>
        </label>
        <label>
          <input
            type="checkbox"
            checked={pinned}
            disabled={busy}
            onChange={(e) => void update({ pinned_application_id: e.target.checked ? game.client_id : null })}
            data-testid="game-pin"
          />{' '}
          Always show this game when it is running
        </label>
      </div>
    </div>
  );
}
