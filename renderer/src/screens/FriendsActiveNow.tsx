import type { ReactNode } from 'react';
import type { ActivityView, FriendView } from '../../../preload/src/contract';
import { joinability } from '../../../common/src/joinable';
import { ActivityCard } from '../components/ActivityCard';
import { Avatar } from '../components/Avatar';
import { displayName } from '../lib/format';
import { useApp } from '../store/react';

/**
 * "Active now", as the client keeps it beside the friends list: each friend who plays, with the
 * game's card (its pictures, party, time) and Join or Ask to join when the platform allows it.
 * The rows of the list say what a friend plays in a line; the cards live here, so a row stays one row.
 */
export function FriendsActiveNow({ friends }: { readonly friends: readonly FriendView[] }): ReactNode {
  const playing = friends.filter((friend) => friend.presence.status !== 'offline' && friend.presence.activities.length > 0);
  if (playing.length === 0) return null;
  return (
    <section aria-labelledby="friends-active-title" className="friend-group friends-active" data-testid="friends-active">
      <h2 id="friends-active-title" className="group-title">
        Active now
      </h2>
      <ul className="active-now">
        {playing.map((friend) => (
          <li key={friend.user.id} className="active-friend" data-testid="active-friend" data-user-id={friend.user.id}>
            <div className="active-friend-head">
              <Avatar user={friend.user} status={friend.presence.status} size={24} />
              <span className="friend-name">{displayName(friend.user)}</span> <span className="muted friend-username">@{friend.user.username}</span>
            </div>
            {friend.presence.activities.map((activity, index) => (
              <FriendActivity key={index} friend={friend} activity={activity} />
            ))}
          </li>
        ))}
      </ul>
    </section>
  );
}

export function FriendActivity({ friend, activity }: { readonly friend: FriendView; readonly activity: ActivityView }): ReactNode {
  const requestToJoin = useApp((s) => s.requestToJoin);
  const busy = useApp((s) => s.busy.includes(`join:${friend.user.id}`));
  const action = joinability(activity);
  return (
    <ActivityCard
      activity={activity}
      footer={
        action !== null && (
          <div className="card-actions">
            <button
              type="button"
              disabled={busy}
              onClick={() => void requestToJoin(friend.user.id, activity.application_id ?? null)}
              data-testid={action === 'join' ? 'friend-join' : 'friend-ask-to-join'}
            >
              {action === 'join' ? 'Join' : 'Ask to join'}
            </button>
          </div>
        )
      }
    />
  );
}
