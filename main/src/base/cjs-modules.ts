import { createRequire } from 'node:module';
import type * as Pino from 'pino';
import type * as Ws from 'ws';

/**
 * The CommonJS packages the host uses (`ws`, `pino`), loaded with `require`. Importing a
 * CommonJS package from an ES module makes Node scan it for named exports (cjs-module-lexer),
 * which costs about 3 MiB of resident memory that the host keeps for its whole life; `require`
 * skips that (figures in docs/performance.md, Idle memory). Types come from the packages as usual.
 */
const require = createRequire(import.meta.url);
const ws = require('ws') as typeof Ws;

export const WebSocket = ws.WebSocket;
export type WebSocket = Ws.WebSocket;
export const WebSocketServer = ws.WebSocketServer;
export type WebSocketServer = Ws.WebSocketServer;
export type RawData = Ws.RawData;

export const pino = require('pino') as typeof Pino.default;
