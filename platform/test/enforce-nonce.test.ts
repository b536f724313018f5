import { describe, expect, it } from 'vitest';
import { SEED } from '../src/index.js';
import type { PlatformChannel, PlatformMessage } from '../src/wire/index.js';
import { api, FakeClock, startTestPlatform } from './support/harness.js';

describe('Create Message: enforce_nonce', () => {
  it("the same author and nonce within 5 minutes answers the first message instead of making a second; without enforce_nonce, or later, it is a new one", async () => {
    const clock = new FakeClock();
    const platform = await startTestPlatform({ clock });
    const token = platform.loginToken('alice');
    const dm = (await api<PlatformChannel>(platform, 'POST', '/api/v10/users/@me/channels', { token, body: { recipient_id: SEED.users.bob } })).body;
    const send = (body: unknown) => api<PlatformMessage>(platform, 'POST', `/api/v10/channels/${dm.id}/messages`, { token, body });
    const first = await send({ content: 'gg', nonce: 'n-1', enforce_nonce: true });
    const again = await send({ content: 'gg (retry)', nonce: 'n-1', enforce_nonce: true });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
    expect(again.body.content).toBe('gg');
    // bob's own message with the same nonce is his.
    const bobs = await api<PlatformMessage>(platform, 'POST', `/api/v10/channels/${dm.id}/messages`, { token: platform.loginToken('bob'), body: { content: 'hi', nonce: 'n-1', enforce_nonce: true } });
    expect(bobs.body.id).not.toBe(first.body.id);
    // Without enforce_nonce the nonce is not checked.
    expect((await send({ content: 'twice', nonce: 'n-1' })).body.id).not.toBe(first.body.id);
    clock.advance(5 * 60 * 1000 + 1);
    expect((await send({ content: 'later', nonce: 'n-1', enforce_nonce: true })).body.id).not.toBe(first.body.id);
    const list = await api<PlatformMessage[]>(platform, 'GET', `/api/v10/channels/${dm.id}/messages`, { token });
    expect(list.body.map((m) => m.content)).toEqual(['later', 'twice', 'hi', 'gg']);
    // A nonce over 25 characters is refused.
    expect((await send({ content: 'x', nonce: 'n'.repeat(26), enforce_nonce: true })).status).toBe(400);
  });
});
