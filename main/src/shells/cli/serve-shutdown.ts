import type { Logger } from 'pino';
import type { Host } from '../../host/compose/host.js';
import { StopSignal, stopSignals } from './stop-signal.js';

/** Longer than the RPC server's close grace (5 s) for commands still running. */
const SHUTDOWN_TIMEOUT_MS = 8000;

/**
 * Catches the signals that ask the host to end (stopSignals: SIGINT, SIGTERM, SIGHUP, and on
 * Windows Ctrl+Break and the console's close) from the moment it is created, so a signal that
 * arrives while the host starts is not lost (the default action would leave the socket and
 * the runtime file behind).
 */
export class ShutdownOnSignal {
  private readonly signals: StopSignal;

  constructor(platform: NodeJS.Platform = process.platform) {
    this.signals = new StopSignal(stopSignals(platform));
  }

  dispose(): void {
    this.signals.dispose();
  }

  /** Resolves with the exit code once a signal has shut the host down. */
  async closeOnSignal(host: Host, logger: Logger): Promise<number> {
    // Last resort if the process exits some other way: remove our socket files synchronously.
    process.on('exit', () => host.removeSocketFilesSync());
    await this.signals.wait();
    // A second Ctrl+C from now on ends the process at once, as usual.
    this.dispose();
    logger.info({ signal: this.signals.received }, 'shutting down');
    const timer = setTimeout(() => {
      logger.warn({ timeoutMs: SHUTDOWN_TIMEOUT_MS }, 'shutdown took too long; exiting');
      process.exit(1);
    }, SHUTDOWN_TIMEOUT_MS);
    timer.unref();
    try {
      await host.close();
      return 0;
    } catch (error) {
      logger.error({ error: error instanceof Error ? error.message : String(error) }, 'shutdown failed');
      return 1;
    } finally {
      clearTimeout(timer);
    }
  }
}
