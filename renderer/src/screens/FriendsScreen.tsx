import type { ReactNode } from 'react';
import type { FriendView, InviteView, JoinRequestView } from '../../../preload/src/contract';
import { joinability } from '../../../common/src/joinable';
import { ActivityCard } from '../components/ActivityCard';
import { displayName, formatDate } from '../lib/format';
import { useApp } from '../store/react';

export function FriendsScreen(): ReactNode {
  const friends = useApp((s) => s.data?.friends);
  const joinRequests = useApp((s) => s.data?.join_requests);
  const invites = useApp((s) => s.data?.invites);
  if (friends === undefined || joinRequests === undefined || invites === undefined) return null;
  const visibleInvites = invites;
  return (
    <section aria-labelledby="friends-title">
      <h1 id="friends-title">Friends</h1>
      {(joinRequests.length > 0 || visibleInvites.length > 0) && (
        <section aria-labelledby="incoming-title" className="incoming">
          <h2 id="incoming-title">Incoming</h2>
          <ul className="rows">
            {joinRequests.map((request) => (
              <JoinRequestRow key={request.id} request={request} />
            ))}
            {visibleInvites.map((invite) => (
              <InviteRow key={invite.id} invite={invite} />
            ))}
          </ul>
        </section>
      )}
      {friends.length === 0 ? (
        <p className="empty" data-testid="friends-empty">
          No friends yet, or you are not signed in.
        </p>
      ) : (
        <ul className="cards">
          {friends.map((friend) => (
            <FriendRow key={friend.user.id} friend={friend} />
          ))}
        </ul>
      )}
    </section>
  );
}

function FriendRow({ friend }: { readonly friend: FriendView }): ReactNode {
  const requestToJoin = useApp((s) => s.requestToJoin);
  const busy = useApp((s) => s.busy.includes(`join:${friend.user.id}`));
  const status = friend.presence.status;
  return (
    <li className="card" data-testid="friend-row" data-user-id={friend.user.id}>
      <h2 className="card-title">
        <span className={`status-dot status-${/^[a-z]+$/.test(status) ? status : 'unknown'}`} aria-hidden="true" />
        <span data-testid="friend-name">{displayName(friend.user)}</span> <span className="muted">@{friend.user.username}</span>
      </h2>
      <div className="muted" data-testid="friend-status">
        {status}
      </div>
      {friend.presence.activities.length === 0 ? (
        <p className="empty">No activity.</p>
      ) : (
        friend.presence.activities.map((activity, index) => {
          const action = joinability(activity);
          return (
            <ActivityCard
              key={index}
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
        })
      )}
    </li>
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
