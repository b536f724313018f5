import { Client, type Activity, type ClientResult, type ConnectionStatus } from '../../../../rpc/client/index.js';
import { RPC_EVENTS, type Env } from '../../../../rpc/src/index.js';

/** What a fake game reports, one record per thing that happened; `at` is epoch ms. */
export type FakeGameLine =
  | { readonly type: 'ready'; readonly at: number; readonly path: string | null; readonly user: { readonly id: string; readonly username: string } | null }
  | { readonly type: 'activity'; readonly at: number; readonly ok: boolean; readonly error?: string }
  | { readonly type: 'subscribed'; readonly at: number; readonly evt: string; readonly ok: boolean; readonly error?: string }
  | { readonly type: 'event'; readonly at: number; readonly evt: string; readonly data: unknown }
  | { readonly type: 'status'; readonly at: number; readonly status: ConnectionStatus; readonly detail: string | null; readonly close_code: number | null };

export interface FakeGameOptions {
  /** The application id the game handshakes as. */
  readonly clientId: string;
  /** Set (SET_ACTIVITY) once connected, and again after every reconnect. */
  readonly activity?: Activity;
  /** Events to SUBSCRIBE to once connected (kept across reconnects). */
  readonly subscribe?: readonly string[];
  /** Socket discovery environment (XDG_RUNTIME_DIR, ...); default process.env. */
  readonly env?: Env;
  /** Exactly these sockets instead of discovering them (a host's runtime file names its own). */
  readonly socketPaths?: readonly string[];
  /** Every line as it happens (the command prints them). */
  readonly onLine?: (line: FakeGameLine) => void;
  readonly requestTimeoutMs?: number;
  readonly now?: () => number;
}

/** The game could not start: no host, refused, or bad options. */
export class FakeGameError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FakeGameError';
  }
}

/** Event names a game may SUBSCRIBE to. */
export function subscribableEvents(): string[] {
  return Object.keys(RPC_EVENTS).sort();
}

/** Throws FakeGameError for a name the protocol does not know (the server would refuse it with 4004). */
export function checkEventNames(names: readonly string[]): void {
  for (const name of names) {
    if (!Object.hasOwn(RPC_EVENTS, name)) throw new FakeGameError(`unknown event '${name}' (known: ${subscribableEvents().join(', ')})`);
  }
}

/** One line of output: `EVT {json}` style text, or the record as JSON. */
export function formatLine(line: FakeGameLine, json: boolean): string {
  if (json) return JSON.stringify(line);
  switch (line.type) {
    case 'ready':
      return `READY as ${line.user?.username ?? '?'} (${line.user?.id ?? '-'}) on ${line.path ?? '?'}`;
    case 'activity':
      return line.ok ? 'ACTIVITY set' : `ACTIVITY refused: ${line.error ?? 'unknown error'}`;
    case 'subscribed':
      return line.ok ? `SUBSCRIBED ${line.evt}` : `SUBSCRIBE ${line.evt} refused: ${line.error ?? 'unknown error'}`;
    case 'event':
      return `${line.evt} ${JSON.stringify(line.data ?? null)}`;
    case 'status':
      return `STATUS ${line.status}${line.close_code === null ? '' : ` (${line.close_code})`}${line.detail === null ? '' : `: ${line.detail}`}`;
  }
}

interface Waiter {
  readonly evt: string;
  readonly match: (data: unknown) => boolean;
  readonly resolve: (data: unknown) => void;
}

/**
 * A small game on the project's own SDK client (`rpc/client`), for manual QA, demos and the
 * scenario runner: it connects, sets an activity, subscribes to events and records every
 * event it receives. It does nothing by itself about what it receives (no automatic answer to
 * a join request): the point is to see what a game would be told.
 */
export class FakeGame {
  readonly client: Client;
  readonly lines: FakeGameLine[] = [];
  private readonly waiters = new Set<Waiter>();
  private readonly now: () => number;

  private constructor(private readonly options: FakeGameOptions) {
    this.now = options.now ?? Date.now;
    this.client = new Client({
      ...(options.env === undefined ? {} : { env: options.env }),
      ...(options.requestTimeoutMs === undefined ? {} : { requestTimeoutMs: options.requestTimeoutMs }),
      ...(options.socketPaths === undefined ? {} : { connection: { socketPaths: options.socketPaths } }),
      // The SDK's own log would interleave with the game's output: errors only, to nowhere.
      logger: { sink: () => undefined },
    });
    this.client.setApplicationId(options.clientId);
  }

  /** Connects, sets the activity and subscribes; throws FakeGameError when no host takes it. */
  static async start(options: FakeGameOptions): Promise<FakeGame> {
    if (!/^[0-9]{1,20}$/.test(options.clientId)) throw new FakeGameError(`the client id must be an application id (digits), got '${options.clientId}'`);
    checkEventNames(options.subscribe ?? []);
    const game = new FakeGame(options);
    game.client.connection.on('event', (evt, data) => game.onEvent(evt, data));
    const connected = await game.client.connect();
    if (!connected.successful) {
      await game.client.disconnect();
      throw new FakeGameError(`could not connect: ${connected.error}`);
    }
    const user = game.client.getCurrentUser();
    game.record({ type: 'ready', at: game.now(), path: game.client.connection.path, user: user === null ? null : { id: user.id, username: user.username } });
    // Status changes after the first READY (drops, reconnects) are worth a line each.
    game.client.setStatusChangedCallback((status, detail, closeCode) => game.record({ type: 'status', at: game.now(), status, detail, close_code: closeCode }));
    if (options.activity !== undefined) await game.setActivity(options.activity);
    for (const evt of options.subscribe ?? []) await game.subscribe(evt);
    return game;
  }

  async setActivity(activity: Activity): Promise<ClientResult> {
    const result = await this.client.updateRichPresence(activity);
    this.record({ type: 'activity', at: this.now(), ok: result.successful, ...(result.successful ? {} : { error: describe(result) }) });
    return result;
  }

  /** SUBSCRIBE to any event; kept across reconnects. Refusals (4004, 4006) are recorded, not thrown. */
  async subscribe(evt: string): Promise<{ ok: boolean; error?: string }> {
    checkEventNames([evt]);
    try {
      await this.client.connection.subscribe(evt);
      this.record({ type: 'subscribed', at: this.now(), evt, ok: true });
      return { ok: true };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.record({ type: 'subscribed', at: this.now(), evt, ok: false, error: message });
      return { ok: false, error: message };
    }
  }

  /** Any command; resolves the reply's data, rejects with the SDK's RpcRequestError. */
  request(cmd: string, args: unknown = {}): Promise<unknown> {
    return this.client.connection.request(cmd, args);
  }

  /** Events received so far, optionally of one name. */
  events(evt?: string): { evt: string; data: unknown }[] {
    return this.lines.flatMap((line) => (line.type === 'event' && (evt === undefined || line.evt === evt) ? [{ evt: line.evt, data: line.data }] : []));
  }

  /** The data of the first event `evt` (already received or coming) that `match` accepts. */
  waitForEvent(evt: string, timeoutMs = 5000, match: (data: unknown) => boolean = () => true): Promise<unknown> {
    const seen = this.events(evt).find((event) => match(event.data));
    if (seen !== undefined) return Promise.resolve(seen.data);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(new Error(`no ${evt} within ${timeoutMs} ms`));
      }, timeoutMs);
      const waiter: Waiter = {
        evt,
        match,
        resolve: (data) => {
          clearTimeout(timer);
          this.waiters.delete(waiter);
          resolve(data);
        },
      };
      this.waiters.add(waiter);
    });
  }

  /** CLOSE and stop reconnecting. */
  async close(): Promise<void> {
    this.client.setStatusChangedCallback(undefined);
    await this.client.disconnect();
  }

  private onEvent(evt: string, data: unknown): void {
    this.record({ type: 'event', at: this.now(), evt, data });
    for (const waiter of [...this.waiters]) if (waiter.evt === evt && waiter.match(data)) waiter.resolve(data);
  }

  private record(line: FakeGameLine): void {
    this.lines.push(line);
    this.options.onLine?.(line);
  }
}

function describe(result: ClientResult): string {
  return result.errorCode === 0 ? result.error : `${result.errorCode} ${result.error}`;
}
