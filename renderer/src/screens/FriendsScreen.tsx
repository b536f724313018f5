import type { ReactNode } from 'react';
import type { FriendView, InviteView, JoinRequestView } from '../../../preload/src/contract';
import { Details } from '../components/Details';
import { knownAppName } from '../lib/app-names';
import { displayName, formatDate, formatTime } from '../lib/format';
import { selectTimedOutInviteIds } from '../store/app-store';
import { useApp } from '../store/react';
import { FriendRow } from './FriendRow';
import { FriendsActiveNow } from './FriendsActiveNow';
import { AddFriend, BlockedUsers, PendingRequests } from './FriendRequests';

export function FriendsScreen(): ReactNode {
  const friends = useApp((s) => s.data?.friends);
  const joinRequests = useApp((s) => s.data?.join_requests);
  const allInvites = useApp((s) => s.data?.invites);
  // Past their expiry they leave the list (the store's clock says when).
  const timedOut = useApp(selectTimedOutInviteIds);
  const relationships = useApp((s) => s.data?.relationships);
  if (friends === undefined || joinRequests === undefined || allInvites === undefined || relationships === undefined) return null;
  const gone = new Set(timedOut.split(' '));
  const invites = allInvites.filter((invite) => !gone.has(invite.id));
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
        <div className="friends-columns">
          <FriendsActiveNow friends={online} />
          <div className="friends-lists">
            <FriendGroup id="online" title="Online" friends={online} />
            <FriendGroup id="offline" title="Offline" friends={offline} />
          </div>
        </div>
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

function JoinRequestRow({ request }: { readonly request: JoinRequestView }): ReactNode {
  const accept = useApp((s) => s.acceptJoinRequest);
  const decline = useApp((s) => s.declineJoinRequest);
  const busy = useApp((s) => s.busy.includes(`join-request:${request.id}`));
  const game = useApp((s) => knownAppName(s.data, request.application_id));
  return (
    <li className="row" data-testid="join-request-row" data-id={request.id}>
      <span>
        <strong>{displayName(request.user)}</strong> wants to join you in {game ?? 'your game'}{' '}
        <span className="muted">· {formatTime(request.received_at)}</span>
        <Details testId="join-request-details" facts={[{ label: 'Application ID', value: request.application_id, testId: 'join-request-app-id' }, { label: 'Received', value: formatDate(request.received_at) }]} />
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
  const game = useApp((s) => knownAppName(s.data, invite.application_id));
  return (
    <li className="row" data-testid="invite-row" data-id={invite.id}>
      <span>
        <strong>{displayName(invite.user)}</strong> invites you to play {game ?? 'a game'}{' '}
        <span className="muted">· {formatTime(invite.received_at)}</span>
        {!invite.valid && <span className="badge unverified"> expired</span>}
        {invite.content !== '' && (
          <q className="invite-message" data-testid="invite-message">
            {invite.content}
          </q>
        )}
        <Details
          testId="invite-details"
          facts={[
            { label: 'Application ID', value: invite.application_id, testId: 'invite-app-id' },
            { label: 'Received', value: formatDate(invite.received_at) },
            { label: 'Expires', value: formatDate(invite.expires_at) },
          ]}
        />
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
