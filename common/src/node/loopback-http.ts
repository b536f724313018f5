import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeServer } from './close-server.js';

export interface LoopbackHttp {
  readonly server: Server;
  readonly port: number;
  close(): Promise<void>;
}

/**
 * An HTTP server on an OS-chosen port of a loopback address, with bounded header and request
 * times and a plain 400 for a request that cannot be parsed; its request handler is attached by
 * the caller once it keeps the port.
 */
export async function listenLoopbackHttp(host = '127.0.0.1'): Promise<LoopbackHttp> {
  const server = createServer();
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('clientError', (_error, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    else socket.destroy();
  });
  return { server, port: (server.address() as AddressInfo).port, close: () => closeServer(server) };
}
