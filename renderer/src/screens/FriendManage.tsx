import { useId, useState, type ReactNode } from 'react';
import type { UserView } from '../../../preload/src/contract';
import { Icon } from '../components/Icon';
import { displayName } from '../lib/format';
import { useApp } from '../store/react';
import { ConfirmDialog } from './ConfirmDialog';

type Asking = 'remove' | 'block' | null;

/**
 * A friend's "More" options: Remove friend and Block, each asked again before it is done (as
 * the desktop client asks). The outcome comes back from the platform: the friend leaves the
 * list, and a blocked one shows under Blocked.
 */
export function FriendManage({ user }: { readonly user: UserView }): ReactNode {
  const change = useApp((s) => s.changeRelationship);
  const busy = useApp((s) => s.busy.includes(`relationship:${user.id}`));
  const [open, setOpen] = useState(false);
  const [asking, setAsking] = useState<Asking>(null);
  const optionsId = useId();
  const name = displayName(user);
  const act = (action: 'remove' | 'block'): void => {
    void change(user.id, action).then((done) => {
      if (done) setAsking(null);
    });
  };
  return (
    <span className="friend-manage" onKeyDown={(event) => event.key === 'Escape' && asking === null && setOpen(false)}>
      <button
        type="button"
        aria-expanded={open}
        aria-controls={optionsId}
        aria-label={`More for ${name}`}
        title={`More for ${name}`}
        className="icon-button"
        onClick={() => setOpen(!open)}
        data-testid="friend-more"
      >
        <Icon name="more" />
        <span className="action-label">More</span>
      </button>
      {open && (
        <div className="friend-manage-options" id={optionsId}>
          <button type="button" className="danger" disabled={busy} onClick={() => setAsking('remove')} data-testid="friend-remove">
            Remove friend
          </button>
          <button type="button" className="danger" disabled={busy} onClick={() => setAsking('block')} data-testid="friend-block">
            Block
          </button>
        </div>
      )}
      {asking === 'remove' && (
        <ConfirmDialog title={`Remove ${name}?`} confirm="Remove friend" busy={busy} onConfirm={() => act('remove')} onCancel={() => setAsking(null)}>
          {name} (@{user.username}) will no longer be your friend, here and on the platform. You can send them a friend request again later.
        </ConfirmDialog>
      )}
      {asking === 'block' && (
        <ConfirmDialog title={`Block ${name}?`} confirm="Block" busy={busy} onConfirm={() => act('block')} onCancel={() => setAsking(null)}>
          Blocking {name} (@{user.username}) removes them from your friends and stops friend requests between you. They show under Blocked, where you can unblock them.
        </ConfirmDialog>
      )}
    </span>
  );
}
