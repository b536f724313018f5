import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { deadline } from '../src/deadline.js';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve())));
  server = undefined;
});

/** A loopback server that reads each request and never answers it. */
async function silentServer(): Promise<string> {
  server = createServer((request) => request.resume());
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

describe('deadline', () => {
  it('a request to a server that never answers ends with a TimeoutError, and says it timed out', async () => {
    const url = await silentServer();
    const timer = deadline(100);
    const failure = await fetch(url, { signal: timer.signal }).then(
      () => undefined,
      (error: unknown) => error,
    );
    timer.end();
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).name).toBe('TimeoutError');
    expect(timer.timedOut()).toBe(true);
  });

  it('follows the outer signal (not a timeout), and end() lets go of the outer one', async () => {
    const outer = new AbortController();
    const timer = deadline(60_000, outer.signal);
    outer.abort(new Error('closing'));
    expect(timer.signal.aborted).toBe(true);
    expect(timer.timedOut()).toBe(false);
    timer.end();

    const later = new AbortController();
    const ended = deadline(60_000, later.signal);
    ended.end();
    later.abort();
    expect(ended.signal.aborted).toBe(false);
  });

  it('an outer signal already aborted aborts at once', () => {
    const timer = deadline(60_000, AbortSignal.abort());
    expect(timer.signal.aborted).toBe(true);
    timer.end();
  });
});
