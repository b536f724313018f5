import { useMemo, type ReactNode } from 'react';
import type { FriendView, GameView } from '../../../preload/src/contract';
import { joinability } from '../../../common/src/joinable';
import { Icon } from '../components/Icon';
import { displayName } from '../lib/format';
import { useApp } from '../store/react';

/** The player's own games a friend can be invited to (a joinable activity, by the platform's rule). */
function useJoinableGames(): readonly GameView[] {
  const games = useApp((s) => s.data?.games);
  return useMemo(
    () => (games ?? []).filter((game) => game.activity !== null && joinability({ ...game.activity, application_id: game.client_id }) !== null),
    [games],
  );
}

/**
 * An "Invite to <game>" button for each of the player's joinable games, to a friend who is
 * online: in a row an icon button (its words in `aria-label`, shown beside the icon where the
 * row has room), in the profile popout a button in words.
 */
export function InviteButtons({ friend, variant = 'icon' }: { readonly friend: FriendView; readonly variant?: 'icon' | 'text' }): ReactNode {
  const games = useJoinableGames();
  const invite = useApp((s) => s.sendInvite);
  const busy = useApp((s) => s.busy.includes(`send-invite:${friend.user.id}`));
  if (friend.presence.status === 'offline' || games.length === 0) return null;
  const name = displayName(friend.user);
  return (
    <>
      {games.map((game) =>
        variant === 'icon' ? (
          <button
            key={game.connection_id}
            type="button"
            className="icon-button"
            disabled={busy}
            aria-label={`Invite ${name} to ${game.application_name}`}
            title={`Invite ${name} to ${game.application_name}`}
            onClick={() => void invite(friend.user.id, game.client_id)}
            data-testid="friend-invite"
          >
            <Icon name="invite" />
            <span className="action-label">Invite</span>
          </button>
        ) : (
          <button key={game.connection_id} type="button" className="icon-button" disabled={busy} onClick={() => void invite(friend.user.id, game.client_id)} data-testid="profile-invite">
            <Icon name="invite" /> Invite to {game.application_name}
          </button>
        ),
      )}
    </>
  );
}
