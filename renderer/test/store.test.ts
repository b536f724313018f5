import { describe, expect, it, vi } from 'vitest';
import { createAppStore, INFO_MESSAGE_MS, selectTimedOutInviteIds, selectVisibleConsent, selectWaitingCount } from '../src/store/app-store';
import { filterRows } from '../src/store/frames';
import { CONSENT, createFakeBridge, createLinkedFakeBridge, flush, frame, snapshot } from './fake-bridge';

describe('createAppStore', () => {
  it('subscribes to pushes before asking for the snapshot, then holds the snapshot', async () => {
    const bridge = createFakeBridge(snapshot({ frames: [frame(1), frame(2)] }));
    const store = createAppStore(bridge);
    expect(bridge.listenerCount('companion:topic')).toBe(1);
    expect(bridge.listenerCount('companion:outcomes')).toBe(1);
    expect(bridge.listenerCount('companion:frames')).toBe(1);
    expect(store.getState().connection.status).toBe('connecting');
    await store.started;
    const state = store.getState();
    expect(bridge.calls.map((c) => c.channel)).toEqual(['companion:ready']);
    expect(state.connection.status).toBe('ready');
    expect(state.data?.status.account?.user.username).toBe('player');
    expect(state.data).not.toHaveProperty('frames');
    expect(state.frames.map((r) => r.frame.seq)).toEqual([1, 2]);
  });

  it('replaces a topic on its push, keeps the others, and appends frames as they come', async () => {
    const bridge = createFakeBridge(snapshot({ frames: [frame(1), frame(2)] }));
    const store = createAppStore(bridge);
    await store.started;
    const before = store.getState().data;
    bridge.emit('companion:frames', [frame(3)]);
    bridge.emit('companion:topic', { topic: 'games', value: [{ connection_id: 'c1', client_id: '42', application_name: 'Space Game', pid: 7, transport: 'ipc', client_library: { library: 'unknown', reason: 'no command seen yet' }, activity: null, connected_at: 0, link_requests: false }] });
    bridge.emit('companion:frames', [frame(4)]);
    const state = store.getState();
    expect(state.data?.games).toHaveLength(1);
    expect(state.data?.friends).toBe(before?.friends);
    expect(state.data?.status).toBe(before?.status);
    expect(state.frames.map((r) => r.frame.seq)).toEqual([1, 2, 3, 4]);
    expect(state.lastSeq).toBe(4);
  });

  it('drops pushes that arrive while companion:ready is in flight (its answer is newer)', async () => {
    const bridge = createFakeBridge(snapshot({ frames: [frame(1), frame(2)] }));
    bridge.answer('companion:ready', () => {
      // The host sends what waits before it answers: frames and topics the snapshot holds.
      bridge.emit('companion:frames', [frame(2)]);
      bridge.emit('companion:topic', { topic: 'games', value: [] });
      return snapshot({ frames: [frame(1), frame(2)], friends: [] });
    });
    const store = createAppStore(bridge);
    await store.started;
    expect(store.getState().frames.map((r) => r.frame.seq)).toEqual([1, 2]);
    bridge.emit('companion:frames', [frame(3)]);
    expect(store.getState().frames.map((r) => r.frame.seq)).toEqual([1, 2, 3]);
  });

  it('an inspector coming on screen catches up from its newest frame: no frame twice, a dropped gap marked where it is, the outcomes replaced', async () => {
    const outcome = (update: number) => ({ connection_id: 'c1', application_id: '42', update, cause: 'command' as const, cleared: false, at: update, kind: 'sent' as const });
    const presence = { policy: 'most-recent' as const, pinned_application_id: null, hide_all: false, rules: {}, games: [], recent_outcomes: [outcome(1)], announced: [] };
    const bridge = createFakeBridge(snapshot({ frames: [frame(1), frame(2)], presence }));
    // The host no longer has frames 3 and 4; it has 5 and 6, and a push of 6 overlaps the answer.
    bridge.answer('companion:watch-inspector', (since) => ({ frames: [{ ...frame(5), dropped_before: 2 }, frame(6)].filter((f) => f.seq > since), outcomes: [outcome(7), outcome(8)] }));
    const store = createAppStore(bridge);
    await store.started;
    await store.getState().watchInspector();
    expect(bridge.calls.at(-1)).toEqual({ channel: 'companion:watch-inspector', args: [2] });
    bridge.emit('companion:frames', [frame(6), frame(7)]);
    const state = store.getState();
    expect(state.frames.map((r) => r.frame.seq)).toEqual([1, 2, 4.5, 5, 6, 7]);
    expect(state.frames[2]).toMatchObject({ dropped: 2, frame: { evt: '2 older frames dropped', direction: 'host' } });
    expect(state.data?.presence?.recent_outcomes.map((o) => o.update)).toEqual([7, 8]);
    await store.getState().watchInspector();
    expect(bridge.calls.at(-1)).toEqual({ channel: 'companion:watch-inspector', args: [7] });
    expect(store.getState().frames).toHaveLength(6);
  });

  it("a join's outcome replaces its \"waiting for an answer\" message; one for nobody in particular stands alone", async () => {
    const bridge = createFakeBridge(snapshot({}));
    bridge.answer('companion:request-to-join', { joined: false });
    const store = createAppStore(bridge);
    await store.started;
    await store.getState().requestToJoin('200', null);
    expect(store.getState().messages.map((m) => m.text)).toEqual(['Join request sent: waiting for an answer']);
    bridge.emit('companion:social', { type: 'join-pending', user_id: '200', application_id: '42' });
    expect(store.getState().messages.map((m) => m.text)).toEqual(['Joining: start the game and it joins the party']);
    bridge.emit('companion:social', { type: 'join-delivered', user_id: '200', application_id: '42' });
    expect(store.getState().messages.map((m) => m.text)).toEqual(['Joined: your game is joining the party']);
    bridge.emit('companion:social', { type: 'request-declined', user_id: null, application_id: '42' });
    expect(store.getState().messages.map((m) => m.text)).toEqual(['Joined: your game is joining the party', 'Your request to join was declined']);
  });

  it('appends pushed relay outcomes to presence, keeping the newest 50', async () => {
    const outcome = (update: number) => ({ connection_id: 'c1', application_id: '42', update, cause: 'command' as const, cleared: false, at: update, kind: 'sent' as const });
    const presence = { policy: 'most-recent' as const, pinned_application_id: null, hide_all: false, rules: {}, games: [], recent_outcomes: [outcome(1)], announced: [] };
    const bridge = createFakeBridge(snapshot({ presence }));
    const store = createAppStore(bridge);
    await store.started;
    bridge.emit('companion:outcomes', Array.from({ length: 60 }, (_, i) => outcome(i + 2)));
    const outcomes = store.getState().data?.presence?.recent_outcomes ?? [];
    expect(outcomes).toHaveLength(50);
    expect(outcomes[0]?.update).toBe(12);
    expect(outcomes.at(-1)?.update).toBe(61);
    // A presence topic push keeps the outcomes (they stream on their own).
    const { recent_outcomes: _outcomes, ...state } = presence;
    bridge.emit('companion:topic', { topic: 'presence', value: { ...state, hide_all: true } });
    expect(store.getState().data?.presence).toMatchObject({ hide_all: true, recent_outcomes: outcomes });
  });

  it('shows the visible consent request and sends the decision; hides it at once', async () => {
    const bridge = createFakeBridge(snapshot({ consent_requests: [CONSENT, { ...CONSENT, id: 'req-2', state: 'queued' }] }));
    const store = createAppStore(bridge);
    await store.started;
    expect(selectVisibleConsent(store.getState())?.id).toBe('req-1');
    const ok = await store.getState().decideConsent('req-1', 'approve');
    expect(ok).toBe(true);
    expect(bridge.calls.at(-1)).toEqual({ channel: 'companion:decide-consent', args: ['req-1', 'approve'] });
    expect(selectVisibleConsent(store.getState())).toBeNull();
    // Deciding twice sends nothing more.
    expect(await store.getState().decideConsent('req-1', 'deny')).toBe(false);
    expect(bridge.calls.filter((c) => c.channel === 'companion:decide-consent')).toHaveLength(1);
    // The host's next push no longer lists it: the local note is forgotten.
    bridge.emit('companion:topic', { topic: 'consent_requests', value: [{ ...CONSENT, id: 'req-2' }] });
    expect(store.getState().decidedConsentIds).toEqual([]);
    expect(selectVisibleConsent(store.getState())?.id).toBe('req-2');
  });

  it('dismissing sends decide-consent(id, "dismiss"); a failed decision shows the prompt again with the error', async () => {
    const bridge = createFakeBridge(snapshot({ consent_requests: [CONSENT] }));
    const store = createAppStore(bridge);
    await store.started;
    bridge.answer('companion:decide-consent', () => {
      throw new Error('Unknown consent request');
    });
    expect(await store.getState().decideConsent('req-1', 'dismiss')).toBe(false);
    expect(bridge.calls.at(-1)).toEqual({ channel: 'companion:decide-consent', args: ['req-1', 'dismiss'] });
    expect(selectVisibleConsent(store.getState())?.id).toBe('req-1');
    expect(store.getState().messages.at(-1)).toMatchObject({ kind: 'error', text: expect.stringContaining('Unknown consent request') });
  });

  it('caps the frame buffer, dropping the oldest', async () => {
    const bridge = createFakeBridge(snapshot());
    const store = createAppStore(bridge, { frameCap: 100 });
    await store.started;
    for (let batch = 0; batch < 5; batch += 1) {
      bridge.emit('companion:frames', Array.from({ length: 30 }, (_, i) => frame(batch * 30 + i + 1)));
    }
    const { frames, droppedFrames } = store.getState();
    expect(frames).toHaveLength(100);
    expect(frames[0]?.frame.seq).toBe(51);
    expect(frames.at(-1)?.frame.seq).toBe(150);
    expect(droppedFrames).toBe(50);
  });

  it('keeps the default cap at 10,000 frames', async () => {
    const bridge = createFakeBridge(snapshot());
    const store = createAppStore(bridge);
    await store.started;
    bridge.emit('companion:frames', Array.from({ length: 12_000 }, (_, i) => frame(i + 1)));
    expect(store.getState().frames).toHaveLength(10_000);
    expect(store.getState().frames[0]?.frame.seq).toBe(2_001);
  });

  it('pause holds new frames out of the list; resume shows them', async () => {
    const bridge = createFakeBridge(snapshot({ frames: [frame(1)] }));
    const store = createAppStore(bridge);
    await store.started;
    store.getState().setPaused(true);
    bridge.emit('companion:frames', [frame(2), frame(3)]);
    expect(store.getState().frames.map((r) => r.frame.seq)).toEqual([1]);
    expect(store.getState().held).toHaveLength(2);
    store.getState().setPaused(false);
    expect(store.getState().frames.map((r) => r.frame.seq)).toEqual([1, 2, 3]);
    expect(store.getState().held).toHaveLength(0);
  });

  it('filters by connection and text (cmd, evt, nonce, payload)', async () => {
    const bridge = createFakeBridge(
      snapshot({
        frames: [
          frame(1, { connection_id: 'a', cmd: 'AUTHORIZE', nonce: 'n-1' }),
          frame(2, { connection_id: 'b', cmd: 'SET_ACTIVITY', payload: { activity: { details: 'Boss fight' } } }),
          frame(3, { connection_id: 'a', cmd: 'DISPATCH', evt: 'READY', direction: 'out' }),
        ],
      }),
    );
    const store = createAppStore(bridge);
    await store.started;
    const visible = (): number[] => filterRows(store.getState().frames, store.getState().filter).map((r) => r.frame.seq);
    expect(visible()).toEqual([1, 2, 3]);
    store.getState().setFilter({ connectionId: 'a' });
    expect(visible()).toEqual([1, 3]);
    store.getState().setFilter({ text: 'ready' });
    expect(visible()).toEqual([3]);
    store.getState().setFilter({ connectionId: null, text: 'BOSS' });
    expect(visible()).toEqual([2]);
    store.getState().setFilter({ text: 'n-1' });
    expect(visible()).toEqual([1]);
  });

  it('pairs replies with their commands as frames arrive', async () => {
    const bridge = createFakeBridge(snapshot());
    const store = createAppStore(bridge);
    await store.started;
    bridge.emit('companion:frames', [frame(1, { nonce: 'x', at: 1000 }), frame(2, { nonce: 'x', direction: 'out', at: 1012 })]);
    expect(store.getState().frames[1]).toMatchObject({ rttMs: 12, pairSeq: 1 });
  });

  it('actions call the bridge; failures become error messages; busy keys are cleared', async () => {
    const bridge = createFakeBridge(snapshot());
    const store = createAppStore(bridge);
    await store.started;
    bridge.answer('companion:revoke-grant', () => {
      throw new Error('no such grant');
    });
    const pending = store.getState().revokeGrant('42');
    expect(store.getState().busy).toEqual(['revoke:42']);
    expect(await pending).toBe(false);
    expect(store.getState().busy).toEqual([]);
    expect(store.getState().messages.at(-1)?.text).toBe('Could not revoke the authorization: no such grant');

    bridge.answer('companion:send-authorize-request', { delivered: 1 });
    expect(await store.getState().sendAuthorizeRequest('42')).toBe(true);
    bridge.answer('companion:request-to-join', { joined: false });
    expect(await store.getState().requestToJoin('7', '42')).toBe(true);
    await store.getState().acceptJoinRequest('jr');
    await store.getState().declineJoinRequest('jr2');
    expect(bridge.calls.slice(1).map((c) => [c.channel, ...c.args])).toEqual([
      ['companion:revoke-grant', '42'],
      ['companion:send-authorize-request', '42'],
      ['companion:request-to-join', '7', '42'],
      ['companion:accept-join-request', 'jr'],
      ['companion:decline-join-request', 'jr2'],
    ]);
  });

  it('relationship actions: each goes to the host with the user and the action; the outcome is said with their name', async () => {
    const zed = { id: '30', username: 'zed', discriminator: '0', global_name: 'Zed', avatar: null };
    const bridge = createFakeBridge(snapshot({ relationships: [{ user: zed, type: 'incoming' }] }));
    const store = createAppStore(bridge);
    await store.started;
    expect(await store.getState().changeRelationship('30', 'accept')).toBe(true);
    expect(store.getState().messages.at(-1)).toMatchObject({ kind: 'info', text: 'You and Zed are now friends' });
    bridge.answer('companion:change-relationship', () => {
      throw new Error('No friend request from zed');
    });
    expect(await store.getState().changeRelationship('30', 'ignore')).toBe(false);
    expect(store.getState().messages.at(-1)).toMatchObject({ kind: 'error', text: 'Could not ignore the friend request: No friend request from zed' });
    bridge.answer('companion:send-friend-request', { accepted: false });
    expect(await store.getState().sendFriendRequest(' @carol ')).toBe(true);
    expect(store.getState().messages.at(-1)?.text).toBe('Friend request sent to carol');
    bridge.answer('companion:send-friend-request', () => {
      throw new Error("No user named 'nobody'");
    });
    expect(await store.getState().sendFriendRequest('nobody')).toBe(false);
    expect(store.getState().messages.at(-1)?.text).toBe("Could not send the friend request: No user named 'nobody'");
    expect(bridge.calls.slice(1).map((c) => [c.channel, ...c.args])).toEqual([
      ['companion:change-relationship', '30', 'accept'],
      ['companion:change-relationship', '30', 'ignore'],
      ['companion:send-friend-request', ' @carol '],
      ['companion:send-friend-request', 'nobody'],
    ]);
    expect(store.getState().busy).toEqual([]);
  });

  it('messages: a newer message on the same action replaces the old one, success resolves its error, info expires, errors stay', async () => {
    vi.useFakeTimers();
    try {
      const bridge = createFakeBridge(snapshot());
      const store = createAppStore(bridge);
      await store.started;
      const texts = (): string[] => store.getState().messages.map((m) => m.text);

      bridge.answer('companion:login', () => {
        throw new Error("no user named 'mallory' on the platform (add one with 'companion platform users add NAME')");
      });
      await store.getState().login('mallory');
      // Plain words for the player (issue 26 §7); the host's own text, CLI hint and all, is the message's detail.
      expect(texts()).toEqual(['Could not sign in: there is no account named mallory']);
      expect(store.getState().messages[0]?.detail).toBe("no user named 'mallory' on the platform (add one with 'companion platform users add NAME')");
      // The error stays however long it waits...
      vi.advanceTimersByTime(INFO_MESSAGE_MS * 3);
      expect(texts()).toHaveLength(1);
      // ...until the same action succeeds.
      bridge.answer('companion:login', snapshot().status);
      await store.getState().login('alice');
      expect(texts()).toEqual([]);

      bridge.answer('companion:set-recording', { recording: true, file: '/tmp/r.rec', records: 0, started_at: '2026-11-25T00:00:00Z', dropped: 0, secrets: false, error: null });
      await store.getState().setRecording(true);
      // Started: the inspector's banner says so; no second message repeats it.
      expect(texts()).toEqual([]);
      bridge.answer('companion:set-recording', { recording: false, file: '/tmp/r.rec', records: 12, started_at: null, dropped: 0, secrets: false, error: null });
      await store.getState().setRecording(false);
      expect(texts()).toEqual(['Recording saved: /tmp/r.rec']);
      vi.advanceTimersByTime(INFO_MESSAGE_MS);
      expect(texts()).toEqual([]);

      bridge.answer('companion:accept-invite', { secret_delivered: true });
      await store.getState().acceptInvite('inv1');
      expect(texts()).toEqual(['Invite accepted: your game is joining the party']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('login, logout and settings update the data from the answers', async () => {
    const bridge = createFakeBridge(snapshot());
    const store = createAppStore(bridge);
    await store.started;
    const signedOut = { ...snapshot().status, account: null };
    bridge.answer('companion:logout', signedOut);
    await store.getState().logout();
    expect(store.getState().data?.status.account).toBeNull();
    bridge.answer('companion:login', (username) => ({ ...signedOut, account: { user: { id: '2', username, discriminator: '0', global_name: null, avatar: null } } }));
    await store.getState().login('second');
    expect(store.getState().data?.status.account?.user.username).toBe('second');
    bridge.answer('companion:update-settings', (patch) => ({ consent_policy: 'prompt', consent_always_ask: true, log_level: 'info', start_at_login: null, ...patch }));
    await store.getState().updateSettings({ consent_always_ask: false });
    expect(bridge.calls.at(-1)).toEqual({ channel: 'companion:update-settings', args: [{ consent_always_ask: false }] });
    expect(store.getState().data?.settings.consent_always_ask).toBe(false);
  });

  it('declining an invite asks the host to forget it (the protocol has no answer for it)', async () => {
    const invite = { id: 'inv', user: { id: '7', username: 'friend', discriminator: '0', global_name: null, avatar: null }, application_id: '42', activity: null, content: '', received_at: 0, expires_at: Number.MAX_SAFE_INTEGER, valid: true };
    const bridge = createFakeBridge(snapshot({ invites: [invite] }));
    bridge.answer('companion:decline-invite', () => null);
    const store = createAppStore(bridge);
    await store.started;
    expect(await store.getState().declineInvite('inv')).toBe(true);
    expect(bridge.calls.map((call) => call.channel)).toEqual(['companion:ready', 'companion:decline-invite']);
    expect(bridge.calls[1]?.args).toEqual(['inv']);
  });

  it("an app's first activity ever is announced once, on the push that first lists it", async () => {
    const presence = (announced: { application_id: string; application_name: string; at: number }[]) => ({
      policy: 'most-recent' as const,
      pinned_application_id: null,
      hide_all: false,
      rules: {},
      games: [],
      recent_outcomes: [],
      announced,
    });
    const bridge = createFakeBridge(snapshot({ presence: presence([{ application_id: '1', application_name: 'Old Game', at: 1 }]) }));
    const store = createAppStore(bridge);
    await store.started;
    expect(store.getState().messages).toEqual([]);
    const two = presence([
      { application_id: '1', application_name: 'Old Game', at: 1 },
      { application_id: '2', application_name: 'New Game', at: 2 },
    ]);
    const { recent_outcomes: _outcomes, ...pushed } = two;
    bridge.emit('companion:topic', { topic: 'presence', value: pushed });
    bridge.emit('companion:topic', { topic: 'presence', value: pushed });
    expect(store.getState().messages.map((m) => m.text)).toEqual([expect.stringContaining('New Game now shares your activity')]);
  });

  it('a failed ready shows the error; refresh retries', async () => {
    const bridge = createFakeBridge(snapshot());
    bridge.answer('companion:ready', () => {
      throw new Error('host not ready');
    });
    const store = createAppStore(bridge);
    await store.started;
    expect(store.getState().connection).toMatchObject({ status: 'failed', error: 'host not ready' });
    bridge.answer('companion:ready', snapshot());
    await store.getState().refresh();
    expect(store.getState().connection.status).toBe('ready');
  });

  it('with a link: waits for it to open, shows the loss, asks ready again on reconnect', async () => {
    const bridge = createLinkedFakeBridge(snapshot({ frames: [frame(1)] }));
    const store = createAppStore(bridge);
    await flush();
    expect(bridge.calls).toHaveLength(0);
    bridge.setLink('open');
    await store.started;
    expect(store.getState().connection.status).toBe('ready');
    bridge.setLink('lost');
    expect(store.getState().connection).toMatchObject({ status: 'lost', attempt: 1, retryInMs: 500 });
    bridge.answer('companion:ready', snapshot({ frames: [frame(1), frame(2)] }));
    bridge.setLink('open');
    await flush();
    expect(bridge.calls.map((c) => c.channel)).toEqual(['companion:ready', 'companion:ready']);
    expect(store.getState().connection.status).toBe('ready');
    expect(store.getState().frames.map((r) => r.frame.seq)).toEqual([1, 2]);
  });

  it('starts the inspector over when a reconnect reaches another host (seq went back)', async () => {
    const bridge = createLinkedFakeBridge(snapshot({ frames: [frame(10), frame(11)] }), 'open');
    const store = createAppStore(bridge);
    await store.started;
    bridge.setLink('lost');
    bridge.answer('companion:ready', snapshot({ frames: [frame(1)] }));
    bridge.setLink('open');
    await flush();
    expect(store.getState().frames.map((r) => r.frame.seq)).toEqual([1]);
  });

  it('dispose unsubscribes from the bridge', async () => {
    const bridge = createLinkedFakeBridge(snapshot(), 'open');
    const store = createAppStore(bridge);
    await store.started;
    store.dispose();
    expect(bridge.listenerCount('companion:topic')).toBe(0);
    expect(bridge.listenerCount('companion:outcomes')).toBe(0);
    expect(bridge.listenerCount('companion:frames')).toBe(0);
    bridge.setLink('lost');
    expect(store.getState().connection.status).toBe('ready');
  });
});

describe('issue 26 §6: expired things leave the counts', () => {
  const friend = { id: '7', username: 'friend', discriminator: '0', global_name: null, avatar: null };

  it("an invite past its expiry leaves the Friends badge's count and the list on the store's clock tick; an invalid one is not counted", async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'Date'] });
    try {
      const start = Date.now();
      const soon = { id: 'soon', user: friend, application_id: '42', activity: null, content: '', received_at: start, expires_at: start + 5_000, valid: true };
      const later = { ...soon, id: 'later', expires_at: start + 60_000 };
      const left = { ...soon, id: 'left', expires_at: start + 60_000, valid: false };
      const store = createAppStore(createFakeBridge(snapshot({ invites: [soon, later, left] })));
      await store.started;
      expect(selectWaitingCount(store.getState())).toBe(2);
      expect(selectTimedOutInviteIds(store.getState())).toBe('');
      vi.advanceTimersByTime(5_000);
      expect(selectWaitingCount(store.getState())).toBe(1);
      expect(selectTimedOutInviteIds(store.getState())).toBe('soon');
      store.dispose();
    } finally {
      vi.useRealTimers();
    }
  });
});
