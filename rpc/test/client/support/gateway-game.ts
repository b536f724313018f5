import { afterEach, beforeEach, expect, vi } from 'vitest';
import { Client, type PlatformStatus } from '../../../client/index.js';
import { FakeGateway, type FakeGatewayOptions } from './fake-gateway.js';

/**
 * A real companion/client Client whose own platform session talks to a {@link FakeGateway}, with
 * what the game sees recorded: its platform status changes (and why), its lobby and message
 * callbacks, and its log lines. Every uncaught exception and unhandled rejection of the process
 * while a test runs is recorded too (`uncaught`): the SDK must cause none.
 */

export const GAME_TOKEN = 'game-token-never-logged-0123456789';

export interface GatewayGame {
  readonly fake: FakeGateway;
  readonly client: Client;
  readonly statuses: [PlatformStatus, string | null][];
  /** `lobbyCreated <id>`, `messageCreated <id>`, ... in order. */
  readonly events: string[];
  readonly logLines: string[];
}

export const uncaught: unknown[] = [];
const onUncaught = (error: unknown): void => void uncaught.push(error);
const cleanups: (() => Promise<void>)[] = [];

beforeEach(() => {
  uncaught.length = 0;
  process.on('uncaughtException', onUncaught);
  process.on('unhandledRejection', onUncaught);
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  process.off('uncaughtException', onUncaught);
  process.off('unhandledRejection', onUncaught);
});

/** A game holding a token, its platform session opened against a fresh fake gateway; it waits for READY unless `waitReady` is false. */
export async function gatewayGame(options: FakeGatewayOptions & { readonly waitReady?: boolean } = {}): Promise<GatewayGame> {
  const fake = await FakeGateway.start(options);
  cleanups.push(() => fake.close());
  const logLines: string[] = [];
  const client = new Client({
    platformBase: fake.base,
    logger: { sink: (line) => void logLines.push(line) },
    connection: { socketPaths: [] },
    platformConnection: { backoff: { initialMs: 20, maxMs: 100, random: () => 0.5 } },
  });
  cleanups.push(() => client.disconnect());
  const statuses: [PlatformStatus, string | null][] = [];
  client.setPlatformStatusChangedCallback((status, detail) => statuses.push([status, detail]));
  const events: string[] = [];
  const record =
    (name: string) =>
    (...ids: string[]): void =>
      void events.push(`${name} ${ids.join(' ')}`);
  client.setLobbyCallbacks({
    lobbyCreated: record('lobbyCreated'),
    lobbyUpdated: record('lobbyUpdated'),
    lobbyDeleted: record('lobbyDeleted'),
    memberAdded: record('memberAdded'),
    memberUpdated: record('memberUpdated'),
    memberRemoved: record('memberRemoved'),
    messageCreated: record('messageCreated'),
    messageUpdated: record('messageUpdated'),
    messageDeleted: record('messageDeleted'),
  });
  expect((await client.updateToken('Bearer', GAME_TOKEN)).successful).toBe(true);
  if (options.waitReady !== false) await vi.waitFor(() => expect(client.getPlatformStatus()).toBe('ready'), { timeout: 5000 });
  return { fake, client, statuses, events, logLines };
}

export const LOBBY_ID = '500000000000000001';
export const OWNER_ID = '100000000000000001';

export function lobby(id = LOBBY_ID): Record<string, unknown> {
  return { id, application_id: '400000000000000001', metadata: { map: 'harbour' }, members: [{ id: OWNER_ID, metadata: null, flags: 0, connected: true }] };
}

export function message(id: string, content = 'gg'): Record<string, unknown> {
  return {
    id,
    type: 0,
    content,
    lobby_id: LOBBY_ID,
    channel_id: LOBBY_ID,
    author: { id: OWNER_ID, username: 'player' },
    flags: 0,
    application_id: '400000000000000001',
    timestamp: new Date(0).toISOString(),
  };
}
