import { createRequire } from 'node:module';
import type * as Http from 'node:http';

/**
 * `node:http`, loaded with `require`: the one loader rpc/, platform/ and main/ use (types come
 * from `import type` as usual). On Node 22 and 24 an ES import of `node:http` loads Node's
 * bundled undici, the engine of global fetch, at once: the built-in's ES facade reads every one
 * of its exports, and `WebSocket`, `CloseEvent` and `MessageEvent` there are getters that load
 * it. `require` leaves them lazy. Measured 2026-11-29 (`node --input-type=module -e` importing
 * it, RSS and whether `process.moduleLoadList` names undici): Node 22.23.3 55.1 MiB with undici
 * against 45.2 with `require`, Node 24.21.0 57.7 against 44.6 (a bare node; `companion serve`
 * started 2-3 MiB lower, docs/performance.md "Idle memory"); Node 20 loads no undici either
 * way. `node:https`, `node:net` and `node:http2` have no such getters.
 */
export const http = createRequire(import.meta.url)('node:http') as typeof Http;
