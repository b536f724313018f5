import { useState, type FormEvent, type ReactNode } from 'react';
import type { RelationshipView } from '../../../preload/src/contract';
import { Avatar } from '../components/Avatar';
import { displayName } from '../lib/format';
import { matchesFriendSearch } from '../lib/friend-search';
import { useApp } from '../store/react';

const byName = (a: RelationshipView, b: RelationshipView): number => displayName(a.user).localeCompare(displayName(b.user));

/** A friend request by username, as the desktop client's Add Friend. */
export function AddFriend(): ReactNode {
  const send = useApp((s) => s.sendFriendRequest);
  const busy = useApp((s) => s.busy.includes('friend-request'));
  const [text, setText] = useState('');
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    if (text.trim() === '') return;
    void send(text).then((sent) => sent && setText(''));
  };
  return (
    <section aria-labelledby="add-friend-title" className="add-friend">
      <h2 id="add-friend-title">Add friend</h2>
      <form className="inline-form" onSubmit={submit}>
        <label htmlFor="add-friend-username">Their username</label>
        <input
          id="add-friend-username"
          value={text}
          maxLength={40}
          autoComplete="off"
          spellCheck={false}
          onChange={(e) => setText(e.target.value)}
          placeholder="username"
          data-testid="add-friend-input"
        />
        <button type="submit" className="primary" disabled={busy || text.trim() === ''} data-testid="add-friend-send">
          Send friend request
        </button>
      </form>
    </section>
  );
}

/** What a tab shows when the search matches no one (the client's empty search). */
export function NoSearchMatch(): ReactNode {
  return (
    <p className="empty" role="status" data-testid="friends-search-empty">
      No one with that name
    </p>
  );
}

/** Those of `relationships` of a kind whose name matches the search, by name. */
function ofType(relationships: readonly RelationshipView[], types: readonly RelationshipView['type'][], query: string): RelationshipView[] {
  return relationships.filter((r) => types.includes(r.type) && matchesFriendSearch(r.user, query)).sort(byName);
}

/**
 * The Pending tab: friend requests both ways, with their count: incoming ones (first) with
 * Accept and Ignore, the player's own with Cancel.
 */
export function PendingRequests({ relationships, query = '' }: { readonly relationships: readonly RelationshipView[]; readonly query?: string }): ReactNode {
  const shown = [...ofType(relationships, ['incoming'], query), ...ofType(relationships, ['outgoing'], query)];
  if (shown.length === 0) return <EmptyTab query={query} testId="friends-pending-empty" text="No friend requests waiting. Add a friend by their username above." />;
  return (
    <section aria-labelledby="pending-title" className="friend-group" data-testid="friends-pending">
      <h2 id="pending-title" className="group-title">
        Pending — <span data-testid="pending-count">{shown.length}</span>
      </h2>
      <ul className="rows">
        {shown.map((relationship) => (
          <RelationshipRow key={relationship.user.id} relationship={relationship} />
        ))}
      </ul>
    </section>
  );
}

/** The Blocked tab: the users the player blocked, with Unblock. */
export function BlockedUsers({ relationships, query = '' }: { readonly relationships: readonly RelationshipView[]; readonly query?: string }): ReactNode {
  const blocked = ofType(relationships, ['blocked'], query);
  if (blocked.length === 0) return <EmptyTab query={query} testId="friends-blocked-empty" text="You have not blocked anyone." />;
  return (
    <section aria-labelledby="blocked-title" className="friend-group" data-testid="friends-blocked">
      <h2 id="blocked-title" className="group-title">
        Blocked — <span data-testid="blocked-count">{blocked.length}</span>
      </h2>
      <ul className="rows">
        {blocked.map((relationship) => (
          <RelationshipRow key={relationship.user.id} relationship={relationship} />
        ))}
      </ul>
    </section>
  );
}

/** A tab with no one to list: "No one with that name" while searching, else what the tab is for. */
export function EmptyTab({ query, testId, text }: { readonly query: string; readonly testId: string; readonly text: string }): ReactNode {
  if (query.trim() !== '') return <NoSearchMatch />;
  return (
    <p className="empty" data-testid={testId}>
      {text}
    </p>
  );
}

const WORDS: Readonly<Record<RelationshipView['type'], string>> = {
  incoming: 'Incoming friend request',
  outgoing: 'Outgoing friend request',
  blocked: 'Blocked',
};

function RelationshipRow({ relationship }: { readonly relationship: RelationshipView }): ReactNode {
  const { user, type } = relationship;
  const change = useApp((s) => s.changeRelationship);
  const busy = useApp((s) => s.busy.includes(`relationship:${user.id}`));
  const button = (action: 'accept' | 'ignore' | 'cancel' | 'unblock', label: string, primary = false): ReactNode => (
    <button type="button" className={primary ? 'primary' : undefined} disabled={busy} onClick={() => void change(user.id, action)} data-testid={`relationship-${action}`}>
      {label}
    </button>
  );
  return (
    <li className="row" data-testid="relationship-row" data-user-id={user.id} data-type={type}>
      <span className="relationship-who">
        <Avatar user={user} size={32} />
        <span>
          <strong>{displayName(user)}</strong> <span className="muted">@{user.username}</span>
          <span className="muted relationship-kind"> · {WORDS[type]}</span>
        </span>
      </span>
      <span className="row-actions">
        {type === 'incoming' && (
          <>
            {button('accept', 'Accept', true)}
            {button('ignore', 'Ignore')}
          </>
        )}
        {type === 'outgoing' && button('cancel', 'Cancel')}
        {type === 'blocked' && button('unblock', 'Unblock')}
      </span>
    </li>
  );
}
