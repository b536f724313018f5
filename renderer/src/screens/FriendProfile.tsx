import { useCallback, useId, useRef, useState, type ReactNode, type RefObject } from 'react';
import { createPortal } from 'react-dom';
import { identityColour } from '../../../common/src/identity-colour';
import type { FriendView } from '../../../preload/src/contract';
import { Avatar, statusWord } from '../components/Avatar';
import { Icon } from '../components/Icon';
import { displayName } from '../lib/format';
import { FriendActivity } from './FriendsActiveNow';
import { InviteButtons } from './FriendInvite';
import { usePopout } from './use-popout';

/**
 * A friend's profile popout, as the client opens it from a friend's name: their avatar with
 * status, name and @username, what they play (the activity cards, with Join / Ask to join where
 * the platform allows it), Message, and Invite to each of the player's joinable games while the
 * friend is online. A non-modal dialog beside the trigger (in a portal, so the row's layout
 * containment does not hold it): Escape, a click outside or focus leaving it closes it.
 */
export function FriendProfile({
  friend,
  triggerRef,
  onClose,
  onMessage,
}: {
  readonly friend: FriendView;
  readonly triggerRef: RefObject<HTMLElement | null>;
  readonly onClose: () => void;
  /** Opens the conversation with the friend (the popout closes; focus goes to its message box). */
  readonly onMessage: () => void;
}): ReactNode {
  const { popoutRef, placement, returnFocusTo } = usePopout(triggerRef, onClose);
  const titleId = useId();
  const name = displayName(friend.user);
  const { status, activities } = friend.presence;
  const message = (): void => {
    returnFocusTo(() => document.getElementById(`dm-${friend.user.id}`) ?? triggerRef.current);
    onMessage();
    onClose();
  };
  return createPortal(
    <div
      ref={popoutRef}
      role="dialog"
      aria-labelledby={titleId}
      tabIndex={-1}
      className="profile-popout"
      style={{ top: placement?.top ?? 0, left: placement?.left ?? 0, opacity: placement === null ? 0 : 1 }}
      data-testid="friend-profile"
      data-user-id={friend.user.id}
    >
      <div className="profile-banner" style={{ background: identityColour(friend.user.id) }} />
      <div className="profile-body">
        <span className="profile-avatar">
          <Avatar user={friend.user} status={status} size={72} />
        </span>
        <h2 id={titleId} className="profile-name" data-testid="profile-name">
          {name}
        </h2>
        <div className="muted profile-username">@{friend.user.username}</div>
        <div className="profile-status" data-testid="profile-status">
          {statusWord(status)}
        </div>
        {activities.length > 0 && (
          <section className="profile-activities" aria-label={`What ${name} is doing`}>
            {activities.map((activity, index) => (
              <FriendActivity key={index} friend={friend} activity={activity} />
            ))}
          </section>
        )}
        <div className="profile-actions">
          <button type="button" className="primary icon-button" onClick={message} data-testid="profile-message">
            <Icon name="message" /> Message
          </button>
          <InviteButtons friend={friend} variant="text" />
        </div>
      </div>
    </div>,
    document.body,
  );
}

/**
 * The part of a friend's row that opens their profile popout (their avatar and names): a button
 * that says it opens a dialog, and the popout while it is open.
 */
export function FriendProfileButton({ friend, onMessage, children }: { readonly friend: FriendView; readonly onMessage: () => void; readonly children: ReactNode }): ReactNode {
  const triggerRef = useRef<HTMLButtonElement>(null);
  const [open, setOpen] = useState(false);
  const close = useCallback(() => setOpen(false), []);
  return (
    <>
      <button
        ref={triggerRef}
        type="button"
        className="friend-profile-trigger"
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
        data-testid="friend-profile-open"
      >
        {children}
      </button>
      {open && <FriendProfile friend={friend} triggerRef={triggerRef} onClose={close} onMessage={onMessage} />}
    </>
  );
}
