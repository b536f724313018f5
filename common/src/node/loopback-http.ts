import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeServer } from './close-server.js';
import { http } from './http-module.js';
import { IdleConnectionChecks } from './idle-connection-checks.js';

export interface LoopbackHttp {
  readonly server: Server;
  readonly port: number;
  /** Node's connection checks, off while no connection is held (idle-connection-checks.ts). */
  readonly connectionChecks: IdleConnectionChecks;
  close(): Promise<void>;
}

/**
 * An HTTP server on an OS-chosen port of a loopback address, with bounded header and request
 * times and a plain 400 for a request that cannot be parsed; its request handler is attached by
 * the caller once it keeps the port.
 */
export async function listenLoopbackHttp(host = '127.0.0.1'): Promise<LoopbackHttp> {
  const server = http.createServer();
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  const connectionChecks = IdleConnectionChecks.attach(server);
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
  return { server, port: (server.address() as AddressInfo).port, connectionChecks, close: () => closeServer(server) };
}
