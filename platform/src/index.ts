import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeServer } from '../../common/src/node/close-server.js';
import { PlatformAdmin } from './admin/admin.js';
import type { GatewayContext } from './gateway/context.js';
import { PresenceHub } from './gateway/presence.js';
import { GatewayServer, GATEWAY_PATH, type SessionInfo } from './gateway/server.js';
import type { Session } from './gateway/session.js';
import { SessionRegistry } from './gateway/sessions.js';
import { adminRoutes } from './http/admin-routes.js';
import { simulationRoutes } from './http/simulation-routes.js';
import { apiRoutes } from './http/api-routes.js';
import { createRequestHandler } from './http/handler.js';
import { InviteService } from './invites/invites.js';
import { OidcKeys } from './oauth/jwt.js';
import { oauthApiRoutes, oauthRootRoutes } from './http/oauth-routes.js';
import { OAuthService } from './oauth/service.js';
import { TokenFaults } from './oauth/token-faults.js';
import { FriendSimulator } from './simulation/friend-simulator.js';
import { WebhookDeliverer, type WebhookSleep } from './webhooks/deliverer.js';
import { resolveLimits, type PlatformLimits, type PlatformLimitsInput } from './support/limits.js';
import { SILENT_LOGGER, type PlatformLogger } from './support/logger.js';
import { claimDataDir, releaseDataDir, removeRuntimeFile, writeRuntimeFile } from './support/runtime-file.js';
import { isSnowflake, randomToken } from './state/ids.js';
import type { AppRecord } from './state/model.js';
import { Store } from './state/store.js';
import { RPC_SCOPES, type PlatformUser, type PresenceUpdateEvent } from './wire/index.js';

export { DEFAULT_LIMITS, type PlatformLimits, type PlatformLimitsInput, type WindowLimit } from './support/limits.js';
export type { PlatformLogger } from './support/logger.js';
export { PlatformAdmin, type AdminApp } from './admin/admin.js';
export type { SessionInfo } from './gateway/server.js';
export { PlatformAlreadyRunningError, readRuntimeFile, runtimeFilePath, type PlatformRuntimeInfo } from './support/runtime-file.js';
export { CorruptStateError, STATE_FILE_NAME } from './state/store.js';
export { SEED } from './state/seed.js';
export { signWebhook, verifyWebhook, type WebhookSignatureHeaders } from './webhooks/signer.js';
export type { WebhookSleep } from './webhooks/deliverer.js';
export type { AppPatch } from './admin/admin.js';
export { isJoinable, isPublicParty } from './invites/invites.js';

/** Ports the local RPC WebSocket transport probes; the emulator never takes one. */
export const RESERVED_PORTS = { first: 6463, last: 6472 } as const;
const PORT_ATTEMPTS = 20;

export interface PlatformOptions {
  /** 0 (default) = a free port outside 6463-6472. */
  readonly port?: number;
  readonly host?: '127.0.0.1';
  /** State and runtime file; created (0700) if missing. */
  readonly dataDir: string;
  /** Unknown application ids are 404 10002 instead of registered on first use. */
  readonly strictApps?: boolean;
  readonly limits?: PlatformLimitsInput;
  /** The clock for limits, invite validity and timestamps (epoch ms). */
  readonly now?: () => number;
  readonly logger?: PlatformLogger;
  /**
   * Waits before a webhook retry (default: a real timer). Tests pass one that records the
   * delays and resolves at once.
   */
  readonly webhookSleep?: WebhookSleep;
}

export interface PlatformServer {
  /** `http://127.0.0.1:PORT`; the API is under `/api`, `/api/v9` and `/api/v10`. */
  readonly url: string;
  /** `ws://127.0.0.1:PORT/gateway`. */
  readonly gatewayUrl: string;
  readonly port: number;
  /** For `Authorization: Admin <token>` on `/_emulator` (also in the runtime file). */
  readonly adminToken: string;
  /** `<dataDir>/platform.json`. */
  readonly runtimeFile: string;
  readonly dataDir: string;
  readonly limits: PlatformLimits;
  /** Users, friends, apps, gateway control: the admin API in-process. */
  readonly admin: PlatformAdmin;
  users(): PlatformUser[];
  /** A user by username. */
  user(username: string): PlatformUser | undefined;
  /** The user token of a user (what `POST /api/auth/login` returns); throws for unknown users. */
  loginToken(username: string): string;
  sessions(): SessionInfo[];
  /** The user's presence as friends see it; undefined when offline. */
  presence(userId: string): PresenceUpdateEvent | undefined;
  /** Writes pending state changes now. */
  flush(): Promise<void>;
  /** Resolves when no webhook delivery is in progress (delivered or given up). */
  webhooksIdle(): Promise<void>;
  /** Closes every socket and the server, writes the state and removes the runtime file. */
  close(): Promise<void>;
}

export async function startPlatform(options: PlatformOptions): Promise<PlatformServer> {
  const host = options.host ?? '127.0.0.1';
  const requestedPort = options.port ?? 0;
  if (!Number.isInteger(requestedPort) || requestedPort < 0 || requestedPort > 65535) throw new RangeError(`invalid port ${requestedPort}`);
  if (requestedPort >= RESERVED_PORTS.first && requestedPort <= RESERVED_PORTS.last) {
    throw new RangeError(`port ${requestedPort} is reserved for the local RPC transport (${RESERVED_PORTS.first}-${RESERVED_PORTS.last})`);
  }
  const limits = resolveLimits(options.limits);
  const now = options.now ?? Date.now;
  const logger = options.logger ?? SILENT_LOGGER;
  const dataDir = options.dataDir;

  await claimDataDir(dataDir);
  let store: Store | undefined;
  try {
    store = await Store.open({ dataDir, now, persistDebounceMs: limits.persistDebounceMs, messagesPerChannel: limits.messagesPerChannel, logger });
    return await assemble(store, {
      host,
      requestedPort,
      limits,
      now,
      logger,
      dataDir,
      strictApps: options.strictApps === true,
      ...(options.webhookSleep !== undefined ? { webhookSleep: options.webhookSleep } : {}),
    });
  } catch (error) {
    await store?.close();
    releaseDataDir(dataDir);
    throw error;
  }
}

interface AssembleOptions {
  readonly host: string;
  readonly requestedPort: number;
  readonly limits: PlatformLimits;
  readonly now: () => number;
  readonly logger: PlatformLogger;
  readonly dataDir: string;
  readonly strictApps: boolean;
  readonly webhookSleep?: WebhookSleep;
}

async function assemble(store: Store, o: AssembleOptions): Promise<PlatformServer> {
  const { limits, now, logger } = o;
  const adminToken = randomToken();
  let url = '';
  let gatewayUrl = '';

  const sessions = new SessionRegistry(limits, now);
  const presence = new PresenceHub(store, sessions, logger);
  const endSession = (session: Session): void => {
    if (session.ended) return;
    sessions.remove(session);
    logger.debug({ sessionId: session.id, userId: session.userId }, 'gateway session ended');
    presence.publish(session.userId);
  };
  const gatewayContext: GatewayContext = {
    store,
    sessions,
    presence,
    limits,
    now,
    logger,
    gatewayUrl: () => gatewayUrl,
    allMembersRequests: new Map(),
    endSession,
  };
  const gateway = new GatewayServer(gatewayContext);
  const resolveApp = (id: string): AppRecord | undefined => {
    const known = store.app(id);
    if (known !== undefined || o.strictApps || !isSnowflake(id)) return known;
    logger.info({ applicationId: id }, 'application registered on first use');
    // Approved for the rpc* family so local tools work (ours); strict mode never gets here.
    return store.createApp({ id, name: `Application ${id}`, verified: false, autoRegistered: true, approvedScopes: RPC_SCOPES });
  };
  const webhooks = new WebhookDeliverer({
    now,
    logger,
    timeoutMs: limits.webhookTimeoutMs,
    retryFirstMs: limits.webhookRetryFirstMs,
    retryMaxMs: limits.webhookRetryMaxMs,
    ...(o.webhookSleep !== undefined ? { sleep: o.webhookSleep } : {}),
  });
  const keys = new OidcKeys(store);
  const oauth = new OAuthService({ store, dispatcher: sessions, webhooks, keys, limits, now, logger, resolveApp, issuer: () => url });
  const tokenFaults = new TokenFaults();
  const oauthRouteDeps = { oauth, keys, store, url: () => url, devLoginLimit: () => limits.http.devLogin, tokenFaults };
  const invites = new InviteService({ store, activities: presence, dispatcher: sessions, limits, now, logger, resolveApp });
  const admin = new PlatformAdmin(store, sessions, presence, gateway, (app) => oauth.ping(app));
  const simulator = new FriendSimulator({ store, sessions, presence, invites, now, logger, resolveApp });
  const handler = createRequestHandler({
    apiRoutes: [
      ...apiRoutes({ store, presence, dispatcher: sessions, invites, gateway, limits, now, logger, adminToken, gatewayUrl: () => gatewayUrl, resolveApp }),
      ...oauthApiRoutes(oauthRouteDeps),
    ],
    adminRoutes: [...adminRoutes(admin), ...simulationRoutes(simulator, tokenFaults)],
    rootRoutes: oauthRootRoutes(oauthRouteDeps),
    bearer: (token) => oauth.bearer(token),
    store,
    adminToken,
    limits,
    now,
    logger,
  });

  const server = createServer(handler);
  server.on('upgrade', (request, socket, head) => {
    if (!gateway.handleUpgrade(request, socket, head)) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    }
  });
  server.on('clientError', (_error, socket) => socket.destroy());
  let port: number;
  try {
    port = await listen(server, o.host, o.requestedPort);
  } catch (error) {
    await gateway.close();
    throw error;
  }
  url = `http://${o.host}:${port}`;
  gatewayUrl = `ws://${o.host}:${port}${GATEWAY_PATH}`;

  let runtimeFile: string;
  try {
    runtimeFile = await writeRuntimeFile(o.dataDir, { pid: process.pid, url, adminToken, startedAt: new Date().toISOString() });
  } catch (error) {
    await gateway.close();
    await closeServer(server);
    throw error;
  }
  logger.info({ url, dataDir: o.dataDir }, 'platform emulator listening');

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      await closeServer(server, { drain: () => gateway.close() });
      await webhooks.close();
      await store.close();
      await removeRuntimeFile(o.dataDir, adminToken);
      releaseDataDir(o.dataDir);
      logger.info({ url }, 'platform emulator closed');
    })());

  return {
    url,
    gatewayUrl,
    port,
    adminToken,
    runtimeFile,
    dataDir: o.dataDir,
    limits,
    admin,
    users: () => store.users(),
    user: (username) => admin.users().find((user) => user.username === username.toLowerCase()),
    loginToken: (username) => {
      const user = store.userByName(username);
      if (user === undefined) throw new Error(`unknown user '${username}'`);
      return user.token;
    },
    sessions: () => gateway.sessions(),
    presence: (userId) => presence.view(userId),
    flush: () => store.flush(),
    webhooksIdle: () => webhooks.idle(),
    close,
  };
}

/** Listens on the port, or on a free one outside the reserved range when it is 0. */
async function listen(server: Server, host: string, port: number): Promise<number> {
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
