import { createRequire } from 'node:module';
import type * as Ws from 'ws';

/**
 * `ws`, loaded with `require`: the one loader rpc/, platform/ and main/ use. Importing a
 * CommonJS package from an ES module makes Node scan it for named exports (cjs-module-lexer),
 * which costs the host about 3 MiB of resident memory that it keeps for its whole life (the
 * README's idle RSS figures: 65.3 MiB before loading with `require`, 62.6 after); `require`
 * skips that. Types come from the package as usual.
 */
const ws = createRequire(import.meta.url)('ws') as typeof Ws;

export const WebSocket = ws.WebSocket;
export type WebSocket = Ws.WebSocket;
export const WebSocketServer = ws.WebSocketServer;
export type WebSocketServer = Ws.WebSocketServer;
export type RawData = Ws.RawData;
