import { createRequire } from 'node:module';
import type * as Pino from 'pino';

/**
 * `pino`, loaded with `require` for the same reason as `ws` (common/src/node/ws-module.ts):
 * importing a CommonJS package from an ES module makes Node scan it for named exports
 * (cjs-module-lexer), which costs about 3 MiB of resident memory that the host keeps for its
 * whole life; `require` skips that (figures in docs/performance.md, Idle memory). Types come from the
 * package as usual.
 */
export const pino = createRequire(import.meta.url)('pino') as typeof Pino.default;
