import { join } from 'node:path';
import { mkdir } from 'node:fs/promises';
import {
  assertSocketPathsFit,
  checkSocketDirectory,
  ipcListenDirectories,
  listenIpcDirectories,
  resolveIpcPrefix,
  RpcServer,
  type Env,
  type AdoptedByKind,
  type IpcListenerSet,
  type PlacedListener,
  type SkippedDirectory,
  type ReadyIdentity,
  type ResolvedPrefix,
  type RpcLogger,
  type SlotReport,
} from '../../../../rpc/src/index.js';
import {
  GatewayEvent,
  GatewayOp,
  type PlatformGuild,
  type PresenceUpdateCommand,
  type RateLimitedEvent,
} from '../../../../platform/src/wire/index.js';
import { installAuthCommands } from '../auth/auth-commands.js';
import { ConsentBroker, type ConsentPolicy } from '../auth/consent-broker.js';
import { GrantCache } from '../auth/grant-cache.js';
import { GrantSync } from '../auth/grant-sync.js';
import { installGuildCommands } from '../guilds/guild-commands.js';
import { platformGuildSource } from '../guilds/platform-guild-source.js';
import { loadOriginApprovals, startRpcWebSocket } from './rpc-websocket.js';
import type { OriginApprovals } from '../auth/origin-approvals.js';
import type { PeerCheck } from '../../../../rpc/src/transport/websocket-listener.js';
import { AccountCache } from '../session/account-cache.js';
import { ApplicationDirectory } from './application-directory.js';
import { PlatformApplicationLookup } from './platform-application-lookup.js';
import { startEmbeddedPlatform, type EmbeddedPlatform } from './embedded-platform.js';
import { rpcUserFrom, readyConfigFor } from './ready-identity.js';
import { PlatformSession, type Credentials, type TokenStore } from '../session/platform-session.js';
import { FriendPresences } from '../presence/friend-presences.js';
import { PresenceRelay, relayChangeFromRpc, type RateLimit } from '../presence/presence-relay.js';
import { PresenceService } from '../presence/presence-service.js';
import { PresenceSettingsStore } from '../presence/presence-settings-store.js';
import { RuntimeFile, writeSecondaryRuntimeFile, type RuntimeInfo } from '../../base/runtime-file.js';
import { CommandGameLauncher, type GameLauncher } from '../social/game-launcher.js';
import { SocialService } from '../social/social-service.js';
import { startHostControl, type HostControl } from './host-control.js';
import { hostSettings, logLevelOf } from '../ui-bridge/host-settings.js';
import { startWebUi, type WebUi } from '../../shells/web/web-ui-server.js';
import { darwinUserTempDir } from '../../base/darwin-temp-dir.js';
import { frameLinter } from '../ui-bridge/frame-lints.js';
import type { FrameLinter } from '../ui-bridge/frame-log.js';
import { HostRecorder } from '../record/host-recorder.js';

export interface HostOptions {
  readonly env: Env;
  /** `--runtime-dir`: where the sockets and the runtime file go, instead of the env's choice. */
  readonly runtimeDir?: string | undefined;
  /** Run beside another Companion for the same directory, on the next free index. */
  readonly allowSecond: boolean;
  /** Also listen in `<XDG_RUNTIME_DIR>/snap.discord/` (Linux; off by default: the directory is the Snap's). */
  readonly snapSocket?: boolean;
  /** Listening sockets handed over by systemd (socket activation), used instead of binding there. */
  readonly adoptedSockets?: readonly AdoptedByKind[];
  /** macOS: the GUI session's TMPDIR, listened in too when it differs from the prefix (default: asked of getconf). */
  readonly guiTempDir?: string;
  readonly version: string;
  readonly logger: RpcLogger;
  /** Settings, the cached account and the embedded emulator's state. */
  readonly dataDir: string;
  /** Another platform (e.g. a standalone emulator); absent: start the embedded emulator. */
  readonly platformUrl?: string | undefined;
  /** How to sign in; absent: the embedded emulator's first demo user, or nobody for another platform. */
  readonly credentials?: Credentials | undefined;
  /** Keeps the platform token between runs (the desktop shell's safeStorage); absent: memory only. */
  readonly tokenStore?: TokenStore;
  /** Unknown application ids fail the handshake (embedded emulator only). */
  readonly strictApps?: boolean;
  /** Test tuning: the embedded emulator's limits and clocks. */
  readonly platformLimits?: Readonly<Record<string, unknown>>;
  /** Test tuning: the gateway client's backoff and jitter. */
  readonly gatewayOptions?: ConstructorParameters<typeof PlatformSession>[0]['gatewayOptions'];
  /** Test tuning: the relay's game-activity limit (default 5 per 20 s). */
  readonly relayLimit?: RateLimit;
  readonly launcher?: GameLauncher;
  /** `--consent`: ask the player (default), or approve / deny every new authorization. */
  readonly consentPolicy?: ConsentPolicy;
  /** A request with `prompt: consent` always asks, even when a remembered grant covers it. */
  readonly consentAlwaysAsk?: boolean;
  /** How long a consent prompt waits for the player (default 5 minutes). */
  readonly consentTimeoutMs?: number;
  /**
   * The RPC WebSocket transport on the first free port of 127.0.0.1:6463-6472, which also
   * answers npm discord-rpc's `GET /` probe with 404 (default true).
   */
  readonly rpcWebSocket?: boolean;
  /** Test tuning: the ports the WebSocket transport tries (default 6463-6472), and its peer check. */
  readonly rpcWebSocketPorts?: readonly number[];
  readonly rpcWebSocketPeerCheck?: PeerCheck;
  /** Serve the UI and its WebSocket bridge on a loopback port (default true). */
  readonly webUi?: boolean;
  /** The built renderer the web UI serves (default `<repo>/out/renderer`). */
  readonly webUiRendererDir?: string;
  /** `--record FILE`: record every frame and host-side event from the start (`secrets`: keep them unredacted). */
  readonly record?: { readonly file: string; readonly secrets: boolean };
}

export type SignInOutcome =
  | { readonly kind: 'signed-in'; readonly username: string }
  | { readonly kind: 'failed'; readonly message: string }
  | { readonly kind: 'retrying'; readonly message: string }
  | { readonly kind: 'none' };

export interface Host {
  readonly prefix: ResolvedPrefix;
  readonly ipcPath: string;
  readonly ipcIndex: number;
  /** What each discord-ipc-N looked like before binding. */
  readonly slots: readonly SlotReport[];
  /** Every socket Companion listens on (the primary first): the prefix, Flatpak, Snap, macOS extras. */
  readonly listeners: readonly PlacedListener[];
  /** Directories where Companion does not listen, and why. */
  readonly skippedListeners: readonly SkippedDirectory[];
  /** For a process exiting without close(): removes the socket files synchronously. */
  removeSocketFilesSync(): void;
  /** The runtime file: host.json, or host-<index>.json for a second host (--allow-second). */
  readonly runtimeFile: string | null;
  readonly server: RpcServer;
  readonly session: PlatformSession;
  readonly relay: PresenceRelay;
  /** Arbitration and privacy settings (`presence.json`), each update's outcome, app announcements. */
  readonly presence: PresenceService;
  readonly friends: FriendPresences;
  readonly social: SocialService;
  readonly control: HostControl;
  /** The headless UI, or null when turned off (`webUi: false`). */
  readonly webUi: WebUi | null;
  /** The inspector's lints for SET_ACTIVITY frames (the desktop shell's bridge uses it too). */
  readonly frameLinter: FrameLinter;
  /** Records RPC traffic to a file: started by `record`, or at runtime (a UI toggle) with start/stop. */
  readonly recorder: HostRecorder;
  readonly consent: ConsentBroker;
  readonly grants: GrantCache;
  /** A message for the player when the grants cache had to be set aside, else null. */
  readonly grantsWarning: string | null;
  /** The port of the RPC WebSocket transport, or null (turned off, or all ports taken). */
  readonly rpcWebSocketPort: number | null;
  /** Web origins that asked for the RPC WebSocket, and the player's answers (`rpc-origins.json`). */
  readonly origins: OriginApprovals;
  /** A message for the player when `rpc-origins.json` had to be set aside, else null. */
  readonly originsWarning: string | null;
  readonly platform: { readonly url: string; readonly embedded: EmbeddedPlatform | null };
  /**
   * The first sign-in: the user, an error (bad credentials), or 'retrying' when the platform
   * could not be reached (the session keeps trying in the background).
   */
  readonly signedIn: SignInOutcome;
  close(): Promise<void>;
  /** Resolves once close() has finished. */
  readonly closed: Promise<void>;
}

/**
 * Composes the headless host: the platform (embedded emulator or another one), the account
 * and its gateway connection, the RPC server on the first free discord-ipc-N, the presence
 * relay, game invites, the control API, and the runtime file that marks this host as
 * running. Electron's shell (later) wraps the same host.
 */
export async function startHost(options: HostOptions): Promise<Host> {
  const prefix = resolveIpcPrefix(options.env, options.runtimeDir);
  assertSocketPathsFit(prefix.dir);
  await mkdir(prefix.dir, { recursive: true, mode: 0o700 });
  // Same user only, before anything is written there (the runtime file holds tokens).
  await checkSocketDirectory(prefix.dir);
  await mkdir(options.dataDir, { recursive: true, mode: 0o700 });

  const startedAt = new Date().toISOString();
  const runtime = options.allowSecond
    ? null
    : await RuntimeFile.acquire(prefix.dir, { pid: process.pid, version: options.version, startedAt, ipc: null });

  const cleanup: (() => Promise<void>)[] = [];
  const undo = async (): Promise<void> => {
    for (const step of [...cleanup].reverse()) await step().catch(() => undefined);
    await runtime?.release();
  };

  try {
    // The platform: ours (loaded only when used) or the one named by --platform.
    let embedded: EmbeddedPlatform | null = null;
    let platformUrl = options.platformUrl;
    if (platformUrl === undefined) {
      embedded = await startEmbeddedPlatform({
        dataDir: options.dataDir,
        strictApps: options.strictApps === true,
        logger: options.logger,
        ...(options.platformLimits === undefined ? {} : { limits: options.platformLimits }),
      });
      cleanup.push(() => embedded?.close() ?? Promise.resolve());
      platformUrl = embedded.url;
    }

    const session: PlatformSession = new PlatformSession({
      baseUrl: platformUrl,
      cache: new AccountCache(options.dataDir),
      logger: options.logger,
      // Called only once the gateway connects, after the relay below exists.
      presence: (): PresenceUpdateCommand => presenceRelay.current(),
      ...(options.gatewayOptions === undefined ? {} : { gatewayOptions: options.gatewayOptions }),
      ...(options.tokenStore === undefined ? {} : { tokenStore: options.tokenStore }),
    });
    cleanup.push(() => session.close());
    await session.loadCache();
    const presenceSettings = await PresenceSettingsStore.load(options.dataDir, { logger: options.logger });
    cleanup.push(() => presenceSettings.store.flush());
    const presenceRelay: PresenceRelay = new PresenceRelay({
      send: (presence): boolean => session.updatePresence(presence),
      settings: () => presenceSettings.store.settings,
      ...(options.relayLimit === undefined ? {} : { limit: options.relayLimit }),
    });
    cleanup.push(async () => presenceRelay.dispose());

    const apps = new ApplicationDirectory(new PlatformApplicationLookup(session.publicApi, () => session.authedApi()));
    const configFor = readyConfigFor(platformUrl);
    const server = new RpcServer({
      identity: (): ReadyIdentity | null => {
        const user = session.user;
        return user === null ? null : { user: rpcUserFrom(user), config: configFor };
      },
      resolveApplication: (clientId) => apps.resolve(clientId),
      applicationName: (clientId) => `Application ${clientId}`,
      logger: options.logger,
    });
    cleanup.push(() => server.closeAll());

    const friends = new FriendPresences();
    const social = new SocialService({
      server,
      platform: () => session.authedApi(),
      me: () => session.user,
      sessionId: () => session.sessionId,
      friend: (userId) => {
        const entry = friends.get(userId);
        return entry === undefined ? undefined : { user: entry.user, presence: { user: { id: entry.user.id }, ...entry.presence } };
      },
      launcher: options.launcher ?? new CommandGameLauncher({ dataDir: options.dataDir, env: options.env }),
      logger: options.logger,
    });

    // Authorization: remembered grants, the consent broker, AUTHORIZE / AUTHENTICATE.
    const grants = new GrantCache(options.dataDir, { logger: options.logger });
    cleanup.push(() => grants.flush().catch(() => undefined));
    const grantsLoad = await grants.load();
    const grantSync = new GrantSync({ cache: grants, server, platform: () => session.authedApi(), user: () => session.user, logger: options.logger });
    cleanup.push(async () => grantSync.dispose());
    const broker = new ConsentBroker({
      grants: grantSync.lookup,
      policy: options.consentPolicy ?? 'prompt',
      alwaysAsk: options.consentAlwaysAsk === true,
      ...(options.consentTimeoutMs === undefined ? {} : { timeoutMs: options.consentTimeoutMs }),
      logger: options.logger,
    });
    cleanup.push(async () => broker.dispose());
    const recorder = new HostRecorder({ server, consent: broker, gateway: session, version: options.version, logger: options.logger });
    cleanup.push(async () => void (await recorder.stop()));
    if (options.record !== undefined) await recorder.start(options.record.file, { secrets: options.record.secrets });
    installAuthCommands({
      server,
      platform: () => session.authedApi(),
      me: () => session.user,
      consent: broker,
      logger: options.logger,
      onGranted: (grant) => grantSync.granted(grant),
      revocations: () => grantSync.revocations(),
    });
    const guilds = installGuildCommands(server, platformGuildSource(() => session.authedApi()), { logger: options.logger });
    cleanup.push(async () => guilds.dispose());

    // Games → platform.
    server.on('activity', (change) => {
      const relayed = relayChangeFromRpc(change);
      if (relayed !== undefined) presenceRelay.activityChanged(relayed);
    });
    const presence = new PresenceService({ relay: presenceRelay, store: presenceSettings.store, server, logger: options.logger, warning: presenceSettings.warning });
    cleanup.push(async () => presence.dispose());
    // Platform → host state and games.
    // FriendPresences takes READY from the dispatch stream below, like every other dispatch.
    session.on('ready', () => presenceRelay.connected());
    session.on('resumed', () => presenceRelay.connected());
    session.on('drain', () => presenceRelay.refresh());
    let accountId = session.user?.id ?? null;
    session.on('account', (user) => {
      if ((user?.id ?? null) === accountId) return;
      const hadAccount = accountId !== null;
      accountId = user?.id ?? null;
      social.reset();
      friends.clear();
      grantSync.accountChanged();
      // Games were told who the user is in READY: after a sign-out or a switch, they must
      // connect again (and get 1000 "User logged out" while nobody is signed in).
      if (hadAccount) server.disconnectAll('User logged out');
    });
    session.on('ready', () => grantSync.refresh());
    session.on('dispatch', (t, d) => {
      friends.dispatch(t, d);
      social.handleDispatch(t, d);
      grantSync.dispatch(t, d);
      if (t === 'GUILD_UPDATE') guilds.guildChanged(d as PlatformGuild);
      if (t === GatewayEvent.RateLimited) {
        const limited = d as RateLimitedEvent;
        if (limited.opcode === GatewayOp.PresenceUpdate) presenceRelay.rateLimited(limited.retry_after * 1000);
      }
    });
    session.on('status', (status) => options.logger.info({ status: status.status, detail: status.detail }, 'platform status'));

    const { approvals: origins, warning: originsWarning } = await loadOriginApprovals({ dataDir: options.dataDir, platformUrl, apps, logger: options.logger });
    cleanup.push(() => origins.flush());
    // macOS: the GUI session's TMPDIR (a `getconf` run), for the listeners and the doctor alike.
    const guiTempDir = options.guiTempDir ?? (await darwinUserTempDir());
    const control = await startHostControl({
      recorder: { recorder, dir: join(options.dataDir, 'recordings') },
      origins,
      presence,
      version: options.version,
      broker,
      grants,
      grantList: () => grantSync.list(),
      revokeGrant: (applicationId) => grantSync.revoke(applicationId),
      session,
      server,
      friends,
      social,
      platform: { url: platformUrl, embedded: embedded !== null },
      platformAdminToken: embedded?.adminToken ?? null,
      // Asked only by API requests, which come after the listener below exists.
      ipcPath: () => listener.path,
      webSocketPort: () => webSocket?.port ?? null,
      // Loaded when the player asks: the host does not carry the doctor's code otherwise.
      doctor: async () => {
        const [{ buildDoctorReport }, { doctorView }] = await Promise.all([import('../../diagnostics/doctor/doctor-report.js'), import('../ui-bridge/doctor-view.js')]);
        const report = await buildDoctorReport({ env: options.env, runtimeDir: options.runtimeDir, guiTempDir });
        return doctorView(report, Date.now());
      },
      logger: options.logger,
    });
    cleanup.push(() => control.close());

    // The UI for headless hosts: the same contract as the Electron preload, over a WebSocket.
    const logLevel = logLevelOf(options.logger);
    const frameLints = frameLinter(server, session.publicApi);
    const consentSettings = hostSettings({ broker, logger: options.logger, ...(logLevel === undefined ? {} : { logLevel }) });
    const webUi =
      options.webUi === false
        ? null
        : await startWebUi({
            backend: control.backend,
            server,
            settings: consentSettings,
            lint: frameLints,
            logger: options.logger,
            ...(options.webUiRendererDir === undefined ? {} : { rendererDir: options.webUiRendererDir }),
          });
    cleanup.push(async () => webUi?.close());

    // Sign in before games can connect, so the first READY carries the account. If the
    // platform cannot be reached, games get the cached account meanwhile (or "User logged
    // out" when none was ever known) and the session keeps trying in the background.
    const credentials = options.credentials ?? (embedded === null ? undefined : { username: embedded.firstUsername });
    const signedIn: SignInOutcome =
      credentials === undefined
        ? { kind: 'none' }
        : await session.signIn(credentials, { retry: false }).then(
            (user): SignInOutcome => ({ kind: 'signed-in', username: user.username }),
            (error: unknown): SignInOutcome => {
              const message = error instanceof Error ? error.message : String(error);
              if ((error as { status?: unknown }).status !== 0) return { kind: 'failed', message };
              session.signIn(credentials).catch(() => undefined);
              return { kind: 'retrying', message };
            },
          );

    const webSocket =
      options.rpcWebSocket === false
        ? null
        : await startRpcWebSocket({
            server,
            approvals: origins,
            logger: options.logger,
            ...(options.rpcWebSocketPorts === undefined ? {} : { ports: options.rpcWebSocketPorts }),
            ...(options.rpcWebSocketPeerCheck === undefined ? {} : { peerCheck: options.rpcWebSocketPeerCheck }),
          });
    if (webSocket !== null) cleanup.push(() => webSocket.close());

    const listenerSet: IpcListenerSet = await listenIpcDirectories({
      directories: ipcListenDirectories(options.env, process.platform, {
        runtimeDir: options.runtimeDir,
        snap: options.snapSocket === true,
        guiTempDir,
      }),
      onConnection: (socket) => server.attach(socket),
      ...(options.adoptedSockets === undefined ? {} : { adopted: options.adoptedSockets }),
    });
    const listener = listenerSet.primary;
    // Once: close() starts it before closing the connections, and undo() meets it again.
    let listenerClosing: Promise<void> | undefined;
    const closeListener = (): Promise<void> => (listenerClosing ??= listenerSet.close());
    cleanup.push(closeListener);
    const info: RuntimeInfo = {
      pid: process.pid,
      version: options.version,
      startedAt,
      ipc: { path: listener.path, index: listener.index },
      listeners: listenerSet.listeners.map(({ directory, listener: l }) => ({ path: l.path, index: l.index, kind: directory.kind })),
      control: { url: control.url, token: control.token },
      ...(webUi === null ? {} : { webUi: { url: webUi.baseUrl, token: webUi.token } }),
      platform: { url: platformUrl, embedded: embedded !== null, ...(embedded === null ? {} : { adminToken: embedded.adminToken }) },
    };
    let secondary: Awaited<ReturnType<typeof writeSecondaryRuntimeFile>> | undefined;
    if (runtime !== null) await runtime.update(info);
    else secondary = await writeSecondaryRuntimeFile(prefix.dir, listener.index, info);
    cleanup.push(async () => secondary?.remove());

    let closing: Promise<void> | undefined;
    let markClosed: () => void = () => undefined;
    const closed = new Promise<void>((resolve) => (markClosed = resolve));
    return {
      closed,
      prefix,
      ipcPath: listener.path,
      ipcIndex: listener.index,
      slots: listener.slots,
      listeners: listenerSet.listeners,
      skippedListeners: listenerSet.skipped,
      removeSocketFilesSync: () => listenerSet.removeFilesSync(),
      runtimeFile: runtime?.file ?? secondary?.file ?? null,
      server,
      session,
      relay: presenceRelay,
      presence,
      friends,
      social,
      control,
      webUi,
      frameLinter: frameLints,
      recorder,
      consent: broker,
      grants,
      grantsWarning: grantsLoad.warning,
      rpcWebSocketPort: webSocket?.port ?? null,
      origins,
      originsWarning,
      platform: { url: platformUrl, embedded },
      signedIn,
      close() {
        closing ??= (async () => {
          // Stop accepting first, so no client can arrive between the two steps; then the
          // same teardown as a failed start, in reverse order of creation.
          const listenerClosed = closeListener();
          await server.closeAll();
          await listenerClosed;
          await undo();
          markClosed();
        })();
        return closing;
      },
    };
  } catch (error) {
    await undo();
    throw error;
  }
}
