import type { ReactNode } from 'react';
import type { GameView } from '../../../preload/src/contract';
import { ActivityCard } from '../components/ActivityCard';
import { formatDate } from '../lib/format';
import { useApp } from '../store/react';

export function GamesScreen(): ReactNode {
  const games = useApp((s) => s.data?.games);
  if (games === undefined) return null;
  return (
    <section aria-labelledby="games-title">
      <h1 id="games-title">Games</h1>
      {games.length === 0 ? (
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
    </section>
  );
}

function GameCard({ game }: { readonly game: GameView }): ReactNode {
  const link = useApp((s) => s.sendAuthorizeRequest);
  const busy = useApp((s) => s.busy.includes(`authorize:${game.client_id}`));
  return (
    <li className="card" data-testid="game-card" data-connection-id={game.connection_id} data-client-id={game.client_id}>
      <h2 className="card-title" data-testid="game-name">
        {game.application_name}
      </h2>
      <dl className="facts">
        <dt>Process ID</dt>
        <dd data-testid="game-pid">{game.pid ?? 'unknown'}</dd>
        <dt>Client ID</dt>
        <dd data-testid="game-client-id">{game.client_id}</dd>
        <dt>Connection</dt>
        <dd>{game.connection_id}</dd>
        <dt>Connected</dt>
        <dd>{formatDate(game.connected_at)}</dd>
      </dl>
      <h3>As friends see it</h3>
      {game.activity === null ? (
        <p className="empty" data-testid="game-no-activity">
          No activity set.
        </p>
      ) : (
        <ActivityCard activity={game.activity} />
      )}
      <div className="card-actions">
        <button type="button" onClick={() => void link(game.client_id)} disabled={busy} data-testid="game-link-account">
          Link account
        </button>
      </div>
    </li>
  );
}
