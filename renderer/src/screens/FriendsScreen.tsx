import { useMemo, useState, type ReactNode } from 'react';
import type { ActivityView, FriendView, GameView, InviteView, JoinRequestView } from '../../../preload/src/contract';
import { joinability } from '../../../common/src/joinable';
import { ActivityCard } from '../components/ActivityCard';
import { Avatar, statusWord } from '../components/Avatar';
import { activityHeading, displayName, formatDate } from '../lib/format';
import { useApp } from '../store/react';
import { FriendConversation } from './FriendConversation';
import { FriendManage } from './FriendManage';
import { AddFriend, BlockedUsers, PendingRequests } from './FriendRequests';

export function FriendsScreen(): ReactNode {
  const friends = useApp((s) => s.data?.friends);
  const joinRequests = useApp((s) => s.data?.join_requests);
  const invites = useApp((s) => s.data?.invites);
  const relationships = useApp((s) => s.data?.relationships);
  if (friends === undefined || joinRequests === undefined || invites === undefined || relationships === undefined) return null;
  const { online, offline } = groupFriends(friends);
  return (
    <section aria-labelledby="friends-title">
      <h1 id="friends-title">Friends</h1>
      <AddFriend />
      {(joinRequests.length > 0 || invites.length > 0) && (
        <section aria-labelledby="incoming-title" className="incoming">
          <h2 id="incoming-title">Incoming</h2>
          <ul className="rows">
            {joinRequests.map((request) => (
              <JoinRequestRow key={request.id} request={request} />
            ))}
            {invites.map((invite) => (
              <InviteRow key={invite.id} invite={invite} />
            ))}
          </ul>
        </section>
      )}
      <PendingRequests relationships={relationships} />
      {friends.length === 0 ? (
        <p className="empty" data-testid="friends-empty">
          No friends yet, or you are not signed in.
        </p>
      ) : (
        <>
          <FriendGroup id="online" title="Online" friends={online} />
          <FriendGroup id="offline" title="Offline" friends={offline} />
        </>
      )}
      <BlockedUsers relationships={relationships} />
    </section>
  );
}

/** Online (online, idle, do not disturb) and offline friends, each by name. */
export function groupFriends(friends: readonly FriendView[]): { readonly online: FriendView[]; readonly offline: FriendView[] } {
  const byName = (a: FriendView, b: FriendView): number => displayName(a.user).localeCompare(displayName(b.user));
  const online = friends.filter((friend) => friend.presence.status !== 'offline').sort(byName);
  const offline = friends.filter((friend) => friend.presence.status === 'offline').sort(byName);
  return { online, offline };
}

function FriendGroup({ id, title, friends }: { readonly id: string; readonly title: string; readonly friends: readonly FriendView[] }): ReactNode {
  if (friends.length === 0) return null;
  return (
    <section aria-labelledby={`friends-${id}-title`} className="friend-group" data-testid={`friends-${id}`}>
      <h2 id={`friends-${id}-title`} className="group-title">
        {title} — <span data-testid={`friends-${id}-count`}>{friends.length}</span>
      </h2>
      <ul className="friend-list">
        {friends.map((friend) => (
          <FriendRow key={friend.user.id} friend={friend} />
        ))}
      </ul>
    </section>
  );
}

/** The player's own games a friend can be invited to (a joinable activity, by the platform's rule). */
function useJoinableGames(): readonly GameView[] {
  const games = useApp((s) => s.data?.games);
  return useMemo(
    () => (games ?? []).filter((game) => game.activity !== null && joinability({ ...game.activity, application_id: game.client_id }) !== null),
    [games],
  );
}

function FriendRow({ friend }: { readonly friend: FriendView }): ReactNode {
  const status = friend.presence.status;
  const playing = friend.presence.activities[0];
  const conversation = useApp((s) => s.data?.conversations.find((c) => c.user_id === friend.user.id));
  const [open, setOpen] = useState(false);
  const count = conversation?.messages.length ?? 0;
  return (
    <li className="friend" data-testid="friend-row" data-user-id={friend.user.id} data-status={status}>
      <div className="friend-head">
        <Avatar user={friend.user} status={status} />
        <div className="friend-names">
          <span className="friend-name" data-testid="friend-name">
            {displayName(friend.user)}
          </span>{' '}
          <span className="muted">@{friend.user.username}</span>
          <div className="muted friend-line" data-testid="friend-status">
            {statusWord(status)}
            {playing !== undefined && <> · {activityHeading(playing)}</>}
          </div>
        </div>
        <span className="row-actions">
          <button type="button" aria-expanded={open} onClick={() => setOpen(!open)} data-testid="friend-messages">
            Messages{count > 0 ? ` (${count})` : ''}
          </button>
        </span>
        <InviteButtons friend={friend} />
        <FriendManage user={friend.user} />
      </div>
      {open && <FriendConversation friend={friend} conversation={conversation} />}
      {friend.presence.activities.map((activity, index) => (
        <FriendActivity key={index} friend={friend} activity={activity} />
      ))}
    </li>
  );
}

/** "Invite to <game>" for each of the player's joinable games, to a friend who is online. */
function InviteButtons({ friend }: { readonly friend: FriendView }): ReactNode {
  const games = useJoinableGames();
  const invite = useApp((s) => s.sendInvite);
  const busy = useApp((s) => s.busy.includes(`send-invite:${friend.user.id}`));
  if (friend.presence.status === 'offline' || games.length === 0) return null;
  return (
    <span className="row-actions">
      {games.map((game) => (
        <button key={game.connection_id} type="button" disabled={busy} onClick={() => void invite(friend.user.id, game.client_id)} data-testid="friend-invite">
          Invite to {game.application_name}
        </button>
      ))}
    </span>
  );
}

function FriendActivity({ friend, activity }: { readonly friend: FriendView; readonly activity: ActivityView }): ReactNode {
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

function JoinRequestRow({ request }: { readonly request: JoinRequestView }): ReactNode {
  const accept = useApp((s) => s.acceptJoinRequest);
  const decline = useApp((s) => s.declineJoinRequest);
  const busy = useApp((s) => s.busy.includes(`join-request:${request.id}`));
  return (
    <li className="row" data-testid="join-request-row" data-id={request.id}>
      <span>
        <strong>{displayName(request.user)}</strong> asks to join your game <span className="muted">(app {request.application_id}, {formatDate(request.received_at)})</span>
      </span>
      <span className="row-actions">
        <button type="button" className="primary" disabled={busy} onClick={() => void accept(request.id)} data-testid="join-request-accept">
          Accept
        </button>
        <button type="button" disabled={busy} onClick={() => void decline(request.id)} data-testid="join-request-decline">
          Decline
        </button>
      </span>
    </li>
  );
}

function InviteRow({ invite }: { readonly invite: InviteView }): ReactNode {
  const accept = useApp((s) => s.acceptInvite);
  const decline = useApp((s) => s.declineInvite);
  const busy = useApp((s) => s.busy.includes(`invite:${invite.id}`));
  return (
    <li className="row" data-testid="invite-row" data-id={invite.id}>
      <span>
        <strong>{displayName(invite.user)}</strong> invites you to {invite.activity?.name ?? 'a game'}{' '}
        <span className="muted">
          (app {invite.application_id}, {formatDate(invite.received_at)})
        </span>
        {!invite.valid && <span className="badge unverified"> expired</span>}
        {invite.content !== '' && (
          <q className="invite-message" data-testid="invite-message">
            {invite.content}
          </q>
        )}
      </span>
      <span className="row-actions">
        <button type="button" className="primary" disabled={busy || !invite.valid} onClick={() => void accept(invite.id)} data-testid="invite-accept">
          Accept
        </button>
        <button type="button" disabled={busy} onClick={() => void decline(invite.id)} data-testid="invite-decline">
          Decline
        </button>
      </span>
    </li>
  );
}
