/**
 * Issue 26 §4 against a real host: a game that connected and talked while no UI was open is in
 * the rows the host keeps (its open, HANDSHAKE, READY, first SET_ACTIVITY), and the control API
 * gets them (`GET /v1/inspector/frames/:since`), tokens never among them.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { RawClient } from '../../../../rpc/test/support/raw-client.js';
import { controlCall, DEMO_APP_ID, World } from '../../e2e/support/world.js';

const worlds: World[] = [];
afterEach(async () => {
  for (const world of worlds.splice(0)) await world.close();
});

interface Row {
  readonly seq: number;
  readonly connection_id: string;
  readonly direction: string;
  readonly opcode: number;
  readonly cmd: string | null;
  readonly evt: string | null;
}

describe('issue 26 §4: the host keeps every conversation from the first byte, with no UI open', () => {
  it("a game's whole conversation before any UI opened, through the control API", async () => {
    const world = await World.start();
    worlds.push(world);
    const alice = await world.player('alice', { consentPolicy: 'approve' });
    const { client } = await RawClient.ready(alice.host.ipcPath, DEMO_APP_ID);
    expect((await client.request('SET_ACTIVITY', { pid: process.pid, activity: { state: 'No UI open' } })).evt).toBeNull();
    expect((await client.request('AUTHENTICATE', { access_token: 'not-a-real-token-kept-nowhere' })).evt).toBe('ERROR');

    const answer = await controlCall(alice.host, 'GET', '/v1/inspector/frames/0');
    expect(answer.status).toBe(200);
    const { frames, last_seq: lastSeq } = answer.body as { frames: Row[]; last_seq: number };
    const game = frames.filter((row) => row.connection_id !== 'host');
    expect(game.slice(0, 6).map((row) => `${row.direction} ${row.cmd ?? row.opcode}${row.evt === null ? '' : ` ${row.evt}`}`)).toEqual([
      'host open ipc',
      'in 0',
      'out DISPATCH READY',
      `host ready ${DEMO_APP_ID}`,
      'in SET_ACTIVITY',
      'out SET_ACTIVITY',
    ]);
    expect(answer.text).not.toContain('not-a-real-token-kept-nowhere');
    expect(lastSeq).toBe(frames.at(-1)?.seq);
    const later = await controlCall(alice.host, 'GET', `/v1/inspector/frames/${lastSeq}`);
    expect((later.body as { frames: Row[] }).frames).toEqual([]);
    expect((await controlCall(alice.host, 'GET', '/v1/inspector/frames/-1')).status).toBe(400);
    client.close();
  }, 30_000);
});
