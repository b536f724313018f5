import { useCallback, useLayoutEffect, useRef, useState, type RefObject } from 'react';

/** Within this many pixels of the end, the list counts as at the newest message. */
const AT_END_PX = 24;

export interface FollowNewest {
  /** The scrolling element. */
  readonly ref: RefObject<HTMLDivElement | null>;
  /** Messages that arrived while the player had scrolled up, not yet seen. */
  readonly unseen: number;
  readonly onScroll: () => void;
  /** Down to the newest message (the "N new messages" button). */
  readonly jumpToNewest: () => void;
}

function atEnd(element: HTMLElement): boolean {
  return element.scrollHeight - element.scrollTop - element.clientHeight <= AT_END_PX;
}

/**
 * A conversation's scrolling, as chat clients do it: it opens at the newest message and follows
 * new ones while the player is at the end; once they have scrolled up, new messages from the
 * other side are counted instead (the player's own always bring the list down: they just sent it).
 * `ids` are the messages' ids, oldest first; `mine(id)` tells the player's own.
 */
export function useFollowNewest(ids: readonly string[], mine: (id: string) => boolean): FollowNewest {
  const ref = useRef<HTMLDivElement | null>(null);
  const following = useRef(true);
  const known = useRef<ReadonlySet<string>>(new Set());
  const [unseen, setUnseen] = useState(0);

  const toEnd = useCallback(() => {
    const element = ref.current;
    if (element !== null) element.scrollTop = element.scrollHeight;
    following.current = true;
    setUnseen(0);
  }, []);

  useLayoutEffect(() => {
    const added = ids.filter((id) => !known.current.has(id));
    known.current = new Set(ids);
    if (added.length === 0) return;
    if (following.current || added.some(mine)) toEnd();
    else setUnseen((n) => n + added.length);
  }, [ids, mine, toEnd]);

  const onScroll = useCallback(() => {
    const element = ref.current;
    if (element === null) return;
    following.current = atEnd(element);
    if (following.current) setUnseen(0);
  }, []);

  return { ref, unseen, onScroll, jumpToNewest: toEnd };
}
