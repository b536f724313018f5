import type { Server } from 'node:http';
import type { PlatformAdmin } from '../admin/admin.js';
import { GATEWAY_PATH, type SessionInfo } from '../gateway/server.js';
import { randomToken } from '../state/ids.js';
import type { Store } from '../state/store.js';
import type { PlatformLimits } from '../support/limits.js';
import type { PlatformLogger } from '../support/logger.js';
import { releaseDataDir, removeRuntimeFile, writeRuntimeFile } from '../support/runtime-file.js';
import type { FriendCall } from '../simulation/friend-call.js';
import type { WebhookSleep } from '../webhooks/deliverer.js';
import type { PlatformUser, PresenceUpdateEvent } from '../wire/index.js';
import type { ServerCredentials } from '../tls/certificate-store.js';
import { closeServer, createPlatformHttpServer, createPlatformHttpsServer, listen } from './http-listener.js';
import { PlatformAddresses, PlatformServices } from './platform-services.js';

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
  /** The TLS listener (https and wss), when the emulator was started with one. */
  readonly tls?: PlatformTlsListener;
  /** Users, friends, apps, gateway control: the admin API in-process. */
  readonly admin: PlatformAdmin;
  /** The simulated friend in lobby calls: join a call, play a tone, mute, leave (in-process). */
  readonly friendCall: FriendCall;
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

/** The emulator's TLS listener: the same API and gateway as `url`, over https and wss. */
export interface PlatformTlsListener {
  /** `https://127.0.0.1:PORT` (the API under `/api`, `/api/v9`, `/api/v10`). */
  readonly url: string;
  /** `wss://127.0.0.1:PORT/gateway`: what `GET /gateway` over this listener answers. */
  readonly gatewayUrl: string;
  readonly port: number;
  /** The local certificate authority's certificate (PEM), the file a game's machine trusts. */
  readonly caCertFile: string;
  /** The authority was made by this start (never trusted yet). */
  readonly newAuthority: boolean;
  /** When the server certificate expires (a later start makes a new one). */
  readonly serverNotAfter: Date;
}

/** What the TLS listener serves with, and where. */
export interface AssembleTls {
  readonly port: number;
  readonly credentials: ServerCredentials;
}

export interface AssembleOptions {
  readonly host: string;
  readonly requestedPort: number;
  readonly limits: PlatformLimits;
  readonly now: () => number;
  readonly logger: PlatformLogger;
  readonly dataDir: string;
  readonly strictApps: boolean;
  readonly webhookSleep?: WebhookSleep;
  readonly tls?: AssembleTls;
}

/** A listening emulator: where it is, and the parts its shutdown closes. */
interface Running {
  readonly services: PlatformServices;
  readonly server: Server;
  readonly port: number;
  readonly url: string;
  readonly gatewayUrl: string;
  readonly adminToken: string;
  readonly runtimeFile: string;
  readonly tls?: { readonly server: Server; readonly listener: PlatformTlsListener };
}

/** Opens the TLS listener beside the plain one (same handler, same gateway); on failure closes it. */
async function goLiveTls(services: PlatformServices, o: AssembleOptions, tls: AssembleTls, addresses: PlatformAddresses): Promise<Running['tls']> {
  const server = createPlatformHttpsServer(services.requestHandler(), services.gateway, tls.credentials, [services.voiceServer]);
  const port = await listen(server, o.host, tls.port);
  const url = `https://${o.host}:${port}`;
  addresses.tlsGatewayUrl = `wss://${o.host}:${port}${GATEWAY_PATH}`;
  const { files, newAuthority, serverNotAfter } = tls.credentials;
  return { server, listener: { url, gatewayUrl: addresses.tlsGatewayUrl, port, caCertFile: files.caCert, newAuthority, serverNotAfter } };
}

/** Listens and announces the emulator in its runtime file; on failure closes what was opened. */
async function goLive(services: PlatformServices, server: Server, o: AssembleOptions, addresses: PlatformAddresses, adminToken: string): Promise<Running> {
  let port: number;
  try {
    port = await listen(server, o.host, o.requestedPort);
  } catch (error) {
    await services.gateway.close();
    throw error;
  }
  addresses.url = `http://${o.host}:${port}`;
  addresses.gatewayUrl = `ws://${o.host}:${port}${GATEWAY_PATH}`;
  const { url, gatewayUrl } = addresses;
  let runtimeFile: string;
  let tls: Running['tls'];
  try {
    tls = o.tls === undefined ? undefined : await goLiveTls(services, o, o.tls, addresses);
    const tlsUrl = tls === undefined ? {} : { tlsUrl: tls.listener.url, caCertFile: tls.listener.caCertFile };
    runtimeFile = await writeRuntimeFile(o.dataDir, { pid: process.pid, url, adminToken, startedAt: new Date().toISOString(), ...tlsUrl });
  } catch (error) {
    await services.gateway.close();
    if (tls !== undefined) await closeServer(tls.server);
    await closeServer(server);
    throw error;
  }
  o.logger.info({ url, ...(tls === undefined ? {} : { tlsUrl: tls.listener.url }), dataDir: o.dataDir }, 'platform emulator listening');
  return { services, server, port, url, gatewayUrl, adminToken, runtimeFile, ...(tls === undefined ? {} : { tls }) };
}

/** Closes everything in order, once: the server and the gateway, webhooks, the store, the runtime file, the data directory. */
function shutdown(running: Running, o: AssembleOptions): () => Promise<void> {
  const { services, server } = running;
  let closing: Promise<void> | undefined;
  return () =>
    (closing ??= (async () => {
      // Both listeners' WebSockets are the one gateway's: it closes them once, for both.
      let gatewayClosed: Promise<void> | undefined;
      const drain = (): Promise<void> =>
        (gatewayClosed ??= (async () => {
          services.callWatch.close();
          services.voiceServer.close();
          await services.gateway.close();
        })());
      if (running.tls !== undefined) await closeServer(running.tls.server, { drain });
      await closeServer(server, { drain });
      await services.webhooks.close();
      services.apps.stop();
      services.lobbySweeper.stop();
      // The simulated friend's speaking timers end with the emulator.
      services.friendVoice.close();
      await services.store.close();
      await removeRuntimeFile(o.dataDir, running.adminToken);
      releaseDataDir(o.dataDir);
      o.logger.info({ url: running.url }, 'platform emulator closed');
    })());
}

function platformServer(running: Running, o: AssembleOptions): PlatformServer {
  const { services } = running;
  const { store, admin } = services;
  return {
    url: running.url,
    gatewayUrl: running.gatewayUrl,
    port: running.port,
    adminToken: running.adminToken,
    runtimeFile: running.runtimeFile,
    dataDir: o.dataDir,
    limits: o.limits,
    ...(running.tls === undefined ? {} : { tls: running.tls.listener }),
    admin,
    friendCall: services.friendCall,
    users: () => store.users(),
    user: (username) => admin.users().find((user) => user.username === username.toLowerCase()),
    loginToken: (username) => {
      const user = store.userByName(username);
      if (user === undefined) throw new Error(`unknown user '${username}'`);
      return user.token;
    },
    sessions: () => services.gateway.sessions(),
    presence: (userId) => services.presence.view(userId),
    flush: () => store.flush(),
    webhooksIdle: () => services.webhooks.idle(),
    close: shutdown(running, o),
  };
}

/** The emulator over an open store: its services, listening, announced in the runtime file. */
export async function assemble(store: Store, o: AssembleOptions): Promise<PlatformServer> {
  const adminToken = randomToken();
  const addresses = new PlatformAddresses();
  const { limits, now, logger, strictApps, webhookSleep } = o;
  const services = new PlatformServices(store, { limits, now, logger, strictApps, adminToken, ...(webhookSleep !== undefined ? { webhookSleep } : {}) }, addresses);
  const server = createPlatformHttpServer(services.requestHandler(), services.gateway, [services.voiceServer]);
  const running = await goLive(services, server, o, addresses, adminToken);
  services.apps.start();
  services.lobbySweeper.start();
  return platformServer(running, o);
}
