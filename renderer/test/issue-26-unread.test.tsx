import type { ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ConversationView, DmView } from '../../preload/src/contract';
import { App, unreadTitle } from '../src/App';
import { FriendsScreen } from '../src/screens/FriendsScreen';
import { createAppStore, selectUnreadCount, type AppStore } from '../src/store/app-store';
import { StoreContext } from '../src/store/react';
import { createFakeBridge, snapshot } from './fake-bridge';

const BOB = { id: '7', username: 'bob', discriminator: '0', global_name: 'Bob', avatar: null };
const DAVE = { id: '8', username: 'dave', discriminator: '0', global_name: 'Dave', avatar: null };
const dm = (id: string, author: string): DmView => ({ id, author_id: author, content: 'hi', application_id: null, application_name: null, at: 1, edited_at: null });

function render(store: AppStore, node: ReactNode): string {
  const current: AppStore = { ...store, getInitialState: () => store.getState() };
  return renderToString(<StoreContext.Provider value={current}>{node}</StoreContext.Provider>).replaceAll('<!-- -->', '');
}

async function storeWith(conversations: ConversationView[]): Promise<{ store: AppStore; bridge: ReturnType<typeof createFakeBridge> }> {
  const bridge = createFakeBridge(
    snapshot({
      friends: [
        { user: BOB, presence: { status: 'online', activities: [] } },
        // idle: online enough for the Online tab, where the rows are rendered below
        { user: DAVE, presence: { status: 'idle', activities: [] } },
      ],
      conversations,
    }),
  );
  const store = createAppStore(bridge);
  await store.started;
  return { store, bridge };
}

describe('issue 26 §2: the UI shows unread messages, not all of them', () => {
  it('sums the unread counts on the Friends button and in the title; each friend row has its own mark; "Messages (N)" counts unread only', async () => {
    const { store } = await storeWith([
      { user_id: BOB.id, messages: [dm('1', BOB.id), dm('2', BOB.id), dm('3', BOB.id)], unread: 2 },
      { user_id: DAVE.id, messages: [dm('4', DAVE.id), dm('5', '1')], unread: 0 },
    ]);
    expect(selectUnreadCount(store.getState())).toBe(2);
    // A conversation with someone no longer a friend has no row: it does not count.
    store.getState().applyTopic({ topic: 'friends', value: [{ user: DAVE, presence: { status: 'offline', activities: [] } }] });
    expect(selectUnreadCount(store.getState())).toBe(0);
    store.getState().applyTopic({ topic: 'friends', value: [{ user: BOB, presence: { status: 'online', activities: [] } }, { user: DAVE, presence: { status: 'idle', activities: [] } }] });
    expect(selectUnreadCount(store.getState())).toBe(2);
    expect(unreadTitle(2)).toBe('(2) Companion');
    expect(unreadTitle(0)).toBe('Companion');
    const app = render(store, <App />);
    expect(app).toContain('data-testid="friends-unread"');
    expect(app).toMatch(/data-testid="friends-unread"[^>]*>2<span class="visually-hidden"> unread messages<\/span>/);
    const friends = render(store, <FriendsScreen />);
    expect(friends.match(/data-testid="friend-unread"/g)).toHaveLength(1);
    expect(friends).toContain('<span class="action-count"> (2)</span>');
    expect(friends).toContain('aria-label="Messages with Bob, 2 unread"');
    // dave's two messages (one the player's) are read: no count beside them.
    expect(friends).toContain('aria-label="Messages with Dave"');
    // bob's read (the host pushes the conversations again): no badge, no mark.
    store.getState().applyTopic({ topic: 'conversations', value: [{ user_id: BOB.id, messages: [dm('1', BOB.id)], unread: 0 }] });
    expect(render(store, <App />)).not.toContain('friends-unread');
    expect(render(store, <FriendsScreen />)).not.toContain('friend-unread');
  });

  it('readConversation asks the host, and a failure says nothing', async () => {
    const { store, bridge } = await storeWith([]);
    await store.getState().readConversation(BOB.id, true);
    expect(bridge.calls.filter((call) => call.channel === 'companion:read-conversation')).toEqual([{ channel: 'companion:read-conversation', args: [BOB.id, true] }]);
    bridge.answer('companion:read-conversation', () => {
      throw new Error('down');
    });
    await store.getState().readConversation(BOB.id, false);
    expect(store.getState().messages).toEqual([]);
  });
});
