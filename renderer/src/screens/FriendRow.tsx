import type { ReactNode } from 'react';
import type { FriendView } from '../../../preload/src/contract';
import { Avatar, statusWord } from '../components/Avatar';
import { Icon } from '../components/Icon';
import { activityHeading, displayName } from '../lib/format';
import { useApp } from '../store/react';
import { FriendConversation } from './FriendConversation';
import { InviteButtons } from './FriendInvite';
import { FriendManage } from './FriendManage';
import { FriendProfileButton } from './FriendProfile';

/**
 * One friend, one row, as the client lists them: avatar with status dot, name, @username and what
 * they play on one line each (cut with an ellipsis, never wrapped), then the actions. The actions
 * are icon buttons named for what they do; their words show beside the icons only where the row
 * has room (a container query in styles.css). What they play in detail is under Active now.
 */
export function FriendRow({ friend }: { readonly friend: FriendView }): ReactNode {
  const status = friend.presence.status;
  const playing = friend.presence.activities[0];
  const conversation = useApp((s) => s.data?.conversations.find((c) => c.user_id === friend.user.id));
  const open = useApp((s) => s.openConversations.includes(friend.user.id));
  const setConversationOpen = useApp((s) => s.setConversationOpen);
  const setOpen = (value: boolean): void => setConversationOpen(friend.user.id, value);
  // Unread messages, not all of them: what the player has not seen yet.
  const unread = conversation?.unread ?? 0;
  const name = displayName(friend.user);
  return (
    <li className={unread > 0 ? 'friend friend-unread' : 'friend'} data-testid="friend-row" data-user-id={friend.user.id} data-status={status}>
      <div className="friend-head">
        <FriendProfileButton friend={friend} onMessage={() => setOpen(true)}>
          <Avatar user={friend.user} status={status} />
          <span className="friend-names">
            <span className="friend-title">
              <span className="friend-name" data-testid="friend-name">
                {name}
              </span>{' '}
              <UnreadMark count={unread} />
              <span className="muted friend-username">@{friend.user.username}</span>
            </span>
            <span className="muted friend-line" data-testid="friend-status">
              {statusWord(status)}
              {playing !== undefined && <> · {activityHeading(playing)}</>}
            </span>
          </span>
        </FriendProfileButton>
        <span className="row-actions friend-actions">
          <button
            type="button"
            className="icon-button"
            aria-expanded={open}
            aria-label={`Messages with ${name}${unread > 0 ? `, ${unread} unread` : ''}`}
            title={`Messages with ${name}`}
            onClick={() => setOpen(!open)}
            data-testid="friend-messages"
          >
            <Icon name="message" />
            <span className="action-label">Messages</span>
            {unread > 0 && <span className="action-count"> ({unread})</span>}
          </button>
          <InviteButtons friend={friend} />
          <FriendManage user={friend.user} />
        </span>
      </div>
      {open && <FriendConversation friend={friend} conversation={conversation} />}
    </li>
  );
}

/** The friend's messages the player has not read, beside their name (the client's unread pill). */
function UnreadMark({ count }: { readonly count: number }): ReactNode {
  if (count === 0) return null;
  return (
    <span className="unread-mark" data-testid="friend-unread" title={`${count} unread ${count === 1 ? 'message' : 'messages'}`}>
      {count}
      <span className="visually-hidden"> unread {count === 1 ? 'message' : 'messages'}</span>
    </span>
  );
}
