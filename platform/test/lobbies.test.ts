import { describe, expect, it } from 'vitest';
import { LobbyError } from '../src/lobbies/lobby-error.js';
import { LobbyService } from '../src/lobbies/lobby-service.js';
import { LobbySweeper } from '../src/lobbies/lobby-sweeper.js';
import { LOBBY_LIMITS, LobbyEvent, type PlatformUser } from '../src/wire/index.js';

const APP = '1234567890123456789';

function platformUser(id: string): PlatformUser {
  return { id, username: `user${id}`, discriminator: '0', global_name: null, avatar: null, bot: false, flags: 0, premium_type: 0 } as PlatformUser;
}

/** A lobby service over known users 1-2000, a settable clock and connection set, recording every dispatch. */
function service() {
  let id = 10_000;
  const clock = { now: 1_700_000_000_000 };
  const online = new Set<string>();
  const sent: { to: string[]; event: string; data: unknown }[] = [];
  const lobbies = new LobbyService({
    nextId: () => String((id += 1)),
    now: () => clock.now,
    user: (userId) => (/^\d+$/.test(userId) && Number(userId) <= 2000 ? platformUser(userId) : undefined),
    connected: (userId) => online.has(userId),
    dispatch: (to, event, data) => sent.push({ to: [...to], event, data }),
  });
  return { lobbies, clock, online, sent };
}

const reason = (work: () => unknown): string => {
  try {
    work();
  } catch (error) {
    if (error instanceof LobbyError) return `${error.reason}${error.field === undefined ? '' : `:${error.field}`}`;
    throw error;
  }
  return 'no error';
};

describe('lobbies: create or join by secret', () => {
  it('the same secret puts two players in one lobby; each is told of the other', () => {
    const { lobbies, sent } = service();
    const created = lobbies.createOrJoin('1', APP, { secret: 'squad-7', lobby_metadata: { map: 'harbour' }, member_metadata: { role: 'tank' } });
    expect(created).toMatchObject({ application_id: APP, metadata: { map: 'harbour' }, members: [{ id: '1', metadata: { role: 'tank' }, flags: 0 }] });
    const joined = lobbies.createOrJoin('2', APP, { secret: 'squad-7' });
    expect(joined.id).toBe(created.id);
    expect(joined.members.map((m) => m.id)).toEqual(['1', '2']);
    expect(sent.map((s) => [s.event, s.to])).toEqual([
      [LobbyEvent.Create, ['1']],
      [LobbyEvent.Create, ['2']],
      [LobbyEvent.MemberAdd, ['1']],
    ]);
    // Another game's same secret is another lobby.
    expect(lobbies.createOrJoin('1', '999', { secret: 'squad-7' }).id).not.toBe(created.id);
    // Joining again changes nothing and tells nobody.
    const before = sent.length;
    lobbies.createOrJoin('2', APP, { secret: 'squad-7' });
    expect(sent.length).toBe(before);
  });

  it('metadata of 1,001 characters, a bad secret or idle timeout are refused, naming the field', () => {
    const { lobbies } = service();
    expect(reason(() => lobbies.createOrJoin('1', APP, { secret: 's', lobby_metadata: { k: 'x'.repeat(LOBBY_LIMITS.metadataChars) } }))).toBe('invalid_form:lobby_metadata');
    expect(reason(() => lobbies.createOrJoin('1', APP, { secret: 's', member_metadata: { a: 'x'.repeat(999) } }))).toBe('no error');
    expect(reason(() => lobbies.createOrJoin('1', APP, { secret: '' }))).toBe('invalid_form:secret');
    expect(reason(() => lobbies.createOrJoin('1', APP, { secret: 'x'.repeat(251) }))).toBe('invalid_form:secret');
    expect(reason(() => lobbies.createOrJoin('1', APP, { secret: 't', idle_timeout_seconds: 4 }))).toBe('invalid_form:idle_timeout_seconds');
    expect(reason(() => lobbies.createOrJoin('1', APP, { secret: 't', idle_timeout_seconds: 604_801 }))).toBe('invalid_form:idle_timeout_seconds');
  });

  it('at most 100 lobbies per user per game; a secret expires after 30 days', () => {
    const { lobbies, clock } = service();
    for (let i = 0; i < LOBBY_LIMITS.lobbiesPerUserPerApp; i++) lobbies.createOrJoin('1', APP, { secret: `s${i}` });
    expect(reason(() => lobbies.createOrJoin('1', APP, { secret: 'one-more' }))).toBe('too_many_lobbies');
    expect(reason(() => lobbies.createOrJoin('1', '999', { secret: 'other-game' }))).toBe('no error');
    const { lobbies: fresh, clock: freshClock } = service();
    const first = fresh.createOrJoin('1', APP, { secret: 'old' });
    freshClock.now += LOBBY_LIMITS.secretTtlMs;
    expect(fresh.createOrJoin('2', APP, { secret: 'old' }).id).not.toBe(first.id);
    expect(clock.now).toBeGreaterThan(0);
  });
});

describe('lobbies: leaving, idleness and the server API', () => {
  it('leaving tells the others; an unknown lobby is refused; a lobby with no connected member is deleted after its idle timeout', () => {
    const { lobbies, clock, online, sent } = service();
    online.add('1');
    const lobby = lobbies.createOrJoin('1', APP, { secret: 'idle', idle_timeout_seconds: 5 });
    lobbies.createOrJoin('2', APP, { secret: 'idle' });
    lobbies.leave(lobby.id, '2');
    expect(sent.slice(-2).map((s) => [s.event, s.to])).toEqual([
      [LobbyEvent.Delete, ['2']],
      [LobbyEvent.MemberRemove, ['1']],
    ]);
    lobbies.leave(lobby.id, '2');
    expect(reason(() => lobbies.leave('424242', '1'))).toBe('unknown_lobby');
    // Player 1 disconnects: the lobby is idle, and goes once idle for 5 s. Members stay members meanwhile.
    clock.now += 60_000;
    expect(lobbies.sweep()).toBe(0);
    online.delete('1');
    lobbies.connectionChanged('1');
    expect(lobbies.get(lobby.id, '1').members).toEqual([{ id: '1', metadata: null, flags: 0, connected: false, user: expect.objectContaining({ id: '1', username: 'user1' }) }]);
    clock.now += 4_999;
    expect(lobbies.sweep()).toBe(0);
    clock.now += 1;
    expect(lobbies.sweep()).toBe(1);
    expect(sent.at(-1)).toMatchObject({ event: LobbyEvent.Delete, to: ['1'], data: { id: lobby.id } });
    expect(reason(() => lobbies.get(lobby.id, null))).toBe('unknown_lobby');
  });

  it('server API: create with members, a bulk of at most 25 (26 refused), unknown users refused, removal, and only its own lobbies', () => {
    const { lobbies } = service();
    const lobby = lobbies.create(APP, { metadata: { mode: 'ranked' }, members: [{ id: '1' }, { id: '2', flags: 1 }] });
    expect(lobby.members.map((m) => [m.id, m.flags])).toEqual([
      ['1', 0],
      ['2', 1],
    ]);
    const many = Array.from({ length: 26 }, (_, i) => ({ id: String(100 + i) }));
    expect(reason(() => lobbies.bulk(lobby.id, APP, many))).toBe('invalid_form:members');
    expect(lobbies.bulk(lobby.id, APP, many.slice(0, 25)).map((m) => m.id)).toHaveLength(25);
    expect(lobbies.get(lobby.id, null).members).toHaveLength(27);
    expect(lobbies.bulk(lobby.id, APP, [{ id: '1', remove_member: true }, { id: '2', metadata: { seat: '3' } }])).toEqual([{ id: '2', metadata: { seat: '3' }, flags: 1, connected: false, user: expect.objectContaining({ id: '2' }) }]);
    expect(reason(() => lobbies.bulk(lobby.id, APP, [{ id: '99999' }]))).toBe('unknown_user');
    expect(reason(() => lobbies.bulk(lobby.id, '999', [{ id: '3' }]))).toBe('unknown_lobby');
    expect(reason(() => lobbies.create(APP, { members: many }))).toBe('invalid_form:members');
    lobbies.delete(lobby.id, APP);
    lobbies.delete(lobby.id, APP);
    expect(lobbies.list()).toEqual([]);
  });
});

describe('lobbies: messages', () => {
  it('members send and read; GET gives the newest first, at most 200, none older than 72 hours; non-members are refused', () => {
    const { lobbies, clock, sent } = service();
    const lobby = lobbies.createOrJoin('1', APP, { secret: 'chat' });
    lobbies.createOrJoin('2', APP, { secret: 'chat' });
    const message = lobbies.sendMessage(lobby.id, '1', 'hello', { team: 'red' });
    expect(message).toMatchObject({ lobby_id: lobby.id, channel_id: lobby.id, content: 'hello', author: { id: '1' }, application_id: APP, metadata: { team: 'red' } });
    expect(sent.at(-1)).toMatchObject({ event: LobbyEvent.MessageCreate, to: ['1', '2'] });
    expect(reason(() => lobbies.sendMessage(lobby.id, '3', 'hi'))).toBe('missing_access');
    expect(reason(() => lobbies.sendMessage(lobby.id, '1', '   '))).toBe('invalid_form:content');
    for (let i = 0; i < 200; i++) lobbies.sendMessage(lobby.id, i % 2 === 0 ? '1' : '2', `m${i}`);
    const read = lobbies.messages(lobby.id, '2', 200);
    expect(read).toHaveLength(200);
    expect(read[0]?.content).toBe('m199');
    expect(read.at(-1)?.content).toBe('m0');
    expect(reason(() => lobbies.messages(lobby.id, '2', 201))).toBe('invalid_form:limit');
    expect(reason(() => lobbies.messages(lobby.id, '3', 10))).toBe('missing_access');
    clock.now += LOBBY_LIMITS.messageAgeMs + 1;
    expect(lobbies.messages(lobby.id, '1', 50)).toEqual([]);
  });
});

describe('issue 27 §4: the lobby idle sweep runs only while lobbies exist', () => {
  it('no timer with no lobby; the first lobby arms it; the sweep that deletes the last one disarms it', () => {
    const { lobbies, clock } = service();
    const sweeper = new LobbySweeper(lobbies);
    sweeper.start();
    try {
      expect(sweeper.armed).toBe(false);
      lobbies.createOrJoin('1', APP, { secret: 'brief', idle_timeout_seconds: 5 });
      expect(sweeper.armed).toBe(true);
      expect(sweeper.sweepNow()).toBe(0);
      expect(sweeper.armed).toBe(true);
      clock.now += 5_000;
      expect(sweeper.sweepNow()).toBe(1);
      expect(sweeper.armed).toBe(false);
    } finally {
      sweeper.stop();
    }
  });
});
