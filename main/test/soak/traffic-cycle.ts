/* eslint-disable @typescript-eslint/no-explicit-any -- replies are arbitrary JSON checked field by field */
/**
 * One cycle of the traffic a host sees in a player's session, every client closed at the end:
 * a game on raw framing (a burst of SET_ACTIVITY, SUBSCRIBE, a clear, a clean close), one
 * that dies with a request in flight, a game on the real @xhayper/discord-rpc client, a web
 * page on the RPC WebSocket (when the host has one), the UI page over its bridge, the control
 * API, and protocol violations. Every reply is checked, so a host that stops answering
 * properly fails the cycle rather than only leaking.
 */
import { Buffer } from 'node:buffer';
import { encodeRawFrame, Opcode } from '../../../rpc/src/index.js';
import { within } from '../../../rpc/test/compat/helpers.js';
import { RawClient } from '../../../rpc/test/support/raw-client.js';
import { WsClient } from '../../../rpc/test/support/ws-client.js';
import { connectGame, DEMO_APP_ID, type Game } from '../e2e/support/world.js';
import { BridgeClient } from '../host/ui-bridge/support.js';
import { controlGet } from './control-get.js';
import type { SoakTarget } from './soak-host.js';

/** The raw games' application: registered with the embedded emulator on first use. */
const SOAK_APP_ID = '223456789012345678';

const BURST_SIZE = 5;
/**
 * How long any reply may take. The host answers in milliseconds; the margin is for a CI
 * machine busy with other test files, which over hundreds of waits stalls now and then.
 */
const REPLY_TIMEOUT_MS = 10_000;

export interface CycleTally {
  /** Connections opened: IPC, WebSocket, bridge and control API. */
  connections: number;
  /** RPC commands sent. */
  requests: number;
}

export interface CycleHooks {
  /** Called once while every game of the cycle is connected. */
  readonly whileConnected?: () => void;
}

function activity(cycle: number, n: number): Record<string, unknown> {
  return {
    state: `Round ${n + 1} of ${BURST_SIZE}`,
    details: `Soak cycle ${cycle}`,
    timestamps: { start: 1_760_000_000_000 + cycle * 1000 },
    assets: { large_image: 'map_large', large_text: 'The map', small_image: 'rank', small_text: 'Rank 3' },
    party: { id: `party-${cycle}`, size: [1 + (n % 4), 4] },
    buttons: [{ label: 'Watch', url: 'https://play.example.com/watch' }],
    instance: false,
  };
}

function expectReply(reply: any, cmd: string, what: string): void {
  if (reply?.cmd !== cmd || reply.evt === 'ERROR') throw new Error(`${what}: expected a ${cmd} reply, got ${JSON.stringify(reply)}`);
}

/** The next frames up to the replies of every nonce in `nonces` (events in between are skipped). */
async function repliesTo(client: RawClient, nonces: readonly string[]): Promise<Map<string, any>> {
  const replies = new Map<string, any>();
  while (replies.size < nonces.length) {
    const { payload } = await client.next(REPLY_TIMEOUT_MS);
    if (nonces.includes(payload?.nonce)) replies.set(payload.nonce, payload);
  }
  return replies;
}

let nonces = 0;
async function request(client: RawClient, cmd: string, args: unknown, extra: Record<string, unknown> = {}): Promise<any> {
  const nonce = `soak-request-${++nonces}`;
  client.send(Opcode.Frame, { cmd, args, nonce, ...extra });
  return (await repliesTo(client, [nonce])).get(nonce);
}

/** A raw connection that completed the handshake (READY received). */
async function readyClient(ipcPath: string): Promise<RawClient> {
  const client = await RawClient.connect(ipcPath);
  client.send(Opcode.Handshake, { v: 1, client_id: SOAK_APP_ID });
  const { payload } = await client.next(REPLY_TIMEOUT_MS);
  if (payload?.evt !== 'READY') {
    client.close();
    throw new Error(`no READY: ${JSON.stringify(payload)}`);
  }
  return client;
}

/** A game on raw framing, left connected with an activity and a subscription. */
async function rawGame(target: SoakTarget, cycle: number, tally: CycleTally): Promise<RawClient> {
  const client = await readyClient(target.ipcPath);
  tally.connections += 1;
  const burst = Array.from({ length: BURST_SIZE }, (_, n) => `soak-${cycle}-${n}`);
  // The burst goes out in one write, as a game that updates several times per frame sends it.
  client.sendRaw(Buffer.concat(burst.map((nonce, n) => encodeRawFrame(Opcode.Frame, JSON.stringify({ cmd: 'SET_ACTIVITY', args: { pid: process.pid, activity: activity(cycle, n) }, nonce })))));
  tally.requests += BURST_SIZE;
  const replies = await repliesTo(client, burst);
  burst.forEach((nonce, n) => {
    const reply = replies.get(nonce);
    expectReply(reply, 'SET_ACTIVITY', `burst reply ${n}`);
    if (reply.data?.state !== `Round ${n + 1} of ${BURST_SIZE}`) throw new Error(`burst reply ${n} carries ${JSON.stringify(reply.data)}`);
  });
  expectReply(await request(client, 'SUBSCRIBE', {}, { evt: 'ACTIVITY_JOIN' }), 'SUBSCRIBE', 'raw game SUBSCRIBE');
  tally.requests += 1;
  return client;
}

/** A game that crashes: its socket is destroyed with a SET_ACTIVITY not yet answered. */
async function crashingGame(target: SoakTarget, cycle: number, tally: CycleTally): Promise<void> {
  const client = await readyClient(target.ipcPath);
  tally.connections += 1;
  client.send(Opcode.Frame, { cmd: 'SET_ACTIVITY', args: { pid: process.pid, activity: activity(cycle, 0) }, nonce: `crash-${cycle}` });
  tally.requests += 1;
  client.close();
  await client.closed;
}

/** A game on @xhayper/discord-rpc, left connected with an activity and a subscription. */
async function libraryGame(target: SoakTarget, cycle: number, tally: CycleTally): Promise<Game> {
  const game = await connectGame(target.runtimeDir, DEMO_APP_ID);
  tally.connections += 1;
  const reply = await within(game.client.user!.setActivity({ state: 'In the lobby', details: `Soak cycle ${cycle}`, startTimestamp: 1_760_000_000_000, partyId: 'lobby', partySize: 1, partyMax: 8 }), REPLY_TIMEOUT_MS, 'xhayper setActivity');
  if (reply.state !== 'In the lobby') throw new Error(`xhayper setActivity answered ${JSON.stringify(reply)}`);
  await within(game.subscribe('ACTIVITY_JOIN_REQUEST'), REPLY_TIMEOUT_MS, 'xhayper subscribe');
  tally.requests += 2;
  return game;
}

/** A web page's game on the RPC WebSocket (no Origin: a local app), left connected. */
async function webSocketGame(port: number, cycle: number, tally: CycleTally): Promise<WsClient> {
  const client = WsClient.open(port, `v=1&client_id=${DEMO_APP_ID}&encoding=json`);
  tally.connections += 1;
  const ready = await client.next(REPLY_TIMEOUT_MS);
  if (ready?.evt !== 'READY') {
    client.close();
    throw new Error(`WebSocket game: no READY: ${JSON.stringify(ready)}`);
  }
  const nonce = `ws-${cycle}`;
  client.send({ cmd: 'SET_ACTIVITY', args: { pid: process.pid, activity: { state: 'In the browser', details: `Soak cycle ${cycle}` } }, nonce });
  tally.requests += 1;
  let reply = await client.next(REPLY_TIMEOUT_MS);
  while (reply?.nonce !== nonce) reply = await client.next(REPLY_TIMEOUT_MS);
  expectReply(reply, 'SET_ACTIVITY', 'WebSocket SET_ACTIVITY');
  return client;
}

/** The UI page: opens the bridge with the session cookie and loads its snapshot. */
async function uiPage(target: SoakTarget, tally: CycleTally): Promise<BridgeClient> {
  const page = await BridgeClient.open(target.webUi.port, target.webUi.cookie);
  tally.connections += 1;
  page.sendRaw(JSON.stringify({ id: 1, channel: 'companion:ready', args: [] }));
  const reply = await page.waitFor((message) => message.id === 1, 'the reply to companion:ready', REPLY_TIMEOUT_MS);
  if (reply.ok !== true) throw new Error(`the bridge's companion:ready failed: ${JSON.stringify(reply)}`);
  return page;
}

/** What the player's tools see while the games are up. */
async function controlCalls(target: SoakTarget, tally: CycleTally): Promise<void> {
  const [games, presence] = await Promise.all([controlGet(target.control, '/v1/games'), controlGet(target.control, '/v1/presence')]);
  tally.connections += 2;
  if (games.status !== 200 || presence.status !== 200) throw new Error(`control API: /v1/games ${games.status}, /v1/presence ${presence.status}`);
  const apps = new Set((games.body.games as any[]).map((game) => game.client_id));
  if (!apps.has(SOAK_APP_ID) || !apps.has(DEMO_APP_ID)) throw new Error(`/v1/games misses a connected game: ${JSON.stringify(games.body)}`);
}

const VIOLATIONS: readonly { readonly name: string; readonly handshake: boolean; readonly bytes: () => Buffer }[] = [
  { name: 'bad JSON', handshake: true, bytes: () => encodeRawFrame(Opcode.Frame, '{"cmd":"SET_ACTIVITY","args":') },
  {
    name: 'a 1 GiB frame announced',
    handshake: true,
    bytes: () => {
      const header = Buffer.alloc(8);
      header.writeUInt32LE(Opcode.Frame, 0);
      header.writeUInt32LE(1 << 30, 4);
      return header;
    },
  },
  { name: 'a FRAME before the HANDSHAKE', handshake: false, bytes: () => encodeRawFrame(Opcode.Frame, '{"cmd":"SET_ACTIVITY","nonce":"early"}') },
  { name: 'an unknown opcode', handshake: true, bytes: () => encodeRawFrame(7, '{}') },
];

/** Bad JSON every cycle, and one of the other violations in turn: each must end with CLOSE 1003. */
async function protocolViolations(target: SoakTarget, cycle: number, tally: CycleTally): Promise<void> {
  const rotating = VIOLATIONS[1 + (cycle % (VIOLATIONS.length - 1))]!;
  for (const violation of [VIOLATIONS[0]!, rotating]) {
    const client = violation.handshake ? await readyClient(target.ipcPath) : await RawClient.connect(target.ipcPath);
    tally.connections += 1;
    client.sendRaw(violation.bytes());
    const close = await client.next(REPLY_TIMEOUT_MS);
    if (close.opcode !== Opcode.Close || close.payload?.code !== 1003) {
      client.close();
      throw new Error(`${violation.name}: expected CLOSE 1003, got ${JSON.stringify(close)}`);
    }
    await within(client.closed, REPLY_TIMEOUT_MS, `the host closing the connection after ${violation.name}`);
  }
}

/** Clears the game's activity, then half-closes as a game that exits properly. */
async function leaveCleanly(client: RawClient, tally: CycleTally): Promise<void> {
  expectReply(await request(client, 'SET_ACTIVITY', { pid: process.pid }), 'SET_ACTIVITY', 'raw game clear');
  tally.requests += 1;
  client.socket.end();
  await within(client.closed, REPLY_TIMEOUT_MS, 'the host closing after the raw game left');
}

async function leaveLibraryGame(game: Game, tally: CycleTally): Promise<void> {
  await within(game.client.user!.clearActivity(), REPLY_TIMEOUT_MS, 'xhayper clearActivity');
  tally.requests += 1;
  await within(game.client.destroy(), REPLY_TIMEOUT_MS, 'xhayper destroy');
}

async function leavePage(page: BridgeClient): Promise<void> {
  page.close();
  await within(page.closed, REPLY_TIMEOUT_MS, 'the bridge closing');
}

/** Runs one cycle; every client it opened is closed when it resolves, and destroyed when it rejects. */
export async function runTrafficCycle(target: SoakTarget, cycle: number, hooks: CycleHooks = {}): Promise<CycleTally> {
  const tally: CycleTally = { connections: 0, requests: 0 };
  const openClients: { close(): unknown }[] = [];
  const opened = <T extends { close(): unknown }>(client: T): T => {
    openClients.push(client);
    return client;
  };
  try {
    const [raw, game, ws, page] = await Promise.all([
      rawGame(target, cycle, tally).then(opened),
      libraryGame(target, cycle, tally).then((connected) => {
        opened({ close: () => connected.client.destroy().catch(() => undefined) });
        return connected;
      }),
      target.rpcWebSocketPort === null ? Promise.resolve(null) : webSocketGame(target.rpcWebSocketPort, cycle, tally).then(opened),
      uiPage(target, tally).then(opened),
      crashingGame(target, cycle, tally),
    ]);
    await controlCalls(target, tally);
    hooks.whileConnected?.();
    await protocolViolations(target, cycle, tally);
    // The WebSocket game alternates between a closing handshake and a dropped connection.
    if (ws !== null) {
      if (cycle % 2 === 0) ws.ws.close(1000);
      else ws.close();
      await within(ws.ended, REPLY_TIMEOUT_MS, 'the WebSocket game ending');
    }
    await Promise.all([leaveCleanly(raw, tally), leaveLibraryGame(game, tally), leavePage(page)]);
    return tally;
  } catch (error) {
    for (const client of openClients) client.close();
    throw error;
  }
}
