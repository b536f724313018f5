/* eslint-disable @typescript-eslint/no-explicit-any -- tests read arbitrary JSON frames */
import { afterEach, describe, expect, it } from 'vitest';
import { Opcode, RpcErrorCode } from '../../../../rpc/src/index.js';
import { RawClient } from '../../../../rpc/test/support/raw-client.js';
import { MAX_AUTHORIZE_IN_FLIGHT } from '../../../src/host/auth/auth-commands.js';
import { DEMO_APP_ID, World, type Player } from '../../e2e/support/world.js';

let world: World | undefined;
const clients: RawClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  await world?.close();
  world = undefined;
});

async function game(player: Player): Promise<RawClient> {
  const { client } = await RawClient.ready(player.host.ipcPath, DEMO_APP_ID);
  clients.push(client);
  return client;
}

function authorize(client: RawClient, nonce: string): void {
  client.send(Opcode.Frame, { cmd: 'AUTHORIZE', args: { client_id: DEMO_APP_ID, scopes: ['identify'] }, nonce });
}

/** The consent requests pending (visible or queued), once there are `count` of them. */
async function pendingPrompts(player: Player, count: number): Promise<ReturnType<Player['host']['consent']['pending']>> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const pending = player.host.consent.pending();
    if (pending.length === count) return pending;
    if (Date.now() > deadline) throw new Error(`${pending.length} consent requests pending, not ${count}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('AUTHORIZE in flight per connection', () => {
  it(`refuses one over ${MAX_AUTHORIZE_IN_FLIGHT} at once with ERROR 5000 naming the limit; the others, and other connections, get their prompt`, async () => {
    world = await World.start();
    const player = await world.player('alice');
    const first = await game(player);
    for (let i = 0; i < MAX_AUTHORIZE_IN_FLIGHT; i += 1) authorize(first, `n${i}`);
    await pendingPrompts(player, MAX_AUTHORIZE_IN_FLIGHT);

    authorize(first, 'over');
    const refused: any = await first.reply('over');
    expect(refused.evt).toBe('ERROR');
    expect(refused.data.code).toBe(RpcErrorCode.OAuth2Error);
    expect(refused.data.message).toBe(
      `OAuth2 Error: invalid_request: too many AUTHORIZE requests in flight on this connection (at most ${MAX_AUTHORIZE_IN_FLIGHT}); wait for an answer`,
    );
    // The refusal asked no one: still the same prompts, every one of this connection.
    const pending = await pendingPrompts(player, MAX_AUTHORIZE_IN_FLIGHT);
    expect(new Set(pending.map((request) => request.connectionId)).size).toBe(1);

    // Another connection is not held to the first one's count.
    const second = await game(player);
    authorize(second, 'other');
    await pendingPrompts(player, MAX_AUTHORIZE_IN_FLIGHT + 1);

    // An answered request frees its slot.
    expect(player.host.consent.decide(pending[0]!.id, 'deny')).toBe(true);
    expect((await first.reply('n0')).evt).toBe('ERROR');
    authorize(first, 'again');
    await pendingPrompts(player, MAX_AUTHORIZE_IN_FLIGHT + 1);
    expect(first.frames.some((frame: any) => frame.payload.nonce === 'again')).toBe(false);
  });
});
