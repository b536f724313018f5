/**
 * issue 27 §1 (b): the ways a Windows process is asked to end. Node on Windows raises SIGINT
 * for Ctrl+C, SIGBREAK for Ctrl+Break and SIGHUP when the console window closes; it has no
 * SIGTERM a process could catch. `companion serve` shuts down cleanly on each (the signal is
 * emitted here with the platform injected; main/test/windows/ sends a real Ctrl+C under Wine).
 */
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { Host } from '../../../src/host/compose/host.js';
import { ShutdownOnSignal } from '../../../src/shells/cli/serve-shutdown.js';
import { stopSignals } from '../../../src/shells/cli/stop-signal.js';

const logger = pino({ level: 'silent' });
let shutdown: ShutdownOnSignal | undefined;
afterEach(() => shutdown?.dispose());

/** Enough of a host for the shutdown: counts its close. */
function fakeHost(): { host: Host; closes: () => number } {
  let closes = 0;
  const host = {
    close: async () => {
      closes += 1;
    },
    removeSocketFilesSync: () => undefined,
  } as unknown as Host;
  return { host, closes: () => closes };
}

describe('issue 27 §1: a Windows host ends cleanly however it is asked to', () => {
  it('on Windows: Ctrl+C, Ctrl+Break and the console closing; elsewhere SIGINT, SIGTERM, SIGHUP', () => {
    expect([...stopSignals('win32')].sort()).toEqual(['SIGBREAK', 'SIGHUP', 'SIGINT', 'SIGTERM']);
    expect([...stopSignals('linux')].sort()).toEqual(['SIGHUP', 'SIGINT', 'SIGTERM']);
  });

  for (const signal of ['SIGBREAK', 'SIGHUP', 'SIGINT'] as const) {
    it(`${signal} on Windows closes the host (its runtime file and pipe go with it) and exits 0`, async () => {
      shutdown = new ShutdownOnSignal('win32');
      const { host, closes } = fakeHost();
      const exited = shutdown.closeOnSignal(host, logger);
      process.emit(signal, signal);
      expect(await exited).toBe(0);
      expect(closes()).toBe(1);
    });
  }
});
