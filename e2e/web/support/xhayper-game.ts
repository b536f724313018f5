import { Client } from '@xhayper/discord-rpc';

/**
 * A game on the real @xhayper/discord-rpc client. The library finds the socket through
 * XDG_RUNTIME_DIR when it connects, so that is pointed at the host's runtime dir meanwhile.
 */
export interface XhayperGame {
  readonly client: Client;
  /** Every event the game received, as [evt, data]. */
  readonly events: [string, unknown][];
  /** The first event `evt` received (already, or later). */
  event(evt: string, timeoutMs?: number): Promise<unknown>;
  close(): Promise<void>;
}

const EVENTS = ['ACTIVITY_JOIN', 'ACTIVITY_JOIN_REQUEST', 'ACTIVITY_INVITE'] as const;

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export async function connectXhayper(runtimeDir: string, clientId: string): Promise<XhayperGame> {
  const previous = process.env['XDG_RUNTIME_DIR'];
  process.env['XDG_RUNTIME_DIR'] = runtimeDir;
  const client = new Client({ clientId });
  try {
    await within(client.connect(), 10_000, 'xhayper connect()');
  } finally {
    if (previous === undefined) delete process.env['XDG_RUNTIME_DIR'];
    else process.env['XDG_RUNTIME_DIR'] = previous;
  }
  const events: [string, unknown][] = [];
  const listeners = new Set<() => void>();
  for (const evt of EVENTS) {
    client.on(evt, (data: unknown) => {
      events.push([evt, data]);
      for (const listener of [...listeners]) listener();
    });
  }
  return {
    client,
    events,
    event(evt, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = (): boolean => {
          const found = events.find(([name]) => name === evt);
          if (found === undefined) return false;
          listeners.delete(onEvent);
          clearTimeout(timer);
          resolve(found[1]);
          return true;
        };
        const onEvent = (): void => void check();
        const timer = setTimeout(() => {
          listeners.delete(onEvent);
          reject(new Error(`no ${evt} within ${timeoutMs} ms; events: ${JSON.stringify(events)}`));
        }, timeoutMs);
        listeners.add(onEvent);
        check();
      });
    },
    async close() {
      await within(client.destroy(), 3000, 'xhayper destroy()').catch(() => undefined);
    },
  };
}
