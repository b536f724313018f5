import { createRequire } from 'node:module';
import type * as Ws from 'ws';

/**
 * `ws`, loaded with `require`. (The platform layer imports nothing of ours, hence its own copy of rpc/src/transport/ws-module.ts.) Importing a CommonJS package from an ES module makes Node scan
 * it for named exports (cjs-module-lexer), which costs the host about 3 MiB of resident memory
 * that it keeps for its whole life; `require` skips that. Types come from the package as usual.
 */
const ws = createRequire(import.meta.url)('ws') as typeof Ws;

export const WebSocket = ws.WebSocket;
export type WebSocket = Ws.WebSocket;
export const WebSocketServer = ws.WebSocketServer;
export type WebSocketServer = Ws.WebSocketServer;
export type RawData = Ws.RawData;
