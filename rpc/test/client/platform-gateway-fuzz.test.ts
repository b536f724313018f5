/**
 * The bounded fuzz of the SDK's gateway client (issue 25 §2): a real companion/client Client
 * against a real `ws` gateway that sends generated frames (valid dispatches mutated: fields
 * missing, of the wrong type, null, huge numbers; damaged JSON; wrong and unknown opcodes;
 * bad sequence numbers and event names; bad Hellos and READYs on fresh connections). After
 * each batch the game must still get a good dispatch, what it reads from the SDK must have the
 * promised types, and nothing may escape as an uncaught exception or unhandled rejection. FUZZ_SEED=<n> repeats a run (fast-check prints the seed
 * and the failing batch); FUZZ_RUNS=<n> changes how many batches (default 40).
 */
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { HELLO } from './support/fake-gateway.js';
import { GAME_TOKEN, gatewayGame, lobby, LOBBY_ID, message, OWNER_ID, uncaught, type GatewayGame } from './support/gateway-game.js';

const SEED = process.env['FUZZ_SEED'] === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(process.env['FUZZ_SEED']);
const RUNS = process.env['FUZZ_RUNS'] === undefined ? 40 : Number(process.env['FUZZ_RUNS']);

/** Valid data of each dispatch the SDK handles (and of a few it does not), to mutate. */
const TEMPLATES: Readonly<Record<string, () => unknown>> = {
  LOBBY_CREATE: () => lobby(),
  LOBBY_UPDATE: () => lobby(),
  LOBBY_DELETE: () => ({ id: LOBBY_ID }),
  LOBBY_MEMBER_ADD: () => ({ lobby_id: LOBBY_ID, member: { id: '100000000000000002', metadata: null, flags: 0, connected: true } }),
  LOBBY_MEMBER_UPDATE: () => ({ lobby_id: LOBBY_ID, member: { id: OWNER_ID, metadata: { role: 'tank' }, flags: 1, connected: true } }),
  LOBBY_MEMBER_REMOVE: () => ({ lobby_id: LOBBY_ID, member: { id: '100000000000000002' } }),
  LOBBY_MESSAGE_CREATE: () => message('600000000000000001'),
  LOBBY_MESSAGE_UPDATE: () => ({ ...message('600000000000000001'), edited_timestamp: new Date(0).toISOString() }),
  LOBBY_MESSAGE_DELETE: () => ({ id: '600000000000000001', lobby_id: LOBBY_ID, channel_id: LOBBY_ID }),
  MESSAGE_CREATE: () => ({ ...message('600000000000000002'), lobby_id: undefined, channel_id: '700000000000000001' }),
  MESSAGE_UPDATE: () => ({ ...message('600000000000000002'), lobby_id: undefined, channel_id: '700000000000000001' }),
  MESSAGE_DELETE: () => ({ id: '600000000000000002', channel_id: '700000000000000001' }),
  RELATIONSHIP_ADD: () => ({ id: '100000000000000003', type: 1, user: { id: '100000000000000003', username: 'friend' } }),
  RELATIONSHIP_REMOVE: () => ({ id: '100000000000000003', type: 1 }),
  GAME_RELATIONSHIP_ADD: () => ({ id: '100000000000000004', type: 3, user: { id: '100000000000000004', username: 'gamer' }, application_id: '400000000000000001' }),
  GAME_RELATIONSHIP_REMOVE: () => ({ id: '100000000000000004', type: 3, application_id: '400000000000000001' }),
  PRESENCE_UPDATE: () => ({ user: { id: '100000000000000003' }, status: 'online', activities: [{ name: 'Game', type: 0, application_id: '400000000000000001' }], client_status: {} }),
  USER_UPDATE: () => ({ id: OWNER_ID, username: 'player2', global_name: 'P', avatar: null }),
  RESUMED: () => null,
  READY: () => ({ v: 10, user: { id: OWNER_ID, username: 'player' }, session_id: 'fuzz-session', resume_gateway_url: 'ws://127.0.0.1:1', relationships: [], presences: [] }),
  CHANNEL_CREATE: () => ({ id: '700000000000000001', type: 1 }),
  RATE_LIMITED: () => ({ opcode: 3, retry_after: 1e308, meta: {} }),
};

/** Values that break assumptions: nulls, wrong types, huge and odd numbers, odd strings. */
const hostile: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, 0, -1, 1.5, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, '', '\u0000', '🙂'.repeat(3), 'constructor', '__proto__', [], {}, [null], { id: null }),
  fc.string({ maxLength: 20 }),
  fc.integer(),
  fc.double(),
  fc.jsonValue({ maxDepth: 2 }),
);

type Json = Record<string, unknown>;

/** A path into a value and what to do there. */
const mutation = fc.record({ path: fc.array(fc.nat(), { minLength: 1, maxLength: 3 }), action: fc.constantFrom('delete', 'replace'), value: hostile });

/** `value` with the key reached by `path` (indexes into the keys at each level) deleted or replaced. */
function mutate(value: unknown, path: readonly number[], action: string, replacement: unknown): unknown {
  if (typeof value !== 'object' || value === null) return replacement;
  const copy: Json | unknown[] = Array.isArray(value) ? [...(value as unknown[])] : { ...(value as Json) };
  const keys = Object.keys(copy);
  if (keys.length === 0) return replacement;
  const key = keys[(path[0] ?? 0) % keys.length] as string;
  const rest = path.slice(1);
  const target = copy as Json;
  if (rest.length > 0 && typeof target[key] === 'object' && target[key] !== null) target[key] = mutate(target[key], rest, action, replacement);
  else if (action === 'delete') delete target[key];
  else target[key] = replacement;
  return copy;
}

/** A fresh copy of the event's valid data (an empty object for an event without a template). */
function templateOf(t: string): unknown {
  return Object.hasOwn(TEMPLATES, t) ? (TEMPLATES[t] as () => unknown)() : {};
}

/** A dispatch's data: its template, mutated a few times, or something else entirely. */
const dispatchData = (t: string): fc.Arbitrary<unknown> =>
  fc.oneof(
    { weight: 6, arbitrary: fc.array(mutation, { minLength: 1, maxLength: 3 }).map((steps) => steps.reduce((d, step) => mutate(d, step.path, step.action, step.value), templateOf(t))) },
    { weight: 1, arbitrary: hostile },
    { weight: 1, arbitrary: fc.constant(templateOf(t)) },
  );

/** The SDK's events (and a few it ignores), names that are an object's own keys, and any string. */
const eventName = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...Object.keys(TEMPLATES)) },
  { weight: 1, arbitrary: fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty') },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
);
const seq: fc.Arbitrary<unknown> = fc.oneof({ weight: 6, arbitrary: fc.nat({ max: 1_000_000 }) }, { weight: 1, arbitrary: hostile });

/** A dispatch frame (op 0) with mutated data, sometimes a bad `t` or `s`. */
const dispatchFrame: fc.Arbitrary<unknown> = eventName.chain((t) =>
  fc.record({ op: fc.constant(0), t: fc.oneof({ weight: 9, arbitrary: fc.constant<unknown>(t) }, { weight: 1, arbitrary: hostile }), s: seq, d: dispatchData(t) }),
);

/** The other opcodes, known (heartbeat request, ack, reconnect, invalid session, a late Hello) and unknown. */
const opFrame: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ op: fc.constantFrom(1, 11), d: hostile }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constantFrom(7, 9), d: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant(10), d: fc.oneof(hostile, fc.record({ heartbeat_interval: hostile })) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.oneof(hostile, fc.integer({ min: 12, max: 1000 })), d: hostile, s: seq, t: fc.option(fc.string({ maxLength: 8 })) }) },
);

/** A frame as it goes on the wire: JSON of a generated message, damaged JSON, or JSON that is no message. */
const wireFrame: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: dispatchFrame.map((frame) => JSON.stringify(frame) ?? 'null') },
  { weight: 3, arbitrary: opFrame.map((frame) => JSON.stringify(frame) ?? 'null') },
  { weight: 1, arbitrary: fc.tuple(dispatchFrame, fc.nat(), fc.string({ maxLength: 4 })).map(([frame, cut, junk]) => { const text = JSON.stringify(frame) ?? ''; return text.slice(0, cut % (text.length + 1)) + junk; }) },
  { weight: 1, arbitrary: hostile.map((value) => JSON.stringify(value) ?? 'null') },
);

/** A batch: frames on the live connection, and maybe a drop after which the next connection gets this Hello and READY. */
const batch = fc.record({
  frames: fc.array(wireFrame, { minLength: 1, maxLength: 8 }),
  reconnect: fc.oneof(
    { weight: 4, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.record({ hello: fc.oneof(fc.constant<unknown>(HELLO), opFrame, fc.record({ op: fc.constant(10), d: fc.record({ heartbeat_interval: hostile }) })), ready: dispatchData('READY') }) },
  ),
});

let sentinels = 0;

/** What the game reads from the SDK has the types it promises, whatever came before. */
function expectSaneState(game: GatewayGame): void {
  for (const id of game.client.getLobbyIds()) {
    const handle = game.client.getLobbyHandle(id);
    expect(typeof id).toBe('string');
    for (const value of Object.values(handle?.metadata ?? {})) expect(typeof value).toBe('string');
    for (const member of handle?.lobbyMembers ?? []) expect([typeof member.id, typeof member.flags]).toEqual(['string', 'number']);
  }
  for (const user of [game.client.getCurrentUserV2(), game.client.getUser('100000000000000003')]) {
    if (user === undefined) continue;
    expect([typeof user.username, typeof user.displayName, typeof user.status()]).toEqual(['string', 'string', 'number']);
  }
}

/** A good LOBBY_CREATE, sent on the live connection until the game is told of it (a batch may have dropped the connection). */
async function goodDispatchDelivered(game: GatewayGame): Promise<void> {
  sentinels += 1;
  const id = String(800000000000000000n + BigInt(sentinels));
  await vi.waitFor(
    () => {
      if (game.client.getPlatformStatus() === 'ready') game.fake.peer.dispatch('LOBBY_CREATE', lobby(id));
      expect(game.events).toContain(`lobbyCreated ${id}`);
    },
    { timeout: 8000, interval: 25 },
  );
}

describe(`issue 25 §2: the SDK's gateway client, fuzzed (seed ${SEED}; repeat with FUZZ_SEED=${SEED})`, () => {
  it(`${RUNS} batches of generated frames: no uncaught exception, and a good dispatch is still delivered after each`, async () => {
    const next: { hello: unknown[]; ready: unknown[] } = { hello: [], ready: [] };
    const game = await gatewayGame({
      hellos: () => (next.hello.length > 0 ? next.hello.splice(0) : [HELLO]),
      ready: (_n, fake) => (next.ready.length > 0 ? next.ready.shift() : fake.readyData()),
    });
    let frames = 0;
    await fc.assert(
      fc.asyncProperty(batch, async ({ frames: batchFrames, reconnect }) => {
        await vi.waitFor(() => expect(game.client.getPlatformStatus()).toBe('ready'), { timeout: 8000 });
        const peer = game.fake.peer;
        for (const frame of batchFrames) peer.send(frame);
        frames += batchFrames.length;
        if (reconnect !== null) {
          next.hello.push(reconnect.hello, HELLO);
          next.ready.push(reconnect.ready);
          peer.socket.close(4000, 'fuzz drop');
        }
        await goodDispatchDelivered(game);
        // What a bad Hello or READY left for the next connection is not carried further.
        next.hello.length = 0;
        next.ready.length = 0;
        expectSaneState(game);
        expect(uncaught).toEqual([]);
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    process.stdout.write(`sdk gateway fuzz seed ${SEED}: ${RUNS} batches, ${frames} frames, ${game.fake.peers.length} connections, ${game.logLines.length} log lines\n`);
    expect(game.logLines.join('\n')).not.toContain(GAME_TOKEN);
    expect(uncaught).toEqual([]);
  }, 90_000);
});
