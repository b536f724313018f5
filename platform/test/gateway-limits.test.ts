import { describe, expect, it } from 'vitest';
import { SEED } from '../src/index.js';
import type { PresenceUpdateEvent, RateLimitedEvent } from '../src/wire/index.js';
import { GatewayClient, isDispatch, isOp } from './support/gateway-client.js';
import { FakeClock, startTestPlatform } from './support/harness.js';

const game = (state: string) => ({
  since: null,
  activities: [{ name: 'Companion Demo Game', type: 0, application_id: SEED.appId, state }],
  status: 'online' as const,
  afk: false,
});

describe('gateway: send limit', () => {
  it('allows 120 payloads per 60 s (heartbeats included) and closes with 4008 on the 121st', async () => {
    const platform = await startTestPlatform();
    const client = await GatewayClient.connect(platform.gatewayUrl);
    for (let i = 0; i < 120; i += 1) client.send(1, null);
    for (let i = 0; i < 120; i += 1) await client.next(isOp(11));
    expect(client.ws.readyState).toBe(client.ws.OPEN);
    client.send(1, null);
    expect(await client.closed).toEqual({ code: 4008, reason: 'Rate limited.' });
  });

  it('starts a new window after 60 s (fake clock)', async () => {
    const clock = new FakeClock();
    const platform = await startTestPlatform({ clock });
    const client = await GatewayClient.connect(platform.gatewayUrl);
    for (let i = 0; i < 120; i += 1) client.send(1, null);
    for (let i = 0; i < 120; i += 1) await client.next(isOp(11));
    clock.advance(60_000);
    client.send(1, null);
    await client.next(isOp(11));
  });
});

describe('gateway: game activity limit', () => {
  it('drops the 6th game-activity update within 20 s with RATE_LIMITED {opcode: 3}; nothing fans out', async () => {
    const clock = new FakeClock();
    const platform = await startTestPlatform({ clock });
    const { client: bob } = await GatewayClient.ready(platform.gatewayUrl, platform.loginToken('bob'));
    const { client: alice } = await GatewayClient.ready(platform.gatewayUrl, platform.loginToken('alice'));
    const states = (): (string | undefined)[] =>
      bob
        .dispatches('PRESENCE_UPDATE')
        .map((m) => (m.d as PresenceUpdateEvent).activities[0]?.state)
        .filter((s) => s !== undefined);

    // The clock moves only after the server has handled each update (it reads it then).
    for (let i = 1; i <= 5; i += 1) {
      alice.setPresence(game(`update ${i}`));
      await bob.next((m) => isDispatch('PRESENCE_UPDATE')(m) && (m.d as PresenceUpdateEvent).activities[0]?.state === `update ${i}`);
      clock.advance(1000);
    }
    alice.setPresence(game('update 6'));
    const limited = await alice.next(isDispatch('RATE_LIMITED'));
    expect(limited.d).toEqual({ opcode: 3, retry_after: 15, meta: {} } satisfies RateLimitedEvent);
    await alice.barrier();
    await bob.barrier();
    expect(states()).toEqual(['update 1', 'update 2', 'update 3', 'update 4', 'update 5']);
    expect(platform.presence(SEED.users.alice)?.activities[0]?.state).toBe('update 5');

    // Updates without a game activity are not limited.
    alice.setPresence({ since: null, activities: [], status: 'idle', afk: false });
    await bob.next((m) => isDispatch('PRESENCE_UPDATE')(m) && (m.d as PresenceUpdateEvent).status === 'idle');

    clock.advance(15_000);
    alice.setPresence(game('update 7'));
    await bob.next((m) => isDispatch('PRESENCE_UPDATE')(m) && (m.d as PresenceUpdateEvent).activities[0]?.state === 'update 7');
    expect(alice.dispatches('RATE_LIMITED')).toHaveLength(1);
  });
  it('at the real clock: five quick game updates pass, the sixth is RATE_LIMITED with retry_after up to 20 s', async () => {
    const platform = await startTestPlatform();
    const { client: alice } = await GatewayClient.ready(platform.gatewayUrl, platform.loginToken('alice'));
    for (let i = 1; i <= 6; i += 1) alice.setPresence(game(`quick ${i}`));
    const d = (await alice.next(isDispatch('RATE_LIMITED'))).d as RateLimitedEvent;
    expect(d.opcode).toBe(3);
    expect(d.retry_after).toBeGreaterThan(15);
    expect(d.retry_after).toBeLessThanOrEqual(20);
    expect(platform.presence(SEED.users.alice)?.activities[0]?.state).toBe('quick 5');
  });
});

describe('gateway: request guild members (op 8)', () => {
  it('answers an all-members request with a chunk, and a second one within 30 s with RATE_LIMITED {opcode: 8}', async () => {
    const clock = new FakeClock();
    const platform = await startTestPlatform({ clock });
    const { client } = await GatewayClient.ready(platform.gatewayUrl, platform.loginToken('alice'));
    client.send(8, { guild_id: SEED.guildId, query: '', limit: 0, nonce: 'n1' });
    const chunk = (await client.next(isDispatch('GUILD_MEMBERS_CHUNK'))).d as {
      guild_id: string;
      members: { user: { username: string }; roles: string[]; joined_at: string }[];
      chunk_index: number;
      chunk_count: number;
      nonce?: string;
    };
    expect(chunk).toMatchObject({ guild_id: SEED.guildId, chunk_index: 0, chunk_count: 1, nonce: 'n1' });
    expect(chunk.members.map((m) => m.user.username)).toEqual(['alice', 'bob', 'carol', 'dave']);
    expect(chunk.members[0]).toMatchObject({ roles: [], joined_at: expect.any(String) });

    clock.advance(10_000);
    client.send(8, { guild_id: SEED.guildId, query: '', limit: 0, nonce: 'n2' });
    const limited = await client.next(isDispatch('RATE_LIMITED'));
    expect(limited.d).toEqual({ opcode: 8, retry_after: 20, meta: { guild_id: SEED.guildId, nonce: 'n2' } });
    await client.barrier();
    expect(client.dispatches('GUILD_MEMBERS_CHUNK')).toHaveLength(1);

    clock.advance(20_000);
    client.send(8, { guild_id: SEED.guildId, query: '', limit: 0 });
    expect((await client.next(isDispatch('GUILD_MEMBERS_CHUNK'))).d).not.toHaveProperty('nonce');
  });

  it('limits the second all-members request immediately at the real 30 s cooldown', async () => {
    const platform = await startTestPlatform();
    const { client } = await GatewayClient.ready(platform.gatewayUrl, platform.loginToken('alice'));
    client.send(8, { guild_id: SEED.guildId, query: '', limit: 0 });
    await client.next(isDispatch('GUILD_MEMBERS_CHUNK'));
    client.send(8, { guild_id: SEED.guildId, query: '', limit: 0 });
    const d = (await client.next(isDispatch('RATE_LIMITED'))).d as RateLimitedEvent;
    expect(d.opcode).toBe(8);
    expect(d.retry_after).toBeGreaterThan(25);
    expect(d.retry_after).toBeLessThanOrEqual(30);
  });

  it('answers prefix and id requests (not rate limited), with not_found, presences, and ignores a long nonce', async () => {
    const platform = await startTestPlatform();
    const { client: bob } = await GatewayClient.ready(platform.gatewayUrl, platform.loginToken('bob'), { since: null, activities: [], status: 'dnd', afk: false });
    const { client } = await GatewayClient.ready(platform.gatewayUrl, platform.loginToken('alice'));
    await bob.barrier();
    client.send(8, { guild_id: SEED.guildId, query: 'CA', limit: 5, nonce: 'x'.repeat(33) });
    const byPrefix = (await client.next(isDispatch('GUILD_MEMBERS_CHUNK'))).d as { members: { user: { username: string } }[] };
    expect(byPrefix.members.map((m) => m.user.username)).toEqual(['carol']);
    expect(byPrefix).not.toHaveProperty('nonce');

    client.send(8, { guild_id: SEED.guildId, user_ids: [SEED.users.bob, '123456789012345678'], presences: true });
    const byId = (await client.next(isDispatch('GUILD_MEMBERS_CHUNK'))).d as Record<string, unknown>;
    expect(byId).toMatchObject({
      members: [{ user: { id: SEED.users.bob } }],
      not_found: ['123456789012345678'],
      presences: [{ user: { id: SEED.users.bob }, status: 'dnd', guild_id: SEED.guildId }],
    });
    for (let i = 0; i < 3; i += 1) client.send(8, { guild_id: SEED.guildId, query: 'd', limit: 1 });
    for (let i = 0; i < 3; i += 1) await client.next(isDispatch('GUILD_MEMBERS_CHUNK'));
    expect(client.dispatches('RATE_LIMITED')).toEqual([]);
  });

  it('closes with 4001 for a request with neither query nor user_ids', async () => {
    const platform = await startTestPlatform();
    const { client } = await GatewayClient.ready(platform.gatewayUrl, platform.loginToken('alice'));
    client.send(8, { guild_id: SEED.guildId });
    expect((await client.closed).code).toBe(4001);
  });
});

describe('gateway: request channel info (op 43)', () => {
  it('answers CHANNEL_INFO with the voice channels and only the requested fields', async () => {
    const platform = await startTestPlatform();
    const { client } = await GatewayClient.ready(platform.gatewayUrl, platform.loginToken('alice'));
    client.send(43, { guild_id: SEED.guildId, fields: ['status'] });
    expect((await client.next(isDispatch('CHANNEL_INFO'))).d).toEqual({
      guild_id: SEED.guildId,
      channels: [
        { id: SEED.channels.voice, status: null },
        { id: SEED.channels.party, status: null },
      ],
    });
    client.send(43, { guild_id: SEED.guildId, fields: ['status', 'voice_start_time'] });
    const both = (await client.next(isDispatch('CHANNEL_INFO'))).d as { channels: object[] };
    expect(both.channels[0]).toEqual({ id: SEED.channels.voice, status: null, voice_start_time: null });
  });
});
