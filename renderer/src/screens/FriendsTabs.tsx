import { useRef, type KeyboardEvent, type ReactNode } from 'react';

export type FriendsTab = 'online' | 'all' | 'pending' | 'blocked';

export const FRIENDS_TABS: readonly { readonly id: FriendsTab; readonly label: string }[] = [
  { id: 'online', label: 'Online' },
  { id: 'all', label: 'All' },
  { id: 'pending', label: 'Pending' },
  { id: 'blocked', label: 'Blocked' },
];

/** The id of a tab's button and of its panel (aria-controls / aria-labelledby). */
export const tabId = (tab: FriendsTab): string => `friends-tab-${tab}`;
export const panelId = (tab: FriendsTab): string => `friends-panel-${tab}`;

/** Where an arrow, Home or End moves from tab `index` (of `count`); null for other keys. */
function nextIndex(key: string, index: number, count: number): number | null {
  if (key === 'ArrowRight') return (index + 1) % count;
  if (key === 'ArrowLeft') return (index - 1 + count) % count;
  if (key === 'Home') return 0;
  if (key === 'End') return count - 1;
  return null;
}

/**
 * The Friends screen's tabs, as the client has them: Online, All, Pending (with the number of
 * requests waiting for the player's answer), Blocked. An ARIA tablist: one tab stop (the
 * selected tab); the arrows, Home and End move between tabs and select the one they land on.
 */
export function FriendsTabs({ selected, onSelect, pendingIncoming }: { readonly selected: FriendsTab; readonly onSelect: (tab: FriendsTab) => void; readonly pendingIncoming: number }): ReactNode {
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    const index = FRIENDS_TABS.findIndex((tab) => tab.id === selected);
    const next = nextIndex(event.key, index, FRIENDS_TABS.length);
    const tab = next === null ? undefined : FRIENDS_TABS[next];
    if (next === null || tab === undefined) return;
    event.preventDefault();
    onSelect(tab.id);
    buttons.current[next]?.focus();
  };
  return (
    <div role="tablist" aria-label="Friends" className="tabs" onKeyDown={onKeyDown} data-testid="friends-tabs">
      {FRIENDS_TABS.map((tab, index) => (
        <button
          key={tab.id}
          ref={(button) => {
            buttons.current[index] = button;
          }}
          type="button"
          role="tab"
          id={tabId(tab.id)}
          aria-selected={tab.id === selected}
          aria-controls={tab.id === selected ? panelId(tab.id) : undefined}
          tabIndex={tab.id === selected ? 0 : -1}
          className="tab"
          onClick={() => onSelect(tab.id)}
          data-testid={`friends-tab-${tab.id}`}
        >
          {tab.label}
          {tab.id === 'pending' && pendingIncoming > 0 && (
            <span className="tab-badge" data-testid="friends-tab-pending-count">
              {pendingIncoming}
              <span className="visually-hidden"> waiting for your answer</span>
            </span>
          )}
        </button>
      ))}
    </div>
  );
}
