import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { http } from '../../../common/src/node/http-module.js';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { closeServer } from '../../../common/src/node/close-server.js';
import { IdleConnectionChecks } from '../../../common/src/node/idle-connection-checks.js';
import type { GatewayServer } from '../gateway/server.js';

/** Ports the local RPC WebSocket transport probes; the emulator never takes one. */
export const RESERVED_PORTS = { first: 6463, last: 6472 } as const;
const PORT_ATTEMPTS = 20;

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

/** Another WebSocket endpoint on the same listener (the voice server): true when it took the upgrade. */
export interface UpgradeTaker {
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): boolean;
}

/** The HTTP server: `handler` for requests, the gateway for WebSocket upgrades (else 404). */
export function createPlatformHttpServer(handler: Handler, gateway: GatewayServer, others: readonly UpgradeTaker[] = []): Server {
  return withGateway(http.createServer(handler), gateway, others);
}

/** The same over TLS (https and wss), with the server certificate chain and its key (PEM). */
export function createPlatformHttpsServer(handler: Handler, gateway: GatewayServer, credentials: { readonly certChainPem: string; readonly keyPem: string }, others: readonly UpgradeTaker[] = []): Server {
  return withGateway(createTlsServer({ cert: credentials.certChainPem, key: credentials.keyPem }, handler), gateway, others);
}

function withGateway(server: Server, gateway: GatewayServer, others: readonly UpgradeTaker[]): Server {
  server.on('upgrade', (request, socket, head) => {
    if (!gateway.handleUpgrade(request, socket, head) && !others.some((taker) => taker.handleUpgrade(request, socket, head))) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    }
  });
  server.on('clientError', (_error, socket) => socket.destroy());
  // Node's connection checks only while an HTTP connection is held (issue 27 §4: idle wake-ups).
  IdleConnectionChecks.attach(server);
  return server;
}

/** Listens on the port, or on a free one outside the reserved range when it is 0. */
export async function listen(server: Server, host: string, port: number): Promise<number> {
  for (let attempt = 0; attempt < PORT_ATTEMPTS; attempt += 1) {
    await new Promise<void>((resolve, reject) => {
      const onError = (error: Error): void => reject(error);
      server.once('error', onError);
      server.listen(port, host, () => {
        server.off('error', onError);
        resolve();
      });
    });
    const got = (server.address() as AddressInfo).port;
    if (got < RESERVED_PORTS.first || got > RESERVED_PORTS.last) return got;
    await closeServer(server);
  }
  throw new Error(`no free port outside ${RESERVED_PORTS.first}-${RESERVED_PORTS.last} after ${PORT_ATTEMPTS} attempts`);
}

export { closeServer };
