import type { Logger } from 'pino';
import type { Host } from '../../host/compose/host.js';
import { StopSignal } from './stop-signal.js';

const SHUTDOWN_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
/** Longer than the RPC server's close grace (5 s) for commands still running. */
const SHUTDOWN_TIMEOUT_MS = 8000;

/**
 * Catches SIGINT, SIGTERM and SIGHUP from the moment it is created, so a signal that arrives
 * while the host starts is not lost (the default action would leave the socket behind).
 */
export class ShutdownOnSignal {
  private readonly signals = new StopSignal(SHUTDOWN_SIGNALS);

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
