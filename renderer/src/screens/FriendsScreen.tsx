import { useState, type ReactNode } from 'react';
import type { FriendView, InviteView, JoinRequestView, RelationshipView } from '../../../preload/src/contract';
import { Details } from '../components/Details';
import { knownAppName } from '../lib/app-names';
import { displayName, formatDate, formatTime } from '../lib/format';
import { matchesFriendSearch } from '../lib/friend-search';
import { selectTimedOutInviteIds } from '../store/app-store';
import { useApp } from '../store/react';
import { FriendRow } from './FriendRow';
import { FriendsActiveNow } from './FriendsActiveNow';
import { AddFriend, BlockedUsers, EmptyTab, NoSearchMatch, PendingRequests } from './FriendRequests';
import { FriendsTabs, panelId, tabId, type FriendsTab } from './FriendsTabs';

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
      <FriendsBody friends={friends} relationships={relationships} />
    </section>
  );
}

/**
 * The tabs, the search and what the selected tab lists, with Active now beside it on wide
 * windows (above the Online tab's list on narrow ones). It opens on Online when a friend is
 * online, else on All (a list of no one helps no one) **(ours)**; the player's choice then stays.
 */
function FriendsBody({ friends, relationships }: { readonly friends: readonly FriendView[]; readonly relationships: readonly RelationshipView[] }): ReactNode {
  const { online } = groupFriends(friends);
  const focus = useApp((s) => s.messageFocus);
  // A game opened a conversation (OpenMessageInDiscord): the tab must list that friend.
  const listsFocused = (selected: FriendsTab): boolean => focus === null || selected === 'all' || (selected === 'online' && online.some((f) => f.user.id === focus.userId));
  const [tab, setTab] = useState<FriendsTab>(() => (online.length > 0 && listsFocused('online') ? 'online' : 'all'));
  const [query, setQuery] = useState('');
  const [seenFocus, setSeenFocus] = useState(focus?.at ?? null);
  if (focus !== null && focus.at !== seenFocus) {
    setSeenFocus(focus.at);
    if (!listsFocused(tab)) setTab('all');
    setQuery('');
  }
  const pendingIncoming = relationships.filter((r) => r.type === 'incoming').length;
  return (
    <>
      <div className="friends-bar">
        <FriendsTabs selected={tab} onSelect={setTab} pendingIncoming={pendingIncoming} />
        <input
          type="search"
          className="friends-search"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          placeholder="Search"
          aria-label="Search friends by name"
          autoComplete="off"
          spellCheck={false}
          maxLength={40}
          data-testid="friends-search"
        />
      </div>
      <div className="friends-columns" data-tab={tab}>
        <div role="tabpanel" id={panelId(tab)} aria-labelledby={tabId(tab)} className="friends-panel" data-testid="friends-panel">
          <TabContent tab={tab} friends={friends} relationships={relationships} query={query} />
        </div>
        <FriendsActiveNow friends={online} />
      </div>
    </>
  );
}

function TabContent({ tab, friends, relationships, query }: { readonly tab: FriendsTab; readonly friends: readonly FriendView[]; readonly relationships: readonly RelationshipView[]; readonly query: string }): ReactNode {
  if (tab === 'pending') return <PendingRequests relationships={relationships} query={query} />;
  if (tab === 'blocked') return <BlockedUsers relationships={relationships} query={query} />;
  const found = friends.filter((friend) => matchesFriendSearch(friend.user, query));
  if (tab === 'online') {
    const { online } = groupFriends(found);
    if (online.length === 0) return <EmptyTab query={query} testId="friends-online-empty" text="No one is online right now. Everyone is under All." />;
    return <FriendGroup id="online" title="Online" friends={online} />;
  }
  if (friends.length === 0) return <EmptyTab query="" testId="friends-empty" text="No friends yet, or you are not signed in." />;
  if (found.length === 0) return <NoSearchMatch />;
  return <FriendGroup id="all" title="All friends" friends={[...found].sort(byName)} />;
}

const byName = (a: FriendView, b: FriendView): number => displayName(a.user).localeCompare(displayName(b.user));

/** Online (online, idle, do not disturb) and offline friends, each by name. */
export function groupFriends(friends: readonly FriendView[]): { readonly online: FriendView[]; readonly offline: FriendView[] } {
  const online = friends.filter((friend) => friend.presence.status !== 'offline').sort(byName);
  const offline = friends.filter((friend) => friend.presence.status === 'offline').sort(byName);
  return { online, offline };
}

function FriendGroup({ id, title, friends }: { readonly id: string; readonly title: string; readonly friends: readonly FriendView[] }): ReactNode {
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
