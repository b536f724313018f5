import type { Server } from 'node:http';

/*
 * Node's HTTP server enforces `headersTimeout` and `requestTimeout` with an interval it starts
 * on 'listening' (`connectionsCheckingInterval`, 30 s) and runs until close, whether it holds a
 * connection or not: an idle `companion serve` (the emulator, the control API, the web UI, the
 * RPC WebSocket) woke 8 times a minute for nothing (issue 27 §4). This stops that interval while
 * the server holds no HTTP connection (a WebSocket, once upgraded, is not one) and starts it
 * again with the next connection; whenever there is a connection to time out, the timeouts are
 * enforced as before.
 *
 * It reaches into Node's internals: the interval and the connection list, found by their
 * symbols' descriptions (the same from Node 18 to 24), and the interval's callback. Where they
 * are not found, it changes nothing.
 */

const INTERVAL = 'http.server.connectionsCheckingInterval';
const CONNECTIONS = 'http.server.connections';
/** Node's default `connectionsCheckingInterval`. */
const DEFAULT_CHECKING_MS = 30_000;

interface NodeTimer {
  readonly _onTimeout: () => void;
  readonly _repeat: number | null;
}

interface ConnectionList {
  all(): readonly unknown[];
}

type Internals = Record<symbol, unknown>;

/** Keeps a server's connection-checking interval off while it holds no HTTP connection. */
export class IdleConnectionChecks {
  private check: (() => void) | undefined;
  private intervalMs = 0;
  private intervalKey: symbol | undefined;
  private connectionsKey: symbol | undefined;
  private paused = false;
  private watchingUpgrades = false;

  private constructor(private readonly server: Server) {}

  /** For `server` (before or after it listens). */
  static attach(server: Server): IdleConnectionChecks {
    const checks = new IdleConnectionChecks(server);
    // Node's own 'listening' listener (which starts the interval) was added by its constructor: it runs first.
    server.on('listening', () => checks.onListening());
    server.on('connection', (socket: NodeJS.EventEmitter) => {
      checks.resume();
      checks.watchUpgrades();
      socket.once('close', () => setImmediate(() => checks.pauseIfIdle()));
    });
    if (server.listening) checks.onListening();
    return checks;
  }

  /** Whether Node's connection-checking interval runs now (false too where it could not be found). */
  get armed(): boolean {
    return this.intervalKey !== undefined && (this.server as unknown as Internals)[this.intervalKey] !== undefined && !this.paused;
  }

  /**
   * An upgraded connection leaves Node's list: looked at once the upgrade is done. Only where the
   * server has an 'upgrade' listener of its own already (one more changes nothing Node does; a
   * first one would keep upgrade requests open that Node closes).
   */
  private watchUpgrades(): void {
    if (this.watchingUpgrades || this.server.listenerCount('upgrade') === 0) return;
    this.watchingUpgrades = true;
    this.server.on('upgrade', () => setImmediate(() => this.pauseIfIdle()));
  }

  private onListening(): void {
    const internals = this.server as unknown as Internals;
    const symbols = Object.getOwnPropertySymbols(this.server);
    this.intervalKey = symbols.find((symbol) => symbol.description === INTERVAL);
    this.connectionsKey = symbols.find((symbol) => symbol.description === CONNECTIONS);
    const timer = this.intervalKey === undefined ? undefined : (internals[this.intervalKey] as Partial<NodeTimer> | undefined);
    if (typeof timer?._onTimeout !== 'function' || this.connections() === undefined) {
      this.intervalKey = undefined;
      return;
    }
    this.check = timer._onTimeout;
    this.intervalMs = timer._repeat ?? DEFAULT_CHECKING_MS;
    this.paused = false;
    this.pauseIfIdle();
  }

  private connections(): ConnectionList | undefined {
    if (this.connectionsKey === undefined) return undefined;
    const list = (this.server as unknown as Internals)[this.connectionsKey] as Partial<ConnectionList> | undefined;
    return typeof list?.all === 'function' ? (list as ConnectionList) : undefined;
  }

  private pauseIfIdle(): void {
    if (this.paused || this.intervalKey === undefined || !this.server.listening || (this.connections()?.all().length ?? 1) > 0) return;
    clearInterval((this.server as unknown as Internals)[this.intervalKey] as NodeJS.Timeout | undefined);
    this.paused = true;
  }

  private resume(): void {
    if (!this.paused || this.intervalKey === undefined || this.check === undefined) return;
    const check = this.check;
    const timer = setInterval(() => {
      check();
      this.pauseIfIdle();
    }, this.intervalMs);
    timer.unref();
    // Where Node looks for it: close() clears it.
    (this.server as unknown as Internals)[this.intervalKey] = timer;
    this.paused = false;
  }
}
