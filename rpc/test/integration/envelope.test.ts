import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Opcode } from '../../src/index.js';
import { RawClient } from '../support/raw-client.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

let ts: TestServer;
let client: RawClient;
beforeEach(async () => {
  ts = await startTestServer();
  client = (await RawClient.ready(ts.path)).client;
});
afterEach(async () => ts.close());

async function send(payload: unknown) {
  client.send(Opcode.Frame, payload);
  return (await client.next()).payload;
}

describe('envelope rules', () => {
  it('answers a command without a nonce with 4000 "Payload requires a nonce"', async () => {
    expect(await send({ cmd: 'SET_ACTIVITY', args: { pid: 1 } })).toEqual({
      cmd: 'SET_ACTIVITY',
      data: { code: 4000, message: 'Payload requires a nonce' },
      evt: 'ERROR',
      nonce: null,
    });
  });

  it('answers an unknown command with 4002 "Invalid command: X", echoing cmd and nonce', async () => {
    expect(await send({ cmd: 'DANCE', nonce: 'n1', args: {} })).toEqual({
      cmd: 'DANCE',
      data: { code: 4002, message: 'Invalid command: DANCE' },
      evt: 'ERROR',
      nonce: 'n1',
    });
  });

  it('keeps the JSON type of the nonce (a number stays a number)', async () => {
    const reply = await send({ cmd: 'SET_ACTIVITY', nonce: 17, args: { pid: 1 } });
    expect(reply.nonce).toBe(17);
    expect(reply.evt).toBeNull();
  });

  it('keeps pypresence-style float-string nonces verbatim', async () => {
    const nonce = '1795307500.86525917053222656250';
    expect((await send({ cmd: 'SET_ACTIVITY', nonce, args: { pid: 1 } })).nonce).toBe(nonce);
  });

  it('treats missing args as {} and tolerates unknown top-level fields', async () => {
    const reply = await send({ cmd: 'SUBSCRIBE', evt: 'ACTIVITY_JOIN', nonce: 'x', extra: { anything: true } });
    expect(reply).toEqual({ cmd: 'SUBSCRIBE', data: { evt: 'ACTIVITY_JOIN' }, evt: null, nonce: 'x' });
  });

  it('answers commands that need authentication with 4006 while unauthenticated', async () => {
    const reply = await send({ cmd: 'GET_GUILDS', nonce: 'g', args: {} });
    expect(reply.data).toEqual({ code: 4006, message: 'Not authenticated or invalid scope' });
    expect(reply.evt).toBe('ERROR');
  });

  it('answers a protocol command that is not built yet with a clear ERROR, never silence', async () => {
    const reply = await send({ cmd: 'AUTHORIZE', nonce: 'a', args: { client_id: '123456789012345678', scopes: ['identify'] } });
    expect(reply.evt).toBe('ERROR');
    expect(reply.data.message).toMatch(/AUTHORIZE is not available/);
  });

  it('answers a non-object args with 4000', async () => {
    const reply = await send({ cmd: 'SET_ACTIVITY', nonce: 'a', args: 'pid=1' });
    expect(reply.data).toEqual({ code: 4000, message: '"args" must be an object' });
  });

  it('closes the connection with 1003 when a FRAME is not a JSON object', async () => {
    client.send(Opcode.Frame, [1, 2, 3]);
    expect(await client.next()).toMatchObject({ opcode: Opcode.Close, payload: { code: 1003 } });
  });

  it('gives every reply all four keys in the order cmd, data, evt, nonce', async () => {
    const ok = await send({ cmd: 'SET_ACTIVITY', nonce: 'k', args: { pid: 1 } });
    const error = await send({ cmd: 'NOPE', nonce: 'k2' });
    expect(Object.keys(ok)).toEqual(['cmd', 'data', 'evt', 'nonce']);
    expect(Object.keys(error)).toEqual(['cmd', 'data', 'evt', 'nonce']);
  });
});

describe('subscriptions and the event bus', () => {
  it('lets an unauthenticated game subscribe to the join, spectate, invite and authorize events', async () => {
    for (const evt of ['ACTIVITY_JOIN', 'ACTIVITY_SPECTATE', 'ACTIVITY_JOIN_REQUEST', 'ACTIVITY_INVITE', 'AUTHORIZE_REQUEST']) {
      expect(await send({ cmd: 'SUBSCRIBE', evt, nonce: evt })).toEqual({ cmd: 'SUBSCRIBE', data: { evt }, evt: null, nonce: evt });
    }
  });

  it('answers 4006 for events that need authentication and 4004 for unknown events', async () => {
    expect((await send({ cmd: 'SUBSCRIBE', evt: 'GUILD_STATUS', nonce: 1, args: { guild_id: '123456789012345678' } })).data).toEqual({
      code: 4006,
      message: 'Not authenticated or invalid scope',
    });
    expect((await send({ cmd: 'SUBSCRIBE', evt: 'FUN_TIMES', nonce: 2 })).data).toEqual({ code: 4004, message: 'Invalid event: FUN_TIMES' });
    expect((await send({ cmd: 'SUBSCRIBE', evt: 'READY', nonce: 3 })).data.code).toBe(4004);
  });

  it('delivers dispatched events only to subscribed connections, with nonce null', async () => {
    const bystander = (await RawClient.ready(ts.path)).client;
    await send({ cmd: 'SUBSCRIBE', evt: 'ACTIVITY_JOIN', nonce: 's' });
    expect(ts.server.dispatch('ACTIVITY_JOIN', { secret: 'join-me' })).toBe(1);
    expect((await client.next()).payload).toEqual({ cmd: 'DISPATCH', data: { secret: 'join-me' }, evt: 'ACTIVITY_JOIN', nonce: null });
    expect(await bystander.framesBeforeBarrier()).toEqual([]);
  });

  it('stops delivering after UNSUBSCRIBE, which replies {evt}', async () => {
    await send({ cmd: 'SUBSCRIBE', evt: 'ACTIVITY_INVITE', nonce: 's' });
    expect(await send({ cmd: 'UNSUBSCRIBE', evt: 'ACTIVITY_INVITE', nonce: 'u' })).toEqual({
      cmd: 'UNSUBSCRIBE',
      data: { evt: 'ACTIVITY_INVITE' },
      evt: null,
      nonce: 'u',
    });
    expect(ts.server.dispatch('ACTIVITY_INVITE', {})).toBe(0);
    expect(await client.framesBeforeBarrier()).toEqual([]);
  });

  it('filters dispatch by connection with the `to` option', async () => {
    const second = (await RawClient.ready(ts.path, '223456789012345678')).client;
    await send({ cmd: 'SUBSCRIBE', evt: 'ACTIVITY_JOIN', nonce: 's' });
    second.send(Opcode.Frame, { cmd: 'SUBSCRIBE', evt: 'ACTIVITY_JOIN', nonce: 's2' });
    await second.next();
    const sent = ts.server.dispatch('ACTIVITY_JOIN', { secret: 'only-second' }, { to: (c) => c.clientId === '223456789012345678' });
    expect(sent).toBe(1);
    expect((await second.next()).payload.data).toEqual({ secret: 'only-second' });
    expect(await client.framesBeforeBarrier()).toEqual([]);
  });

  it('writes an event apart from the reply before it (npm discord-rpc reads one frame per chunk)', async () => {
    const writes: number[] = [];
    const chunksBefore = client.reads.length;
    client.send(Opcode.Frame, { cmd: 'SUBSCRIBE', evt: 'ACTIVITY_JOIN', nonce: 's' });
    ts.server.once('frame', () => undefined); // tracing on: no effect on pacing
    await client.next();
    writes.push(client.reads.length - chunksBefore);
    ts.server.dispatch('ACTIVITY_JOIN', { secret: 'x' });
    await client.next();
    writes.push(client.reads.length - chunksBefore);
    expect(writes).toEqual([1, 2]);
  });
});

describe('invite commands', () => {
  it('accepts SEND_ACTIVITY_JOIN_INVITE and both close-request names, announcing them to the host', async () => {
    const requests: string[] = [];
    ts.server.on('request', (r) => requests.push(`${r.cmd}:${String(r.args.user_id)}`));
    for (const cmd of ['SEND_ACTIVITY_JOIN_INVITE', 'CLOSE_ACTIVITY_REQUEST', 'CLOSE_ACTIVITY_JOIN_REQUEST']) {
      expect(await send({ cmd, nonce: cmd, args: { user_id: '300000000000000003' } })).toEqual({ cmd, data: null, evt: null, nonce: cmd });
    }
    expect(requests).toEqual([
      'SEND_ACTIVITY_JOIN_INVITE:300000000000000003',
      'CLOSE_ACTIVITY_REQUEST:300000000000000003',
      'CLOSE_ACTIVITY_JOIN_REQUEST:300000000000000003',
    ]);
  });

  it('rejects an invite without user_id with 4000 and Joi text', async () => {
    expect((await send({ cmd: 'SEND_ACTIVITY_JOIN_INVITE', nonce: 'i', args: {} })).data).toEqual({
      code: 4000,
      message: 'child "user_id" fails because ["user_id" is required]',
    });
  });
});

describe('closing right after an event', () => {
  it('still delivers the CLOSE frame when it follows an event within the pacing gap', async () => {
    await send({ cmd: 'SUBSCRIBE', evt: 'ACTIVITY_JOIN', nonce: 's' });
    ts.server.dispatch('ACTIVITY_JOIN', { secret: 'x' });
    expect((await client.next()).payload.evt).toBe('ACTIVITY_JOIN');
    client.send(Opcode.Handshake, { v: 1, client_id: '123456789012345678' }); // a violation, answered by CLOSE
    expect(await client.next()).toMatchObject({ opcode: Opcode.Close, payload: { code: 1003, message: 'already did handshake' } });
  });
});
