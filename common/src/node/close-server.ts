import type { Server } from 'node:net';

export interface CloseServerOptions {
  /**
   * Runs once the server has stopped accepting connections and before the ones still open are
   * dropped: the place to close upgraded connections (WebSockets) gracefully.
   */
  readonly drain?: () => Promise<void>;
}

/**
 * Stops a server and resolves once it is closed. An HTTP server's remaining connections (idle
 * keep-alive sockets, ended event streams) are dropped, since they would hold `close` open.
 * A server that is not listening resolves at once (after `drain`).
 */
export async function closeServer(server: Server, options: CloseServerOptions = {}): Promise<void> {
  if (!server.listening) {
    await options.drain?.();
    return;
  }
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  await options.drain?.();
  // http.Server (and https.Server) only: a plain net.Server has no connections of its own to drop.
  (server as Server & { closeAllConnections?: () => void }).closeAllConnections?.();
  await closed;
}
