import type net from 'node:net';

/** How long a connection closed before it was served may take to say goodbye before it is cut. */
const CLOSE_GRACE_MS = 1000;

/**
 * Connections accepted on a socket bound before its server is ready (`companion serve` binds
 * first and starts the host after): each is held as it came, nothing read from it by anyone
 * but the socket's own buffer, so a handshake sent early is answered once the server is there,
 * in arrival order. `accept` is the listener's connection handler throughout; serve() hands
 * the held connections over and every later one goes straight through. A connection that
 * leaves while it waits is dropped from the queue; past `limit` held connections, a new one is
 * closed at once (the server's own cap would refuse it anyway).
 */
export class PendingConnections {
  private readonly held: { readonly socket: net.Socket; readonly onClose: () => void }[] = [];
  private handler: ((socket: net.Socket) => void) | undefined;
  private closed = false;

  constructor(private readonly limit: number) {}

  /** The listener's connection handler. */
  readonly accept = (socket: net.Socket): void => {
    if (this.handler !== undefined) return this.handler(socket);
    if (this.closed || this.held.length >= this.limit) return closeUnserved(socket);
    // Resets while it waits are normal; 'close' follows and takes it off the queue.
    const onClose = (): void => this.drop(socket);
    socket.on('error', ignoreError);
    socket.once('close', onClose);
    this.held.push({ socket, onClose });
  };

  /** Connections waiting to be served (the ones that left while waiting are not counted). */
  get waiting(): number {
    return this.held.length;
  }

  /** Hands every held connection to `handler` in arrival order; later ones go to it directly. */
  serve(handler: (socket: net.Socket) => void): void {
    if (this.closed) throw new Error('the pending connections were closed');
    this.handler = handler;
    for (const { socket, onClose } of this.held.splice(0)) {
      socket.off('error', ignoreError);
      socket.off('close', onClose);
      if (!socket.destroyed) handler(socket);
    }
  }

  /**
   * The server will not come (its start failed): every held connection is ended in order,
   * what it sent read and dropped so the close is orderly rather than a reset, and any later
   * one is closed at once. Once serve() has run this only stops later connections.
   */
  close(): void {
    this.closed = true;
    if (this.handler !== undefined) {
      this.handler = undefined;
      return;
    }
    for (const { socket } of this.held.splice(0)) closeUnserved(socket);
  }

  private drop(socket: net.Socket): void {
    const at = this.held.findIndex((entry) => entry.socket === socket);
    if (at >= 0) this.held.splice(at, 1);
  }
}

function ignoreError(): void {
  // handled by 'close'
}

function closeUnserved(socket: net.Socket): void {
  socket.on('error', ignoreError);
  socket.resume();
  socket.end();
  setTimeout(() => socket.destroy(), CLOSE_GRACE_MS).unref();
}
