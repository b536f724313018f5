import { EventEmitter } from 'node:events';
import { FakeGame, type FakeGameLine } from '../fake-game/fake-game.js';
import { probeUntil } from './waiting.js';

type EventLine = Extract<FakeGameLine, { type: 'event' }>;
type StatusLine = Extract<FakeGameLine, { type: 'status' }>;

/**
 * A scenario's game: a FakeGame (the project's SDK) under the name the scenario gave it, with
 * what the runner needs on top: which received events an expect_event has already used, its
 * connection id on the host (for injection), and a way to wait for its next line.
 */
export class GameEntry {
  /** The host's id for this connection (GET /v1/games); changes when the game reconnects. */
  connectionId: string | null = null;
  private readonly consumed = new Set<EventLine>();

  private constructor(
    readonly name: string,
    readonly clientId: string,
    readonly game: FakeGame,
    private readonly lineEvents: EventEmitter<{ line: [] }>,
  ) {}

  /** Connects through `socketPath` only; throws FakeGameError when the host refuses. */
  static async connect(name: string, clientId: string, socketPath: string): Promise<GameEntry> {
    const lineEvents = new EventEmitter<{ line: [] }>();
    const game = await FakeGame.start({ clientId, env: {}, socketPaths: [socketPath], onLine: () => lineEvents.emit('line') });
    return new GameEntry(name, clientId, game, lineEvents);
  }

  /** Received events of `evt` that no expect_event has used yet. */
  unusedEvents(evt: string): EventLine[] {
    return this.game.lines.filter((line): line is EventLine => line.type === 'event' && line.evt === evt && !this.consumed.has(line));
  }

  use(line: EventLine): void {
    this.consumed.add(line);
  }

  statusLines(): StatusLine[] {
    return this.game.lines.filter((line): line is StatusLine => line.type === 'status');
  }

  /**
   * Resolves the first value `probe` gives (checked now and after every new line), or
   * undefined after `timeoutMs`.
   */
  waitFor<T>(probe: () => T | undefined, timeoutMs: number): Promise<T | undefined> {
    return probeUntil(this.lineEvents, 'line', probe, timeoutMs);
  }

  close(): Promise<void> {
    return this.game.close();
  }
}
