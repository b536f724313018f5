import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RpcServer } from '../../../../rpc/src/index.js';
import { INSPECTOR_LEASE_MS, type FrameView } from '../../../../preload/src/contract.js';
import { HOST_EVENT_OPCODE } from '../../../../common/src/recording/host-event-row.js';
import type { HostEvent } from '../../../src/host/record/host-events.js';
import type { PushMessage } from '../../../src/host/ui-bridge/bridge-port.js';
import { createGuardedHandler, type InvokeEventLike } from '../../../src/shells/electron/ipc-guard.js';
import { BridgeCallRefused, createBridgeBackend, type HostBridge } from '../../../src/host/ui-bridge/bridge-backend.js';
import { ALICE, CAROL, GAMES, GRANTS } from '../control/fake-backend.js';
import { changeFriends, DOCTOR, FakeSettings, FakeUiBackend, ORIGIN_REQUEST, sleep } from './support.js';

/** An RpcServer as the bridge uses it: frame events. */
class FakeServer extends EventEmitter {
  frame(payload: unknown, direction: 'in' | 'out' = 'in'): void {
    this.emit('frame', { connectionId: 'c1', direction, opcode: 1, payload, at: 1000 });
  }
}

let backend: FakeUiBackend;
let settings: FakeSettings;
let server: FakeServer;
const bridges: HostBridge[] = [];

function bridge(options: { snapshotIntervalMs?: number; framesIntervalMs?: number; now?: () => number } = {}): HostBridge {
  backend = new FakeUiBackend();
  settings = new FakeSettings();
  server = new FakeServer();
  const created = createBridgeBackend({ backend, settings, server: server as unknown as Pick<RpcServer, 'on' | 'off'>, ...options });
  bridges.push(created);
  return created;
}

/** The bridge's invoke with unchecked arguments (what a compromised renderer could send). */
function rawInvoke(target: HostBridge, channel: string, args: unknown[]): Promise<unknown> {
  return (target.invoke as (channel: string, args: unknown[]) => Promise<unknown>)(channel, args);
}

afterEach(() => {
  for (const created of bridges.splice(0)) created.close();
});

describe('bridge backend: calls', () => {
  it('maps every channel onto the host backend and answers the contract results', async () => {
    const b = bridge();
    const snapshot = await b.invoke('companion:ready', []);
    expect(snapshot.games).toEqual(GAMES);
    // The control API's grants, with their scopes in the consent prompt's words.
    expect(snapshot.grants).toEqual(GRANTS.map((grant) => ({ ...grant, descriptions: grant.scopes.map((scope) => ({ scope, text: expect.any(String) })) })));
    expect(snapshot.grants[0]?.descriptions[0]?.text).not.toBe(snapshot.grants[0]?.descriptions[0]?.scope);
    expect(snapshot.origin_requests).toEqual([ORIGIN_REQUEST]);
    // Only the contract's user fields.
    expect(snapshot.relationships).toEqual([{ user: { id: CAROL.id, username: 'carol', discriminator: '0', global_name: 'Carol', avatar: null }, type: 'incoming' }]);
    expect(snapshot.status.websocket).toEqual({ port: 6463 });
    expect(snapshot.settings).toEqual({ consent_policy: 'prompt', consent_always_ask: false, log_level: 'info', start_at_login: null });
    expect(await b.invoke('companion:decide-consent', ['c-1', 'approve'])).toBeNull();
    expect(await b.invoke('companion:decide-consent', ['c-2', 'deny'])).toBeNull();
    expect(await b.invoke('companion:decide-consent', ['c-3', 'dismiss'])).toBeNull();
    expect(await b.invoke('companion:accept-join-request', ['900'])).toBeNull();
    expect(await b.invoke('companion:decline-join-request', ['900'])).toBeNull();
    expect(await b.invoke('companion:accept-invite', ['901'])).toEqual({ secret_delivered: true });
    expect(await b.invoke('companion:decline-invite', ['902'])).toBeNull();
    expect(await b.invoke('companion:decide-origin', ['OrIg1n-Req_000001', 'approve'])).toBeNull();
    expect(await b.invoke('companion:forget-origin', ['OrIg1n-Req_000001'])).toBeNull();
    expect(await b.invoke('companion:doctor', [])).toEqual(DOCTOR);
    expect(await b.invoke('companion:update-presence', [{ hide_all: true }])).toMatchObject({ hide_all: true });
    expect(await b.invoke('companion:set-recording', [true])).toMatchObject({ recording: true });
    expect(await b.invoke('companion:set-voice', [{ deaf: true }])).toMatchObject({ deaf: true, audio: false });
    expect(await b.invoke('companion:watch-inspector', [0])).toEqual({ frames: [], outcomes: [] });
    expect(await b.invoke('companion:request-to-join', ['200', null])).toEqual({ joined: false });
    expect(await b.invoke('companion:send-invite', ['200', '1234'])).toEqual({ message_id: '777' });
    expect(await b.invoke('companion:send-dm', ['200', '  gg  '])).toEqual({ message_id: '701' });
    expect(await b.invoke('companion:change-relationship', ['300', 'accept'])).toBeNull();
    expect(await b.invoke('companion:send-friend-request', ['  @zed '])).toEqual({ accepted: false });
    expect(await b.invoke('companion:revoke-grant', ['1234'])).toBeNull();
    expect(await b.invoke('companion:send-authorize-request', ['1234'])).toEqual({ delivered: 2 });
    expect((await b.invoke('companion:login', ['alice'])).account?.user.username).toBe(ALICE.username);
    expect((await b.invoke('companion:logout', [])).version).toBeTypeOf('string');
    expect(await b.invoke('companion:update-settings', [{ consent_policy: 'deny', log_level: 'debug' }])).toEqual({
      consent_policy: 'deny',
      consent_always_ask: false,
      log_level: 'debug',
      start_at_login: null,
    });
    const actions = backend.calls.filter((call) => !['subscribe', 'status', 'games', 'friends', 'relationships', 'joinRequests', 'invites', 'conversations', 'consentRequests', 'grants', 'originRequests', 'originDecisions', 'presence', 'recording', 'voice'].includes(call.method));
    expect(actions).toEqual([
      { method: 'approveConsent', args: ['c-1'] },
      { method: 'denyConsent', args: ['c-2'] },
      { method: 'dismissConsent', args: ['c-3'] },
      { method: 'acceptJoinRequest', args: ['900'] },
      { method: 'declineJoinRequest', args: ['900'] },
      { method: 'acceptInvite', args: ['901'] },
      { method: 'declineInvite', args: ['902'] },
      { method: 'decideOrigin', args: ['OrIg1n-Req_000001', 'approve'] },
      { method: 'forgetOrigin', args: ['OrIg1n-Req_000001'] },
      { method: 'doctor', args: [] },
      { method: 'updatePresence', args: [{ hide_all: true }] },
      { method: 'setRecording', args: [true] },
      { method: 'setVoice', args: [{ deaf: true }] },
      { method: 'requestToJoin', args: [{ user_id: '200' }] },
      { method: 'sendInvite', args: [{ user_id: '200', application_id: '1234' }] },
      // Trimmed by the contract's schema.
      { method: 'sendDm', args: ['200', 'gg'] },
      { method: 'changeRelationship', args: ['300', 'accept'] },
      // Trimmed, the leading @ dropped.
      { method: 'sendFriendRequest', args: ['zed'] },
      { method: 'revokeGrant', args: ['1234'] },
      { method: 'sendAuthorizeRequest', args: ['1234'] },
      { method: 'login', args: [{ username: 'alice' }] },
      { method: 'logout', args: [] },
    ]);
    expect(settings.updates).toEqual([{ consent_policy: 'deny', log_level: 'debug' }]);
  });

  it.each<[string, unknown[]]>([
    ['companion:ready', ['extra']],
    ['companion:accept-invite', ['<script>']],
    ['companion:decide-consent', ['c-1', 'maybe']],
    ['companion:request-to-join', ['200']],
    ['companion:send-dm', ['200', '   ']],
    ['companion:send-dm', ['200', 'x'.repeat(2001)]],
    ['companion:read-conversation', ['200']],
    ['companion:read-conversation', ['200', 'yes']],
    ['companion:read-conversation', ['not-a-user', true]],
    ['companion:update-settings', [{ consent_policy: 'approve', token: 'x' }]],
    ['companion:update-settings', [{ log_level: 'verbose' }]],
    ['companion:update-settings', [{ start_at_login: 'yes' }]],
    ['companion:decline-invite', [7]],
    ['companion:decide-origin', ['OrIg1n-Req_000001', 'allow']],
    ['companion:forget-origin', ['../x']],
    ['companion:update-presence', [{ hideAll: true }]],
    ['companion:set-recording', ['/etc/passwd']],
    ['companion:update-presence', [{ rules: { 'not-an-id': { mode: 'hide' } } }]],
    ['companion:update-presence', [{ rules: { '42': { mode: 'redact', fields: ['secrets'] } } }]],
    ['companion:login', ['']],
    ['companion:change-relationship', ['300', 'befriend']],
    ['companion:change-relationship', ['bob', 'block']],
    ['companion:change-relationship', ['300']],
    ['companion:send-friend-request', ['']],
    ['companion:send-friend-request', ['z']],
    ['companion:send-friend-request', ['zed#1234']],
    ['companion:send-friend-request', ['x'.repeat(33)]],
    ['companion:eval', []],
    ['__proto__', []],
  ])('refuses %s with %j before anything reaches the host', async (channel, args) => {
    const b = bridge();
    const call = rawInvoke(b, channel, args);
    await expect(call).rejects.toBeInstanceOf(BridgeCallRefused);
    await expect(call).rejects.toMatchObject({ status: 400 });
    // The bridge subscribed to the host's events when it started (the inspector's rings); nothing else reached it.
    expect(backend.calls.filter((call) => call.method !== 'subscribe')).toEqual([]);
    expect(settings.updates).toEqual([]);
  });

  it('lets host errors through unchanged', async () => {
    const b = bridge();
    const failure = Object.assign(new Error('This invite has expired'), { status: 410 });
    backend.failures.set('acceptInvite', failure);
    await expect(b.invoke('companion:accept-invite', ['901'])).rejects.toBe(failure);
  });

  it('serves the Electron IPC guard as its backend', async () => {
    const b = bridge();
    const handler = createGuardedHandler('companion:send-authorize-request', { backend: b, isKnownSender: () => true, logger: { warn: vi.fn() } });
    const event: InvokeEventLike = { sender: { id: 1 }, senderFrame: { url: 'app://companion/index.html', parent: null } };
    await expect(handler(event, '1234')).resolves.toEqual({ delivered: 2 });
    expect(backend.calls.at(-1)).toEqual({ method: 'sendAuthorizeRequest', args: ['1234'] });
  });
});

function collect(b: HostBridge, wants?: () => boolean): { messages: PushMessage[]; unsubscribe: () => void } {
  const messages: PushMessage[] = [];
  const unsubscribe = b.subscribe((message) => messages.push(message), wants === undefined ? {} : { wants });
  return { messages, unsubscribe };
}

describe('bridge backend: pushes', () => {
  it('issue 26 §4: records frames from its start, whether or not a UI is subscribed; listens for topics only while one is', () => {
    const b = bridge();
    // The rings: frames and relay outcomes from the start, with no UI.
    expect(server.listenerCount('frame')).toBe(1);
    expect(backend.listeners.size).toBe(1);
    const one = collect(b);
    const two = collect(b);
    expect(server.listenerCount('frame')).toBe(1);
    expect(backend.listeners.size).toBe(2);
    one.unsubscribe();
    one.unsubscribe();
    expect(backend.listeners.size).toBe(2);
    two.unsubscribe();
    expect(server.listenerCount('frame')).toBe(1);
    expect(backend.listeners.size).toBe(1);
    b.close();
    expect(server.listenerCount('frame')).toBe(0);
    expect(backend.listeners.size).toBe(0);
  });

  function topics(messages: readonly PushMessage[]): string[] {
    return messages.flatMap((m) => (m.channel === 'companion:topic' ? [m.payload.topic] : []));
  }

  it('pushes a changed topic once per burst of changes, and after a call that changes state', async () => {
    const b = bridge({ snapshotIntervalMs: 30 });
    const { messages } = collect(b);
    await b.invoke('companion:ready', []);
    for (let i = 0; i < 10; i++) changeFriends(backend, i);
    await sleep(80);
    expect(topics(messages)).toEqual(['friends']);
    await b.invoke('companion:update-settings', [{ consent_always_ask: true }]);
    await vi.waitFor(() => expect(topics(messages)).toEqual(['friends', 'settings']));
    const last = messages.at(-1);
    expect(last?.channel === 'companion:topic' && last.payload.topic === 'settings' && last.payload.value.consent_always_ask).toBe(true);
    // companion:ready only reads.
    await b.invoke('companion:ready', []);
    await sleep(80);
    expect(topics(messages)).toEqual(['friends', 'settings']);
  });

  it('a topic push happens only when that topic changed', async () => {
    const b = bridge({ snapshotIntervalMs: 10 });
    const { messages } = collect(b);
    await b.invoke('companion:ready', []);
    // Events without a change: nothing to push.
    for (let i = 0; i < 5; i++) backend.emit({ type: 'game-activity', data: { i } });
    await sleep(60);
    expect(messages).toEqual([]);
    changeFriends(backend, 1);
    await vi.waitFor(() => expect(topics(messages)).toEqual(['friends']));
    const push = messages[0];
    expect(push?.channel === 'companion:topic' && push.payload.value).toEqual([
      { user: { id: '200', username: 'bob', discriminator: '0', global_name: 'Bob', avatar: null }, presence: { status: 'online', activities: [{ name: 'Game 1', type: 0 }] } },
    ]);
    // The same value again is no change.
    changeFriends(backend, 1);
    await sleep(60);
    expect(topics(messages)).toEqual(['friends']);
  });

  it('streams relay outcomes as they come, in the contract shape', async () => {
    const b = bridge({ snapshotIntervalMs: 10 });
    const { messages } = collect(b);
    await b.invoke('companion:ready', []);
    await b.invoke('companion:watch-inspector', [0]);
    const outcome = { connection_id: 'c1', application_id: '42', update: 1, cause: 'command', cleared: false, at: 5, kind: 'shadowed', by_application_id: '43', by_connection_id: 'c2' };
    backend.emit({ type: 'presence-outcome', data: outcome });
    await vi.waitFor(() => expect(messages.some((m) => m.channel === 'companion:outcomes')).toBe(true));
    const pushed = messages.find((m) => m.channel === 'companion:outcomes');
    expect(pushed?.payload).toEqual([{ connection_id: 'c1', application_id: '42', update: 1, cause: 'command', cleared: false, at: 5, kind: 'shadowed', by_application_id: '43', by_connection_id: 'c2' }]);
  });

  it('a second frames push does not repeat frames, and the ready snapshot sends what waits first', async () => {
    const b = bridge({ framesIntervalMs: 20 });
    const { messages } = collect(b);
    await b.invoke('companion:watch-inspector', [0]);
    server.frame({ cmd: 'SUBSCRIBE', nonce: 'a' });
    server.frame({ cmd: 'SUBSCRIBE', nonce: 'b' });
    await vi.waitFor(() => expect(messages.filter((m) => m.channel === 'companion:frames')).toHaveLength(1));
    server.frame({ cmd: 'SUBSCRIBE', nonce: 'c' });
    await vi.waitFor(() => expect(messages.filter((m) => m.channel === 'companion:frames')).toHaveLength(2));
    const batches = messages.flatMap((m) => (m.channel === 'companion:frames' ? [m.payload.map((frame) => frame.seq)] : []));
    expect(batches).toEqual([[1, 2], [3]]);
    // A frame waiting for its batch goes out before the snapshot is answered: later pushes are all newer than it.
    server.frame({ cmd: 'SUBSCRIBE', nonce: 'd' });
    const snapshot = await b.snapshot();
    expect(snapshot.frames.map((frame) => frame.seq)).toEqual([1, 2, 3, 4]);
    expect(messages.filter((m) => m.channel === 'companion:frames').map((m) => m.payload.map((frame) => frame.seq))).toEqual([[1, 2], [3], [4]]);
    server.frame({ cmd: 'SUBSCRIBE', nonce: 'e' });
    await vi.waitFor(() => expect(messages.filter((m) => m.channel === 'companion:frames')).toHaveLength(4));
    expect(messages.at(-1)?.payload).toMatchObject([{ seq: 5 }]);
  });

  it('batches frames in order, redacted; the ring keeps them for the next snapshot', async () => {
    const b = bridge({ framesIntervalMs: 20 });
    const { messages } = collect(b);
    await b.invoke('companion:watch-inspector', [0]);
    server.frame({ cmd: 'AUTHENTICATE', args: { access_token: 'tok-SECRET' }, nonce: 'n1' });
    server.frame({ cmd: 'AUTHENTICATE', data: {}, nonce: 'n1' }, 'out');
    await vi.waitFor(() => expect(messages.some((m) => m.channel === 'companion:frames')).toBe(true));
    const frames = messages.flatMap((m) => (m.channel === 'companion:frames' ? [...m.payload] : []));
    expect(frames.map((frame) => [frame.seq, frame.direction, frame.cmd, frame.nonce])).toEqual([
      [1, 'in', 'AUTHENTICATE', 'n1'],
      [2, 'out', 'AUTHENTICATE', 'n1'],
    ]);
    expect(JSON.stringify(messages)).not.toContain('tok-SECRET');
    expect((await b.snapshot()).frames.map((frame) => frame.seq)).toEqual([1, 2]);
    expect(b.frames.lastSeq).toBe(2);
  });

  it('builds nothing while no subscriber wants pushes, but still records frames', async () => {
    const b = bridge({ snapshotIntervalMs: 10, framesIntervalMs: 10 });
    let ready = false;
    const { messages } = collect(b, () => ready);
    server.frame({ cmd: 'SUBSCRIBE', nonce: 'x' });
    changeFriends(backend, 1);
    await sleep(40);
    expect(messages).toEqual([]);
    expect(backend.calls.some((call) => call.method === 'grants')).toBe(false);
    expect((await b.invoke('companion:ready', [])).frames).toHaveLength(1);
    ready = true;
    await b.invoke('companion:watch-inspector', [1]);
    server.frame({ cmd: 'SUBSCRIBE', nonce: 'y' });
    changeFriends(backend, 2);
    await vi.waitFor(() => expect(messages.map((m) => m.channel).sort()).toEqual(['companion:frames', 'companion:topic']));
  });

  it('pushes frames and outcomes only while the inspector holds its lease; it catches up on what it missed', async () => {
    let now = 1_000_000;
    const b = bridge({ snapshotIntervalMs: 10, framesIntervalMs: 10, now: () => now });
    const { messages } = collect(b);
    await b.invoke('companion:ready', []);
    const outcome = { connection_id: 'c1', application_id: '42', update: 1, cause: 'command', cleared: false, at: 5, kind: 'sent' };
    server.frame({ cmd: 'SUBSCRIBE', nonce: 'a' });
    server.frame({ cmd: 'SUBSCRIBE', nonce: 'b' });
    backend.emit({ type: 'presence-outcome', data: outcome });
    await sleep(40);
    // Another screen: recorded, not pushed.
    expect(messages.filter((m) => m.channel !== 'companion:topic')).toEqual([]);
    // Two frames and the outcome's row.
    expect(b.frames.lastSeq).toBe(3);
    // The inspector opens having seen frame 1: it gets frame 2 and the outcome's row, and the rows after them are pushed.
    const catchUp = await b.invoke('companion:watch-inspector', [1]);
    expect(catchUp.frames.map((frame) => [frame.seq, frame.nonce ?? frame.cmd])).toEqual([
      [2, 'b'],
      [3, 'relay'],
    ]);
    server.frame({ cmd: 'SUBSCRIBE', nonce: 'c' });
    backend.emit({ type: 'presence-outcome', data: { ...outcome, update: 2 } });
    await vi.waitFor(() => expect(messages.map((m) => m.channel).filter((c) => c !== 'companion:topic').sort()).toEqual(['companion:frames', 'companion:outcomes']));
    expect(messages.find((m) => m.channel === 'companion:frames')?.payload).toMatchObject([
      { seq: 4, nonce: 'c' },
      { seq: 5, direction: 'host', cmd: 'relay' },
    ]);
    // The lease runs out (the window closed without a word): pushes stop again.
    now += INSPECTOR_LEASE_MS;
    server.frame({ cmd: 'SUBSCRIBE', nonce: 'd' });
    backend.emit({ type: 'presence-outcome', data: { ...outcome, update: 3 } });
    await sleep(40);
    expect(messages.filter((m) => m.channel === 'companion:frames')).toHaveLength(1);
    expect(messages.filter((m) => m.channel === 'companion:outcomes')).toHaveLength(1);
  });

  it("pushes the player's own join outcomes as they come, in the contract shape", async () => {
    const b = bridge();
    const { messages } = collect(b);
    await b.invoke('companion:ready', []);
    backend.emit({ type: 'join-delivered', data: { application_id: '42', user_id: '200' } });
    backend.emit({ type: 'request-declined', data: { message_id: '9', application_id: '42' } });
    backend.emit({ type: 'invite', data: { id: '1' } });
    expect(messages.filter((m) => m.channel === 'companion:social').map((m) => m.payload)).toEqual([
      { type: 'join-delivered', user_id: '200', application_id: '42' },
      { type: 'request-declined', user_id: null, application_id: '42' },
    ]);
  });

  it('a throwing listener does not stop the others; close() stops every push', async () => {
    const b = bridge({ snapshotIntervalMs: 10 });
    b.subscribe(() => {
      throw new Error('boom');
    });
    const { messages } = collect(b);
    await b.snapshot();
    changeFriends(backend, 1);
    await vi.waitFor(() => expect(messages).toHaveLength(1));
    b.close();
    expect(server.listenerCount('frame')).toBe(0);
    expect(backend.listeners.size).toBe(0);
    changeFriends(backend, 2);
    server.frame({ cmd: 'X' });
    await sleep(40);
    expect(messages).toHaveLength(1);
  });
});

describe('bridge backend: host events', () => {
  it('lists the host side of the conversation among the frames, as host rows, redacted; probes are left out', async () => {
    const events = new EventEmitter();
    const hostEvents = {
      subscribe(listener: (event: HostEvent) => void) {
        events.on('event', listener);
        return () => events.off('event', listener);
      },
    };
    backend = new FakeUiBackend();
    settings = new FakeSettings();
    server = new FakeServer();
    const b = createBridgeBackend({ backend, settings, server: server as unknown as Pick<RpcServer, 'on' | 'off'>, hostEvents, framesIntervalMs: 10 });
    bridges.push(b);
    const { messages } = collect(b);
    await b.invoke('companion:ready', []);
    expect(events.listenerCount('event')).toBe(1);
    await b.invoke('companion:watch-inspector', [0]);
    events.emit('event', { kind: 'open', connection: 'c1', transport: 'ipc' });
    server.frame({ cmd: 'AUTHORIZE', nonce: 'n1' });
    events.emit('event', { kind: 'consent', connection: 'c1', application_id: '42', scopes: ['identify'], outcome: 'dismissed', by: 'player' });
    events.emit('event', { kind: 'gateway', type: 'READY', data: { access_token: 'secret-token-value' } });
    events.emit('event', { kind: 'open', connection: 'c9', transport: 'ipc' });
    events.emit('event', { kind: 'close', connection: 'c9', client_id: null, pid: null, reason: 'peer-closed', code: null, probe: true });
    events.emit('event', { kind: 'close', connection: 'c1', client_id: '42', pid: 7, reason: 'server-close', code: 4003, probe: false });
    backend.emit({ type: 'presence-outcome', data: { connection_id: 'c1', application_id: '42', update: 1, cause: 'command', cleared: false, at: 5, kind: 'sent' } });
    await vi.waitFor(() => expect(messages.filter((m) => m.channel === 'companion:frames').flatMap((m) => m.payload as FrameView[]).filter((row) => row.connection_id !== 'c9')).toHaveLength(6));
    const rows = messages.filter((m) => m.channel === 'companion:frames').flatMap((m) => m.payload as FrameView[]).filter((row) => row.connection_id !== 'c9');
    expect(rows.map((row) => [row.direction, row.opcode, row.connection_id, row.cmd, row.evt])).toEqual([
      ['host', HOST_EVENT_OPCODE, 'c1', 'open', 'ipc'],
      ['in', 1, 'c1', 'AUTHORIZE', null],
      ['host', HOST_EVENT_OPCODE, 'c1', 'consent', 'dismissed (player)'],
      ['host', HOST_EVENT_OPCODE, 'host', 'gateway', 'READY'],
      ['host', HOST_EVENT_OPCODE, 'c1', 'close', '4003 server-close'],
      ['host', HOST_EVENT_OPCODE, 'c1', 'relay', 'sent'],
    ]);
    expect(JSON.stringify(rows)).not.toContain('secret-token-value');
    expect(rows[4]?.payload).toEqual({ client_id: '42', pid: 7, reason: 'server-close', code: 4003 });
    // The probe's open row was pushed as it came, but the host keeps nothing of it (no ring left behind).
    expect(b.frames.list().some((row) => row.connection_id === 'c9')).toBe(false);
    b.close();
    expect(events.listenerCount('event')).toBe(0);
  });
});
