import type { IncomingMessage, ServerResponse } from 'node:http';
import { closeServer } from '../../../../common/src/node/close-server.js';
import { listenLoopbackHttp } from '../../../../common/src/node/loopback-http.js';
import type { WebUi, WebUiParts } from '../../host/ui-bridge/web-ui-port.js';
import { listenOutsideReserved, type ControlLogger } from '../../host/control/control-server.js';
import { createBridgeBackend, FRAMES_INTERVAL_MS, SNAPSHOT_INTERVAL_MS } from '../../host/ui-bridge/bridge-backend.js';
import type { FrameLog } from '../../host/ui-bridge/frame-log.js';
import { BridgeSockets } from './bridge-sockets.js';
import { defaultRendererDir } from './static-files.js';
import { WebAccess } from './web-access.js';
import { WebPages } from './web-pages.js';

export type { WebUiBackend, WebUiSettings } from '../../host/ui-bridge/bridge-backend.js';

export type { WebUi } from '../../host/ui-bridge/web-ui-port.js';

export interface WebUiOptions extends WebUiParts {
  /** Default 32 random bytes, base64url. */
  readonly token?: string;
  /** Minimum time between two topic rounds (default SNAPSHOT_INTERVAL_MS). */
  readonly snapshotIntervalMs?: number;
  /** Minimum time between two frame batches (default FRAMES_INTERVAL_MS). */
  readonly framesIntervalMs?: number;
  /** The inspector's ring (default a new one). */
  readonly frameLog?: FrameLog;
}

export { FRAMES_INTERVAL_MS, SNAPSHOT_INTERVAL_MS };

const silentLogger: ControlLogger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

/**
 * The headless host's UI: serves the built renderer on loopback (WebPages), and the
 * contract's bridge over one WebSocket per page (BridgeSockets). Access (WebAccess) needs
 * the token, once, in the URL; it becomes a session cookie named after the port.
 */
export async function startWebUi(options: WebUiOptions): Promise<WebUi> {
  const logger = options.logger ?? silentLogger;
  const token = WebAccess.token(options.token);
  const bridge = createBridgeBackend({
    backend: options.backend,
    server: options.server,
    settings: options.settings,
    logger,
    ...(options.frameLog === undefined ? {} : { frameLog: options.frameLog }),
    ...(options.lint === undefined ? {} : { lint: options.lint }),
    ...(options.hostEvents === undefined ? {} : { hostEvents: options.hostEvents }),
    snapshotIntervalMs: options.snapshotIntervalMs ?? SNAPSHOT_INTERVAL_MS,
    framesIntervalMs: options.framesIntervalMs ?? FRAMES_INTERVAL_MS,
  });
  const { server, port } = await listenOutsideReserved(() => listenLoopbackHttp());
  const access = new WebAccess(port, token);
  const pages = new WebPages(access, options.rendererDir ?? defaultRendererDir(), options.images);
  const sockets = new BridgeSockets(bridge, access, logger);
  server.on('request', (req: IncomingMessage, res: ServerResponse) => onRequest(pages, logger, req, res));
  server.on('upgrade', sockets.onUpgrade);
  logger.info({ port }, 'web UI listening');

  const baseUrl = `http://127.0.0.1:${port}/`;
  let closed: Promise<void> | undefined;
  return {
    url: `${baseUrl}?token=${token}`,
    baseUrl,
    port,
    token,
    cookieName: access.cookieName,
    oneTimeUrl: () => `${baseUrl}?token=${access.issueOneTime()}`,
    frames: bridge.frames,
    close() {
      closed ??= (async () => {
        await sockets.close();
        bridge.close();
        await closeServer(server);
      })();
      return closed;
    },
  };
}

function onRequest(pages: WebPages, logger: ControlLogger, req: IncomingMessage, res: ServerResponse): void {
  const started = Date.now();
  pages
    .handle(req, res)
    .catch((error: unknown) => {
      logger.error({ error: error instanceof Error ? error.name : typeof error }, 'web UI: request failed');
      if (res.headersSent) res.destroy();
      else pages.sendPage(res, req, 500, 'Internal Server Error', 'The request failed.');
    })
    .finally(() => {
      // Never the path or the query: the first request carries the token.
      logger.debug({ method: req.method, status: res.statusCode, ms: Date.now() - started }, 'web UI request');
    })
    .catch(() => undefined);
}
