import { describe, expect, it } from 'vitest';
import { SEED } from '../src/index.js';
import type { GatewayPayload, PresenceUpdateEvent } from '../src/wire/index.js';
import { GatewayClient, isDispatch, isOp } from './support/gateway-client.js';
import { api, FakeClock, serverObserves, startTestPlatform } from './support/harness.js';

const status = (s: 'online' | 'idle' | 'dnd', name: string) => ({ since: null, activities: [{ name, type: 0 }], status: s, afk: false });
const presenceNamed =
  (name: string) =>
  (m: GatewayPayload): boolean =>
    isDispatch('PRESENCE_UPDATE')(m) && (m.d as PresenceUpdateEvent).activities.some((a) => a.name === name);

describe('gateway: resume', () => {
  it('replays the dispatches missed after a drop in order, then RESUMED, and keeps counting', async () => {
    const platform = await startTestPlatform();
    const token = platform.loginToken('alice');
    const { client: alice, ready } = await GatewayClient.ready(platform.gatewayUrl, token);
    const { client: bob } = await GatewayClient.ready(platform.gatewayUrl, platform.loginToken('bob'));
    await alice.next(isDispatch('PRESENCE_UPDATE')); // bob came online
    const seen = alice.seq as number;
    alice.terminate(); // a drop without a close frame: the session stays resumable
    await alice.closed;
    await bob.barrier();
    for (const name of ['one', 'two', 'three']) bob.setPresence(status('online', name));
    await bob.barrier();

    const resumed = await GatewayClient.connect(platform.gatewayUrl);
    resumed.send(6, { token, session_id: ready.session_id, seq: seen });
    const done = await resumed.next(isDispatch('RESUMED'));
    const replayed = resumed.messages.filter((m) => m.op === 0 && m.t === 'PRESENCE_UPDATE');
    expect(replayed.map((m) => (m.d as PresenceUpdateEvent).activities[0]?.name)).toEqual(['one', 'two', 'three']);
    expect(replayed.map((m) => m.s)).toEqual([seen + 1, seen + 2, seen + 3]);
    expect(done.s).toBe(seen + 4);
    expect(resumed.messages.filter((m) => m.op === 0).at(-1)).toBe(done);

    bob.setPresence(status('online', 'four'));
    expect((await resumed.next(presenceNamed('four'))).s).toBe(seen + 5);
  });

  it('takes a session over from a connection that is still open', async () => {
    const platform = await startTestPlatform();
    const token = platform.loginToken('alice');
    const { client: old, ready } = await GatewayClient.ready(platform.gatewayUrl, token);
    const fresh = await GatewayClient.connect(platform.gatewayUrl);
    fresh.send(6, { token, session_id: ready.session_id, seq: old.seq });
    await fresh.next(isDispatch('RESUMED'));
    expect((await old.closed).code).toBe(4000);
    expect(platform.sessions()).toEqual([expect.objectContaining({ session_id: ready.session_id, connected: true })]);
  });

  it('sends op 9 false for an unknown session and for one its client closed with 1000', async () => {
    const platform = await startTestPlatform();
    const token = platform.loginToken('alice');
    const unknown = await GatewayClient.connect(platform.gatewayUrl);
    unknown.send(6, { token, session_id: 'f'.repeat(32), seq: 1 });
    expect(await unknown.next(isOp(9))).toEqual({ op: 9, d: false, s: null, t: null });

    const { client, ready } = await GatewayClient.ready(platform.gatewayUrl, token);
    client.close(1000);
    await client.closed;
    const late = await GatewayClient.connect(platform.gatewayUrl);
    late.send(6, { token, session_id: ready.session_id, seq: 1 });
    expect((await late.next(isOp(9))).d).toBe(false);
    // The connection stays usable for a fresh Identify.
    expect((await late.identify(token)).session_id).not.toBe(ready.session_id);
  });

  it('sends op 9 once the resume window has passed (fake clock)', async () => {
    const clock = new FakeClock();
    const platform = await startTestPlatform({ clock, limits: { resumeWindowMs: 180_000 } });
    const token = platform.loginToken('alice');
    const { client, ready } = await GatewayClient.ready(platform.gatewayUrl, token);
    client.terminate();
    await serverObserves(() => platform.sessions().every((s) => !s.connected), 'the drop');
    clock.advance(179_999);
    const early = await GatewayClient.connect(platform.gatewayUrl);
    early.send(6, { token, session_id: ready.session_id, seq: 99 });
    expect((await early.closed).code).toBe(4007); // still resumable, so the bad seq is what counts
    const again = await GatewayClient.ready(platform.gatewayUrl, token);
    again.client.terminate();
    await serverObserves(() => platform.sessions().every((s) => !s.connected), 'the second drop');
    clock.advance(180_000);
    const late = await GatewayClient.connect(platform.gatewayUrl);
    late.send(6, { token, session_id: again.ready.session_id, seq: 1 });
    expect((await late.next(isOp(9))).d).toBe(false);
  });

  it('closes with 4007 for a seq ahead of the session', async () => {
    const platform = await startTestPlatform();
    const token = platform.loginToken('alice');
    const { client, ready } = await GatewayClient.ready(platform.gatewayUrl, token);
    client.terminate();
    await client.closed;
    const resumed = await GatewayClient.connect(platform.gatewayUrl);
    resumed.send(6, { token, session_id: ready.session_id, seq: 50 });
    expect(await resumed.closed).toEqual({ code: 4007, reason: 'Invalid seq.' });
    expect(platform.sessions()).toEqual([]);
  });

  it('closes with 4007 for a seq older than the resume buffer', async () => {
    const platform = await startTestPlatform({ limits: { resumeBufferSize: 2 } });
    const token = platform.loginToken('alice');
    const { client: alice, ready } = await GatewayClient.ready(platform.gatewayUrl, token);
    const { client: bob } = await GatewayClient.ready(platform.gatewayUrl, platform.loginToken('bob'));
    alice.terminate();
    await alice.closed;
    for (const name of ['one', 'two', 'three']) bob.setPresence(status('online', name));
    await bob.barrier();
    const resumed = await GatewayClient.connect(platform.gatewayUrl);
    resumed.send(6, { token, session_id: ready.session_id, seq: 1 });
    expect((await resumed.closed).code).toBe(4007);
  });

  it('a second connection resuming at the buffer edge gets exactly the kept dispatches', async () => {
    const platform = await startTestPlatform({ limits: { resumeBufferSize: 2 } });
    const token = platform.loginToken('alice');
    const { client: alice, ready } = await GatewayClient.ready(platform.gatewayUrl, token);
    const { client: bob } = await GatewayClient.ready(platform.gatewayUrl, platform.loginToken('bob'));
    await alice.next(isDispatch('PRESENCE_UPDATE'));
    alice.terminate();
    await alice.closed;
    for (const name of ['one', 'two']) bob.setPresence(status('online', name));
    await bob.barrier();
    const resumed = await GatewayClient.connect(platform.gatewayUrl);
    resumed.send(6, { token, session_id: ready.session_id, seq: alice.seq });
    await resumed.next(isDispatch('RESUMED'));
    expect(resumed.dispatches('PRESENCE_UPDATE').map((m) => (m.d as PresenceUpdateEvent).activities[0]?.name)).toEqual(['one', 'two']);
  });
});

describe('gateway: reconnect and kill (admin)', () => {
  it('sends op 7 on admin request and closes with 4000 after the grace time; the session stays resumable', async () => {
    const platform = await startTestPlatform({ limits: { reconnectCloseAfterMs: 50 } });
    const token = platform.loginToken('alice');
    const { client, ready } = await GatewayClient.ready(platform.gatewayUrl, token);
    const { client: bob } = await GatewayClient.ready(platform.gatewayUrl, platform.loginToken('bob'));
    const response = await api(platform, 'POST', '/_emulator/gateway/reconnect', { admin: true, body: { user_id: SEED.users.alice } });
    expect(response).toMatchObject({ status: 200, body: { sessions: 1 } });
    expect(await client.next(isOp(7))).toEqual({ op: 7, d: null, s: null, t: null });
    expect((await client.closed).code).toBe(4000);
    await bob.barrier();
    expect(bob.messages.some(isOp(7))).toBe(false);

    const resumed = await GatewayClient.connect(platform.gatewayUrl);
    resumed.send(6, { token, session_id: ready.session_id, seq: client.seq });
    await resumed.next(isDispatch('RESUMED'));
  });

  it('kill drops every connection without a close frame and keeps sessions', async () => {
    const platform = await startTestPlatform();
    const { client, ready } = await GatewayClient.ready(platform.gatewayUrl, platform.loginToken('alice'));
    const response = await api(platform, 'POST', '/_emulator/gateway/kill', { admin: true });
    expect(response).toMatchObject({ status: 200, body: { connections: 1 } });
    expect((await client.closed).code).toBe(1006);
    const sessions = await api<{ session_id: string; connected: boolean }[]>(platform, 'GET', '/_emulator/sessions', { admin: true });
    expect(sessions.body).toEqual([expect.objectContaining({ session_id: ready.session_id, user_id: SEED.users.alice, connected: false })]);
  });
});
