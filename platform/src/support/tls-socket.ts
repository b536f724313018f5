import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';

/** Whether the request (or WebSocket upgrade) came over the emulator's TLS listener. */
export function cameOverTls(request: IncomingMessage): boolean {
  return (request.socket as Partial<TLSSocket>).encrypted === true;
}

/** The scheme of the listener a request came over. */
export function schemeOf(request: IncomingMessage): 'http' | 'https' {
  return cameOverTls(request) ? 'https' : 'http';
}
