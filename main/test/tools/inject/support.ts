import { afterEach, beforeEach, expect } from 'vitest';
import { FakeGame } from '../../../src/tools/fake-game/fake-game.js';
import { controlCall, World, type Player } from '../../e2e/support/world.js';
import type { Host } from '../../../src/host/compose/host.js';

/** A test's world: alice signed in, and the fake games to close once the test is over. */
export interface AliceWorld {
  readonly world: World;
  readonly alice: Player;
  readonly games: FakeGame[];
}

/**
 * A fresh World with alice signed in for each test of the file (call it at the top level). After
 * each test the games pushed to `games` are closed, then the world.
 */
export function aliceWorldPerTest(): AliceWorld {
  let world: World | undefined;
  let alice: Player | undefined;
  const games: FakeGame[] = [];
  beforeEach(async () => {
    world = await World.start();
    alice = await world.player('alice', { qa: true });
  });
  afterEach(async () => {
    for (const game of games.splice(0)) await game.close();
    await world?.close();
    world = undefined;
    alice = undefined;
  });
  const during = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the world exists only while a test runs');
    return value;
  };
  return {
    get world() {
      return during(world);
    },
    get alice() {
      return during(alice);
    },
    games,
  };
}

/** A fake game on `runtimeDir`'s host whose activity state names it, so GET /v1/games tells it apart. */
export async function namedGame(runtimeDir: string, clientId: string, name: string, subscribe: readonly string[] = []): Promise<FakeGame> {
  return FakeGame.start({
    clientId,
    env: { XDG_RUNTIME_DIR: runtimeDir },
    activity: { state: name, details: 'injection target' },
    subscribe,
  });
}

/** Waits until GET /v1/games lists the game named `name` and returns its connection id. */
export async function connectionIdOf(player: Pick<Player, 'control'>, name: string): Promise<string> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const { body } = await player.control('GET', '/v1/games');
    const game = (body.games as { connection_id: string; activity: { state?: string } | null }[]).find((row) => row.activity?.state === name);
    if (game !== undefined) return game.connection_id;
    if (Date.now() > deadline) throw new Error(`no game named ${name} in GET /v1/games`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** POST /v1/inject/event, expecting 200. */
export async function inject(host: Host, body: Record<string, unknown>): Promise<{ connection_id: string; evt: string; subscribed: boolean; delivered: boolean }> {
  const reply = await controlCall(host, 'POST', '/v1/inject/event', body);
  expect(reply.status, reply.text).toBe(200);
  return reply.body;
}

/** Lets frames in flight arrive, for assertions that nothing else came. */
export function settle(ms = 150): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
