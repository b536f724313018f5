import { describe, expect, it } from 'vitest';
import type { LobbyMessage } from '../src/wire/index.js';
import { api } from './support/harness.js';
import { setUpTenants } from './support/tenants.js';

describe('issue 25 §1 (attacker): one game exhausting another game\'s rate limits', () => {
  it("game A's server editing its own lobby's messages does not use up game B's server's bucket", async () => {
    const t = await setUpTenants();
    const { platform } = t;
    const mineA = (await api<LobbyMessage>(platform, 'POST', `/api/v10/lobbies/${t.lobbyA}/messages`, { token: await t.bearer('alice', t.appA), body: { content: 'a' } })).body;
    // Game A's server spends the whole lobby-message bucket (its edits of a member's message are refused, but count).
    const { count } = platform.limits.http.lobbyMessage;
    for (let i = 0; i <= count; i += 1) await api(platform, 'PATCH', `/api/v10/lobbies/${t.lobbyA}/messages/${mineA.id}`, { token: t.botA, body: { content: `x${i}` } });
    const spent = await api(platform, 'PATCH', `/api/v10/lobbies/${t.lobbyA}/messages/${mineA.id}`, { token: t.botA, body: { content: 'again' } });
    expect(spent.status).toBe(429);
    // Game B's server is another tenant: its own bucket is untouched.
    const theirs = await api(platform, 'PATCH', `/api/v10/lobbies/${t.lobbyB}/messages/${t.lobbyMessageB}`, { token: t.botB, body: { content: 'edit' } });
    // Answered by the route (a server edits no member's message), not refused by the limiter.
    expect({ status: theirs.status, body: theirs.body }).toEqual({ status: 403, body: expect.objectContaining({ code: 50005 }) });
  });

  it("game A's server spending the partner-sdk bucket leaves game B's server its own", async () => {
    const t = await setUpTenants();
    const { platform } = t;
    const { count } = platform.limits.http.partnerSdk;
    for (let i = 0; i <= count; i += 1) await api(platform, 'POST', '/api/v10/partner-sdk/token/bot', { token: t.botA, body: { external_user_id: `a-${i}` } });
    expect((await api(platform, 'POST', '/api/v10/partner-sdk/token/bot', { token: t.botA, body: { external_user_id: 'a-more' } })).status).toBe(429);
    const theirs = await api(platform, 'POST', '/api/v10/partner-sdk/token/bot', { token: t.botB, body: { external_user_id: 'b-1' } });
    expect(theirs.status, JSON.stringify(theirs.body)).not.toBe(429);
    expect(theirs.headers.get('x-ratelimit-remaining')).toBe(String(count - 1));
  });
});
