/**
 * Event injection through the control API (`POST /v1/inject/event`): every event kind of the
 * QA toolkit reaches the connection named and no other, among three connected games (two of
 * one application, one of another); the subscription rule (delivered only when subscribed,
 * unless forced) and the errors that name the problem.
 */
import { describe, expect, it } from 'vitest';
import type { FakeGame } from '../../../src/tools/fake-game/fake-game.js';
import { activityInvite, activityJoin, activityJoinRequest, guildStatus, rpcFullUser } from '../../../src/tools/inject/event-templates.js';
import { controlCall, DEMO_APP_ID } from '../../e2e/support/world.js';
import { aliceWorldPerTest, connectionIdOf, inject, namedGame, settle } from './support.js';

const OTHER_APP_ID = '987654321098765432';
const LOCAL_EVENTS = ['ACTIVITY_JOIN', 'ACTIVITY_SPECTATE', 'ACTIVITY_JOIN_REQUEST', 'ACTIVITY_INVITE', 'AUTHORIZE_REQUEST'];

const t = aliceWorldPerTest();

async function game(clientId: string, name: string): Promise<{ game: FakeGame; id: string }> {
  const started = await namedGame(t.alice.runtimeDir, clientId, name, LOCAL_EVENTS);
  t.games.push(started);
  expect(started.lines.filter((line) => line.type === 'subscribed' && !line.ok)).toEqual([]);
  return { game: started, id: await connectionIdOf(t.alice, name) };
}

describe('POST /v1/inject/event', () => {
  it('each kind reaches the chosen connection only, with the data given', async () => {
    const first = await game(DEMO_APP_ID, 'first');
    const target = await game(DEMO_APP_ID, 'target');
    const other = await game(OTHER_APP_ID, 'other-app');
    expect(new Set([first.id, target.id, other.id]).size).toBe(3);

    const bob = { id: '111111111111111111', username: 'bob', discriminator: '0', avatar: null };
    const me = t.alice.host.session.user!;
    const cases: [string, unknown, boolean][] = [
      ['ACTIVITY_JOIN', activityJoin('injected-secret-1'), false],
      ['ACTIVITY_SPECTATE', activityJoin('injected-spectate-1'), false],
      ['ACTIVITY_JOIN_REQUEST', activityJoinRequest(bob), false],
      ['ACTIVITY_INVITE', activityInvite(bob, { name: 'Demo', type: 0, party: { id: 'p-1', size: [1, 4] } }), false],
      ['AUTHORIZE_REQUEST', null, false],
      // Not local events: an unauthenticated game cannot subscribe, so QA forces them.
      ['GUILD_STATUS', guildStatus({ id: '222222222222222222', name: 'Lounge' }, 3), true],
      ['CURRENT_USER_UPDATE', rpcFullUser({ ...me, username: 'alice_renamed' }), true],
    ];
    for (const [evt, data, force] of cases) {
      const result = await inject(t.alice.host, { connection_id: target.id, evt, data, force });
      expect(result).toEqual({ connection_id: target.id, evt, subscribed: !force, delivered: true });
      expect(await target.game.waitForEvent(evt, 3000)).toEqual(data);
    }
    await settle();
    expect(target.game.events().map((event) => event.evt)).toEqual(cases.map(([evt]) => evt));
    expect(first.game.events()).toEqual([]);
    expect(other.game.events()).toEqual([]);
  });

  it('an event the game did not subscribe to is not sent unless forced, and the reply says so', async () => {
    const started = await namedGame(t.alice.runtimeDir, DEMO_APP_ID, 'picky', ['ACTIVITY_JOIN']);
    t.games.push(started);
    const id = await connectionIdOf(t.alice, 'picky');

    const skipped = await inject(t.alice.host, { connection_id: id, evt: 'ACTIVITY_INVITE', data: { type: 1 } });
    expect(skipped).toEqual({ connection_id: id, evt: 'ACTIVITY_INVITE', subscribed: false, delivered: false });
    const forced = await inject(t.alice.host, { connection_id: id, evt: 'ACTIVITY_INVITE', data: { type: 1 }, force: true });
    expect(forced).toMatchObject({ subscribed: false, delivered: true });
    expect(await started.waitForEvent('ACTIVITY_INVITE', 3000)).toEqual({ type: 1 });
    await settle();
    expect(started.events('ACTIVITY_INVITE')).toHaveLength(1);
  });

  it('refuses an unknown connection, a bad or unknown event name, and unknown fields, naming the problem', async () => {
    await game(DEMO_APP_ID, 'lonely');
    const unknown = await controlCall(t.alice.host, 'POST', '/v1/inject/event', { connection_id: 'c999', evt: 'ACTIVITY_JOIN', data: {} });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: 'unknown_connection', message: expect.stringContaining('No game connection c999') });

    const lower = await controlCall(t.alice.host, 'POST', '/v1/inject/event', { connection_id: 'c1', evt: 'activity_join' });
    expect(lower.status).toBe(400);
    expect(lower.body.message).toBe('evt: must be an event name in capitals, like ACTIVITY_JOIN');

    const made_up = await controlCall(t.alice.host, 'POST', '/v1/inject/event', { connection_id: 'c1', evt: 'ACTIVITY_TELEPORT' });
    expect(made_up.status).toBe(400);
    expect(made_up.body.message).toMatch(/^evt: unknown event 'ACTIVITY_TELEPORT' \(known: .*ACTIVITY_JOIN.*\)$/);

    const typo = await controlCall(t.alice.host, 'POST', '/v1/inject/event', { connection_id: 'c1', evt: 'ACTIVITY_JOIN', forse: true });
    expect(typo.status).toBe(400);
    expect(typo.body.message).toBe('forse: is not a known field');
  });

  it('revoking a grant through the control API still works for QA (DELETE /v1/grants/{id}): unknown grant is 404', async () => {
    const reply = await controlCall(t.alice.host, 'DELETE', `/v1/grants/${OTHER_APP_ID}`);
    expect(reply.status).toBe(404);
  });
});
