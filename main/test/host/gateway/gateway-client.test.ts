import { afterEach, describe, expect, it, vi } from 'vitest';
import { GatewayOp, type IdentifyCommand, type PresenceUpdateCommand, type ResumeCommand } from '../../../../platform/src/wire/index.js';
import { GatewayClient, type GatewayClientOptions, type GatewayStatus, type RetryInfo } from '../../../src/host/gateway/gateway-client.js';
import { delay, nextEvent, recordingLogger } from './support/helpers.js';
import { ScriptedGateway } from './support/scripted-gateway.js';

const TOKEN = 'user-T0ken-5f4e3d2c1b0a';
const JOIN_SECRET = 'join-S3cret-abc123';
const SPECTATE_SECRET = 'spec-S3cret-def456';

const PRESENCE: PresenceUpdateCommand = {
  since: null,
  status: 'online',
  afk: false,
  activities: [
    {
      name: 'Demo Game',
      type: 0,
      application_id: '1234567890123456789',
      state: 'In a match',
      party: { id: 'party-1', size: [1, 4] },
      secrets: { join: JOIN_SECRET, spectate: SPECTATE_SECRET },
    },
  ],
};

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function startGateway(port = 0): Promise<ScriptedGateway> {
  const gateway = await ScriptedGateway.start(port);
  cleanups.push(() => gateway.close());
  return gateway;
}

function makeClient(url: string, options: Partial<GatewayClientOptions> = {}): GatewayClient {
  const client = new GatewayClient({
    url,
    token: TOKEN,
    random: () => 0.5,
    backoff: { initialMs: 10, maxMs: 80 },
    invalidSessionDelay: { minMs: 5, maxMs: 10 },
    ...options,
  });
  cleanups.push(() => client.stop());
  return client;
}

/** Starts a gateway and a client and runs the session up to READY. */
async function readySession(options: Partial<GatewayClientOptions> = {}, heartbeatInterval = 60_000) {
  const gateway = await startGateway();
  const client = makeClient(gateway.url, options);
  const statuses: GatewayStatus[] = [];
  client.on('status', (status) => statuses.push(status));
  client.start();
  const conn = await gateway.nextConnection();
  const readyEvent = nextEvent(client, 'ready');
  const { identify, ready } = await conn.establish(heartbeatInterval, { resume_gateway_url: gateway.url });
  await readyEvent;
  return { gateway, client, conn, identify, ready, statuses };
}

const isBeatWith = (seq: number | null) => (d: unknown): boolean => d === seq;

describe('GatewayClient: identify and READY', () => {
  it('connects with v=10 and json, identifies with token, properties, presence, no intents', async () => {
    const gateway = await startGateway();
    const client = makeClient(gateway.url, { initialPresence: () => PRESENCE });
    const statuses: [GatewayStatus, string][] = [];
    client.on('status', (status, detail) => statuses.push([status, detail]));
    expect(client.status).toBe('idle');
    client.start();
    expect(client.status).toBe('connecting');

    const conn = await gateway.nextConnection();
    expect(conn.url.pathname).toBe('/gateway');
    expect(conn.url.searchParams.get('v')).toBe('10');
    expect(conn.url.searchParams.get('encoding')).toBe('json');

    conn.hello(60_000);
    const identify = (await conn.next(GatewayOp.Identify)).d as IdentifyCommand;
    expect(identify).toEqual({
      token: TOKEN,
      properties: { os: process.platform, browser: 'Companion', device: '' },
      presence: PRESENCE,
      capabilities: 0,
    });
    expect('intents' in identify).toBe(false);

    const readyEvent = nextEvent(client, 'ready');
    const dispatches: string[] = [];
    client.on('dispatch', (t) => dispatches.push(t));
    const ready = conn.ready({ session_id: 'abc', resume_gateway_url: gateway.url });
    const [got] = await readyEvent;
    expect(got).toEqual(ready);
    expect(client.status).toBe('ready');
    expect(client.sessionId).toBe('abc');
    expect(client.lastReady).toEqual(ready);
    expect(client.lastSeq).toBe(1);
    expect(dispatches).toEqual(['READY']);
    expect(statuses.map(([s]) => s)).toEqual(['connecting', 'ready']);
  });

  it('sends the given properties', async () => {
    const gateway = await startGateway();
    const client = makeClient(gateway.url, { properties: { os: 'linux', browser: 'Test', device: 'box' } });
    client.start();
    const conn = await gateway.nextConnection();
    const { identify } = await conn.establish();
    expect((identify.d as IdentifyCommand).properties).toEqual({ os: 'linux', browser: 'Test', device: 'box' });
    expect('presence' in (identify.d as object)).toBe(false);
  });

  it('emits dispatch for every event and tracks seq from each', async () => {
    const { client, conn } = await readySession();
    const seen: [string, unknown, number | null][] = [];
    client.on('dispatch', (t, d, s) => seen.push([t, d, s]));
    conn.dispatch('PRESENCE_UPDATE', { user: { id: '2' } });
    const last = nextEvent(client, 'dispatch', (t) => t === 'MESSAGE_CREATE');
    conn.dispatch('MESSAGE_CREATE', { id: 'm1' }, 7);
    await last;
    expect(seen).toEqual([
      ['PRESENCE_UPDATE', { user: { id: '2' } }, 2],
      ['MESSAGE_CREATE', { id: 'm1' }, 7],
    ]);
    expect(client.lastSeq).toBe(7);
  });

  it('reconnects when READY does not come in time', async () => {
    const gateway = await startGateway();
    const client = makeClient(gateway.url, { readyTimeoutMs: 50 });
    client.start();
    const first = await gateway.nextConnection();
    first.hello(60_000);
    await first.next(GatewayOp.Identify);
    const { code } = await first.closed;
    expect([1000, 1001]).not.toContain(code);
    const second = await gateway.nextConnection();
    second.hello(60_000);
    await second.next(GatewayOp.Identify);
  });
});

describe('GatewayClient: heartbeat', () => {
  it('waits interval × random() before the first beat', async () => {
    // Interval 60 s: a beat this early is only possible because random() gave 0.
    const random = vi.fn(() => 0);
    const gateway = await startGateway();
    const client = makeClient(gateway.url, { random });
    client.start();
    const conn = await gateway.nextConnection();
    conn.hello(60_000);
    const beat = await conn.next(GatewayOp.Heartbeat);
    expect(beat.d).toBeNull();
    expect(random).toHaveBeenCalled();
  });

  it('beats every interval with the last seq', async () => {
    const { conn } = await readySession({ random: () => 0 }, 50);
    await conn.next(GatewayOp.Heartbeat, isBeatWith(1));
    conn.dispatch('PRESENCE_UPDATE', {}, 2);
    await conn.next(GatewayOp.Heartbeat, isBeatWith(2));
    conn.dispatch('PRESENCE_UPDATE', {}, 5);
    await conn.next(GatewayOp.Heartbeat, isBeatWith(5));
  });

  it('beats at once when the server sends op 1', async () => {
    // random 0.99 of 60 s: the scheduled first beat is a minute away.
    const { conn } = await readySession({ random: () => 0.99 });
    expect(conn.count(GatewayOp.Heartbeat)).toBe(0);
    conn.op(GatewayOp.Heartbeat);
    const beat = await conn.next(GatewayOp.Heartbeat);
    expect(beat.d).toBe(1);
  });

  it('drops a zombie connection (no ACK) and resumes with session_id and seq', async () => {
    const { gateway, client, conn } = await readySession({ random: () => 0 }, 50);
    conn.dispatch('PRESENCE_UPDATE', {}, 2);
    await conn.next(GatewayOp.Heartbeat, isBeatWith(2));
    conn.autoAck = false;
    const retry = nextEvent<[RetryInfo]>(client, 'retry');
    const { code } = await conn.closed;
    expect([1000, 1001]).not.toContain(code);
    expect((await retry)[0].resume).toBe(true);
    expect(client.status).toBe('reconnecting');

    const next = await gateway.nextConnection();
    next.hello(50);
    const resume = (await next.next(GatewayOp.Resume)).d as ResumeCommand;
    expect(resume).toEqual({ token: TOKEN, session_id: 'session-1', seq: 2 });
    expect(next.count(GatewayOp.Identify)).toBe(0);
    const resumed = nextEvent(client, 'resumed');
    next.dispatch('RESUMED', null, 3);
    await resumed;
    expect(client.status).toBe('ready');
    expect(client.lastSeq).toBe(3);
  });
});

describe('GatewayClient: resume, reconnect, invalid session', () => {
  it('resumes on resume_gateway_url after a dropped connection', async () => {
    const main = await startGateway();
    const resumeGateway = await startGateway();
    const client = makeClient(main.url);
    client.start();
    const conn = await main.nextConnection();
    const readyEvent = nextEvent(client, 'ready');
    await conn.establish(60_000, { resume_gateway_url: `${resumeGateway.url}?v=9&extra=1` });
    await readyEvent;
    conn.dispatch('MESSAGE_CREATE', {}, 4);
    await nextEvent(client, 'dispatch', (t) => t === 'MESSAGE_CREATE');

    await conn.terminate();
    const next = await resumeGateway.nextConnection();
    expect(next.url.searchParams.get('v')).toBe('10');
    expect(next.url.searchParams.get('encoding')).toBe('json');
    expect(next.url.searchParams.get('extra')).toBe('1');
    next.hello(60_000);
    expect((await next.next(GatewayOp.Resume)).d).toEqual({ token: TOKEN, session_id: 'session-1', seq: 4 });
    expect(main.connections).toHaveLength(1);
  });

  it('re-identifies on a new connection after op 9 false', async () => {
    const { gateway, client, conn } = await readySession();
    await conn.terminate();
    const second = await gateway.nextConnection();
    second.hello(60_000);
    await second.next(GatewayOp.Resume);
    second.op(GatewayOp.InvalidSession, false);
    await second.closed;
    expect(client.sessionId).toBeUndefined();

    const third = await gateway.nextConnection();
    third.hello(60_000);
    const identify = (await third.next(GatewayOp.Identify)).d as IdentifyCommand;
    expect(identify.token).toBe(TOKEN);
    expect(third.count(GatewayOp.Resume)).toBe(0);
    const readyEvent = nextEvent(client, 'ready');
    third.ready({ session_id: 'session-2', resume_gateway_url: gateway.url });
    await readyEvent;
    expect(client.sessionId).toBe('session-2');
  });

  it('resumes after op 9 true', async () => {
    const { gateway, conn } = await readySession();
    conn.op(GatewayOp.InvalidSession, true);
    await conn.closed;
    const next = await gateway.nextConnection();
    next.hello(60_000);
    expect(((await next.next(GatewayOp.Resume)).d as ResumeCommand).session_id).toBe('session-1');
  });

  it('closes with a resumable code and resumes after op 7', async () => {
    const { gateway, client, conn } = await readySession();
    conn.op(GatewayOp.Reconnect);
    const { code } = await conn.closed;
    expect(code).toBe(4200);
    const next = await gateway.nextConnection();
    next.hello(60_000);
    expect((await next.next(GatewayOp.Resume)).d).toEqual({ token: TOKEN, session_id: 'session-1', seq: 1 });
    const resumed = nextEvent(client, 'resumed');
    next.dispatch('RESUMED', null, 2);
    await resumed;
    expect(client.status).toBe('ready');
  });

  it.each([4000, 4001, 4002, 1001, 1006])('resumes after the server closes with %i', async (code) => {
    const { gateway, conn } = await readySession();
    if (code === 1006) await conn.terminate();
    else await conn.close(code);
    const next = await gateway.nextConnection();
    next.hello(60_000);
    await next.next(GatewayOp.Resume);
  });

  it.each([4003, 4005, 4008, 4009, 1000])('re-identifies after close %i', async (code) => {
    const { gateway, client, conn } = await readySession();
    await conn.close(code);
    const next = await gateway.nextConnection();
    next.hello(60_000);
    await next.next(GatewayOp.Identify);
    expect(next.count(GatewayOp.Resume)).toBe(0);
    expect(client.sessionId).toBeUndefined();
  });

  it('re-identifies when the resume is closed with 4007 (invalid seq)', async () => {
    const { gateway, conn } = await readySession();
    await conn.terminate();
    const second = await gateway.nextConnection();
    second.hello(60_000);
    await second.next(GatewayOp.Resume);
    await second.close(4007);
    const third = await gateway.nextConnection();
    third.hello(60_000);
    await third.next(GatewayOp.Identify);
    expect(third.count(GatewayOp.Resume)).toBe(0);
  });
});

describe('GatewayClient: fatal close codes', () => {
  it.each([4004, 4010, 4011, 4012, 4013, 4014])('stops after %i and never connects again', async (code) => {
    const gateway = await startGateway();
    const client = makeClient(gateway.url, { backoff: { initialMs: 1, maxMs: 2 } });
    const retries: RetryInfo[] = [];
    client.on('retry', (info) => retries.push(info));
    client.start();
    const conn = await gateway.nextConnection();
    conn.hello(60_000);
    await conn.next(GatewayOp.Identify);
    const stopped = nextEvent<[GatewayStatus, string]>(client, 'status', (status) => status === 'stopped');
    void conn.close(code);
    const [, detail] = await stopped;
    expect(detail).toContain(`(${code})`);
    if (code === 4004) expect(detail).toBe('authentication failed (4004): the token is invalid or expired; sign in again');
    expect(client.status).toBe('stopped');
    expect(client.statusDetail).toBe(detail);
    // The backoff would have retried within 2 ms; give it far more than that.
    await delay(100);
    expect(gateway.connections).toHaveLength(1);
    expect(retries).toEqual([]);
  });
});

describe('GatewayClient: backoff', () => {
  it('grows while the platform is down and resets after READY', async () => {
    const down = await ScriptedGateway.start();
    const port = down.port;
    await down.close();

    const client = makeClient(`ws://127.0.0.1:${port}/gateway`, { random: () => 0.5, backoff: { initialMs: 20, maxMs: 160 } });
    const retries: RetryInfo[] = [];
    const statuses: [GatewayStatus, string][] = [];
    client.on('retry', (info) => retries.push(info));
    client.on('status', (status, detail) => statuses.push([status, detail]));
    const sixth = nextEvent(client, 'retry', (info: RetryInfo) => info.attempt === 6);
    client.start();
    await sixth;
    // Base doubles from 20 to the 160 cap; random 0.5 puts each delay at 3/4 of its base.
    expect(retries.map((r) => r.delayMs)).toEqual([15, 30, 60, 120, 120, 120]);
    expect(retries.every((r) => r.resume === false)).toBe(true);
    expect(new Set(statuses.map(([s]) => s))).toEqual(new Set(['connecting']));
    expect(statuses.some(([, detail]) => detail.includes('ECONNREFUSED'))).toBe(true);

    const gateway = await startGateway(port);
    const conn = await gateway.nextConnection();
    const readyEvent = nextEvent(client, 'ready');
    await conn.establish(60_000, { resume_gateway_url: gateway.url });
    await readyEvent;

    retries.length = 0;
    const retry = nextEvent<[RetryInfo]>(client, 'retry');
    await conn.terminate();
    const [info] = await retry;
    expect(info).toMatchObject({ attempt: 1, delayMs: 15, resume: true });
    expect(client.status).toBe('reconnecting');
    const next = await gateway.nextConnection();
    next.hello(60_000);
    await next.next(GatewayOp.Resume);
  });
});

describe('GatewayClient: send budget', () => {
  it('never sends more than 120 payloads per 60 s, even for 1,000 presence updates', async () => {
    const { client, conn } = await readySession({ random: () => 0.99 });
    let accepted = 0;
    for (let i = 0; i < 1000; i += 1) if (client.updatePresence({ ...PRESENCE, since: i })) accepted += 1;
    // 120 minus 5 reserved for heartbeats/identify/resume, minus the Identify already sent.
    expect(accepted).toBe(114);
    expect(client.send(GatewayOp.RequestGuildMembers, { guild_id: '1', query: '', limit: 0 })).toBe(false);

    // The reserve still lets heartbeats through; a beat after everything also flushes the socket.
    conn.op(GatewayOp.Heartbeat);
    await conn.next(GatewayOp.Heartbeat);
    expect(conn.count(GatewayOp.PresenceUpdate)).toBe(114);
    expect(conn.count()).toBe(116);
    expect(conn.count()).toBeLessThanOrEqual(120);
  });

  it('starts a fresh window on a new connection and emits drain', async () => {
    const { gateway, client, conn } = await readySession({ random: () => 0.99 });
    while (client.updatePresence(PRESENCE)) {
      // fill the budget
    }
    await conn.terminate();
    const next = await gateway.nextConnection();
    next.hello(60_000);
    await next.next(GatewayOp.Resume);
    const drain = nextEvent(client, 'drain');
    next.dispatch('RESUMED', null, 2);
    await drain;
    expect(client.updatePresence(PRESENCE)).toBe(true);
    await next.next(GatewayOp.PresenceUpdate);
  });

  it('emits drain when the window frees a slot', async () => {
    const { client, conn } = await readySession({ random: () => 0.99, sendBudget: { count: 6, windowMs: 100, reserve: 2 } });
    let accepted = 0;
    while (client.updatePresence(PRESENCE)) accepted += 1;
    expect(accepted).toBe(3); // 6 - 2 reserved - Identify
    await nextEvent(client, 'drain');
    expect(client.updatePresence(PRESENCE)).toBe(true);
    await conn.next(GatewayOp.PresenceUpdate);
  });

  it('refuses sends without a ready session, and the client-owned ops', async () => {
    const gateway = await startGateway();
    const client = makeClient(gateway.url);
    expect(client.updatePresence(PRESENCE)).toBe(false);
    client.start();
    expect(client.updatePresence(PRESENCE)).toBe(false);
    expect(() => client.send(GatewayOp.Identify, {})).toThrow(TypeError);
    expect(() => client.send(GatewayOp.Resume, {})).toThrow(TypeError);
    expect(() => client.send(GatewayOp.Heartbeat, null)).toThrow(TypeError);
  });

  it('refuses a payload over 4096 bytes instead of getting disconnected', async () => {
    const { client } = await readySession();
    const big = { ...PRESENCE, activities: [{ name: 'x'.repeat(5000), type: 0 }] };
    expect(client.updatePresence(big)).toBe(false);
    expect(client.status).toBe('ready');
  });

  it('sends other commands (op 8, op 43)', async () => {
    const { client, conn } = await readySession();
    expect(client.send(GatewayOp.RequestGuildMembers, { guild_id: '1', query: '', limit: 0 })).toBe(true);
    expect(client.send(GatewayOp.RequestChannelInfo, { guild_id: '1', fields: ['status'] })).toBe(true);
    expect((await conn.next(GatewayOp.RequestGuildMembers)).d).toEqual({ guild_id: '1', query: '', limit: 0 });
    expect((await conn.next(GatewayOp.RequestChannelInfo)).d).toEqual({ guild_id: '1', fields: ['status'] });
  });
});

describe('GatewayClient: stop', () => {
  it('closes with 1000 and does not reconnect', async () => {
    const { gateway, client, conn } = await readySession();
    await client.stop();
    expect((await conn.closed).code).toBe(1000);
    expect(client.status).toBe('stopped');
    expect(client.sessionId).toBeUndefined();
    await delay(50);
    expect(gateway.connections).toHaveLength(1);
  });

  it('stops while waiting to retry', async () => {
    const down = await ScriptedGateway.start();
    const port = down.port;
    await down.close();
    const client = makeClient(`ws://127.0.0.1:${port}/gateway`, { backoff: { initialMs: 20, maxMs: 20 } });
    const retry = nextEvent(client, 'retry');
    client.start();
    await retry;
    await client.stop();
    const gateway = await startGateway(port);
    await delay(60);
    expect(gateway.connections).toHaveLength(0);
  });

  it('can start again after stop, with a new session', async () => {
    const { gateway, client } = await readySession();
    await client.stop();
    client.start();
    const conn = await gateway.nextConnection();
    conn.hello(60_000);
    await conn.next(GatewayOp.Identify);
  });
});

describe('GatewayClient: logs', () => {
  it('never logs the token or presence secrets', async () => {
    const logger = recordingLogger();
    const details: string[] = [];
    const { gateway, client, conn } = await readySession({ logger, initialPresence: () => PRESENCE, random: () => 0 }, 50);
    client.on('status', (_status, detail) => details.push(detail));
    expect(client.updatePresence(PRESENCE)).toBe(true);
    await conn.next(GatewayOp.PresenceUpdate);
    await conn.next(GatewayOp.Heartbeat, isBeatWith(1));

    // Zombie → resume → op 9 false → identify → fatal 4004: every path that sends the token.
    conn.autoAck = false;
    await conn.closed;
    const second = await gateway.nextConnection();
    second.hello(50);
    await second.next(GatewayOp.Resume);
    second.op(GatewayOp.InvalidSession, false);
    const third = await gateway.nextConnection();
    third.hello(50);
    await third.next(GatewayOp.Identify);
    const stopped = nextEvent(client, 'status', (status) => status === 'stopped');
    void third.close(4004);
    await stopped;

    const text = logger.text() + JSON.stringify(details);
    for (const message of ['gateway identifying', 'gateway resuming', 'gateway invalid session', 'gateway closed']) {
      expect(logger.calls.some((call) => call.message === message), message).toBe(true);
    }
    expect(logger.calls.some((call) => call.level === 'debug')).toBe(true);
    for (const secret of [TOKEN, JOIN_SECRET, SPECTATE_SECRET, 'In a match']) {
      expect(text.includes(secret), `${secret} leaked`).toBe(false);
    }
  });
});
