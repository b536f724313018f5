import { describe, expect, it } from 'vitest';
import { createAppStore } from '../src/store/app-store';
import { createFakeBridge, flush, snapshot } from './fake-bridge';

describe('issue 28 §1: the store goes where a game asks (companion:open-view)', () => {
  it('moves the window to Authorized apps, a conversation at a message, and Link a device; closing that tells the host once', async () => {
    const bridge = createFakeBridge(snapshot());
    const store = createAppStore(bridge);
    expect(bridge.listenerCount('companion:open-view')).toBe(1);
    // Not state: a request that arrives while the snapshot is on its way is followed, not dropped.
    bridge.emit('companion:open-view', { view: 'authorized-apps', application_id: '42' });
    expect(store.getState()).toMatchObject({ screen: 'apps', highlightedApplicationId: '42' });
    await store.started;

    store.getState().setConversationOpen('7', true);
    bridge.emit('companion:open-view', { view: 'conversation', user_id: '9', message_id: '900' });
    expect(store.getState()).toMatchObject({ screen: 'friends', openConversations: ['7', '9'], messageFocus: { userId: '9', messageId: '900' } });

    bridge.emit('companion:open-view', { view: 'authorize-device', screen_id: 's-1', application_id: '42', user_code: 'BCDF-GHJK' });
    expect(store.getState().deviceLink).toEqual({ screenId: 's-1', userCode: 'BCDF-GHJK', applicationId: '42' });
    // Another opening's close leaves this one; its own closes it without calling the host back.
    bridge.emit('companion:open-view', { view: 'close-authorize-device', screen_id: 's-0' });
    expect(store.getState().deviceLink).not.toBeNull();
    bridge.emit('companion:open-view', { view: 'close-authorize-device', screen_id: 's-1' });
    expect(store.getState().deviceLink).toBeNull();
    expect(bridge.calls.filter((c) => c.channel === 'companion:close-device-screen')).toEqual([]);

    // The player closes the game's screen: the host is told, once.
    bridge.emit('companion:open-view', { view: 'authorize-device', screen_id: 's-2', application_id: '42', user_code: 'CDFG-HJKL' });
    store.getState().closeDeviceLink();
    store.getState().closeDeviceLink();
    await flush();
    expect(bridge.calls.filter((c) => c.channel === 'companion:close-device-screen')).toEqual([{ channel: 'companion:close-device-screen', args: ['s-2'] }]);
    // Opened by the player: nobody to tell.
    store.getState().openDeviceLink();
    expect(store.getState().deviceLink).toEqual({ screenId: null, userCode: '', applicationId: null });
    store.getState().closeDeviceLink();
    await flush();
    expect(bridge.calls.filter((c) => c.channel === 'companion:close-device-screen')).toHaveLength(1);
    store.dispose();
  });

  it("follows the game's screen a snapshot says is open, and closes it when a later snapshot says none is", async () => {
    const screen = { view: 'authorize-device', screen_id: 's-9', application_id: '42', user_code: 'BCDF-GHJK' } as const;
    const bridge = createFakeBridge({ ...snapshot(), device_screen: screen });
    const store = createAppStore(bridge);
    await store.started;
    expect(store.getState().deviceLink).toEqual({ screenId: 's-9', userCode: 'BCDF-GHJK', applicationId: '42' });
    expect(store.getState().data).not.toHaveProperty('device_screen');
    bridge.answer('companion:ready', { ...snapshot(), device_screen: null });
    await store.getState().refresh();
    expect(store.getState().deviceLink).toBeNull();
    // The player's own code entry is not the host's to close.
    store.getState().openDeviceLink();
    await store.getState().refresh();
    expect(store.getState().deviceLink).toEqual({ screenId: null, userCode: '', applicationId: null });
    store.dispose();
  });
});
