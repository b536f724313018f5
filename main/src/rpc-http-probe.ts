import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RpcLogger } from '../../rpc/src/index.js';

/** The real client's HTTP/WebSocket RPC ports; npm discord-rpc probes them after AUTHORIZE. */
export const RPC_HTTP_PORTS: readonly number[] = Array.from({ length: 10 }, (_, i) => 6463 + i);

/** The body of every answer: the platform API's 404 form. */
export const PROBE_NOT_FOUND_BODY = JSON.stringify({ message: '404: Not Found', code: 0 });

export interface RpcHttpProbeOptions {
  readonly host?: string;
  /** Tried in order; the first free one is taken (default 6463-6472). */
  readonly ports?: readonly number[];
  readonly logger?: RpcLogger;
}

export interface RpcHttpProbe {
  readonly host: string;
  readonly port: number;
  /** Stops listening and ends open connections. */
  close(): Promise<void>;
}

export type RpcHttpProbeResult = { readonly probe: RpcHttpProbe } | { readonly probe: null; readonly reason: string };

/** Errors that mean "try the next port". */
const PORT_UNAVAILABLE = new Set(['EADDRINUSE', 'EACCES']);

/**
 * Answers every HTTP request on the first free port of 127.0.0.1:6463-6472 with 404. npm
 * `discord-rpc` probes `GET /` there after any successful AUTHORIZE and emits an error when no
 * port answers; a 404 is what the real client's RPC server gives. Resolves `{probe: null,
 * reason}` when no port is free (Discord itself may hold them): games then see npm's error,
 * nothing else breaks.
 */
export async function startRpcHttpProbe(options: RpcHttpProbeOptions = {}): Promise<RpcHttpProbeResult> {
  const host = options.host ?? '127.0.0.1';
  const ports = options.ports ?? RPC_HTTP_PORTS;
  const taken: number[] = [];
  for (const port of ports) {
    const server = http.createServer((request, response) => {
      request.resume();
      response.writeHead(404, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(PROBE_NOT_FOUND_BODY) });
      response.end(PROBE_NOT_FOUND_BODY);
    });
    const outcome = await listen(server, host, port);
    if (outcome === 'listening') {
      const bound = (server.address() as AddressInfo).port;
      options.logger?.debug({ port: bound, skipped: taken }, 'rpc http probe listening');
      return { probe: { host, port: bound, close: () => closeServer(server) } };
    }
    if (!PORT_UNAVAILABLE.has(outcome.code ?? '')) {
      return { probe: null, reason: `cannot listen on ${host}:${port}: ${outcome.code ?? outcome.message}` };
    }
    taken.push(port);
  }
  const range = ports.length === 0 ? 'no ports given' : `${host}:${ports.join(', ')}`;
  return { probe: null, reason: `every RPC HTTP port is taken (${range})` };
}

function listen(server: http.Server, host: string, port: number): Promise<'listening' | NodeJS.ErrnoException> {
  return new Promise((resolve) => {
    const onError = (error: NodeJS.ErrnoException): void => {
      server.off('listening', onListening);
      resolve(error);
    };
    const onListening = (): void => {
      server.off('error', onError);
      resolve('listening');
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen({ host, port, exclusive: true });
  });
}

function closeServer(server: http.Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) {
      resolve();
      return;
    }
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
