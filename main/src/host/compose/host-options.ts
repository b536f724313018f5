import type { ExternalImagesTesting } from '../ui-bridge/external-images.js';
import type { WebUiStarter } from '../ui-bridge/web-ui-port.js';
import type { AdoptedByKind, Env, RpcLogger } from '../../../../rpc/src/index.js';
import type { PeerCheck } from '../../../../rpc/src/transport/websocket-listener.js';
import type { PlatformLimitsInput } from '../../../../platform/src/support/limits.js';
import type { ConsentPolicy } from '../auth/consent-broker.js';
import type { GatewayClientOptions } from '../gateway/gateway-client.js';
import type { RateLimit } from '../presence/presence-relay.js';
import type { Credentials, TokenStore } from '../session/platform-session.js';
import type { GameLauncher } from '../social/game-launcher.js';
import type { QaExtension } from './qa-extension.js';
import type { BoundAtStart } from './bound-at-start.js';

/** Where the host listens: the discord-ipc sockets (and its runtime file beside them), the RPC WebSocket. */
export interface ListenOptions {
  /** `--runtime-dir`: where the sockets and the runtime file go, instead of the env's choice. */
  readonly runtimeDir?: string | undefined;
  /** Run beside another Companion for the same directory, on the next free index (default false). */
  readonly allowSecond?: boolean;
  /** Also listen in `<XDG_RUNTIME_DIR>/snap.discord/` (Linux; off by default: the directory is the Snap's). */
  readonly snapSocket?: boolean;
  /** Listening sockets handed over by systemd (socket activation), used instead of binding there. */
  readonly adoptedSockets?: readonly AdoptedByKind[];
  /** macOS: the GUI session's TMPDIR, listened in too when it differs from the prefix (default: asked of getconf). */
  readonly guiTempDir?: string;
  /**
   * The RPC WebSocket transport on the first free port of 127.0.0.1:6463-6472, which also
   * answers npm discord-rpc's `GET /` probe with 404 (default true).
   */
  readonly rpcWebSocket?: boolean;
  /**
   * Open RPC connections one program may hold (default 64, see the RPC server's PeerCap); one
   * more is refused with CLOSE 4002.
   */
  readonly maxConnectionsPerProgram?: number;
}

/** The platform the host signs in to, and the account. */
export interface PlatformOptions {
  /** Another platform (e.g. a standalone emulator); absent: start the embedded emulator. */
  readonly url?: string | undefined;
  /** How to sign in; absent: the embedded emulator's first demo user, or nobody for another platform. */
  readonly credentials?: Credentials | undefined;
  /** Keeps the platform token between runs (the desktop shell's safeStorage); absent: memory only. */
  readonly tokenStore?: TokenStore;
  /** Unknown application ids fail the handshake (embedded emulator only). */
  readonly strictApps?: boolean;
  /** Also serve the embedded emulator over TLS on this port (0: a free one), for native games. */
  readonly tls?: { readonly port?: number };
}

/** How new authorizations (AUTHORIZE) are answered. */
export interface ConsentOptions {
  /** `--consent`: ask the player (default), or approve / deny every new authorization. */
  readonly policy?: ConsentPolicy;
  /** A request with `prompt: consent` always asks, even when a remembered grant covers it. */
  readonly alwaysAsk?: boolean;
}

/** The UI the host serves itself (headless hosts; the desktop shell has its windows instead). */
export interface UiOptions {
  /**
   * Starts the web UI (the UI and its WebSocket bridge on a loopback port) over the host's parts:
   * the front end main/src/shells/web passes `startWebUi`. Absent: no web UI.
   */
  readonly start?: WebUiStarter;
  /** The built renderer the web UI serves (default `<repo>/out/renderer`). */
  readonly rendererDir?: string;
}

/** `--record FILE`: record every frame and host-side event from the start (`secrets`: keep them unredacted). */
export interface RecordOptions {
  readonly file: string;
  readonly secrets: boolean;
}

export interface HostOptions {
  readonly env: Env;
  readonly version: string;
  readonly logger: RpcLogger;
  /** Settings, grants, the cached account and the embedded emulator's state. */
  readonly dataDir: string;
  readonly listen?: ListenOptions;
  readonly platform?: PlatformOptions;
  readonly consent?: ConsentOptions;
  readonly ui?: UiOptions;
  readonly record?: RecordOptions;
  /** false: no process scanning for game detection this run (`serve --no-game-detection`); the list and the player's settings are still kept. */
  readonly gameDetection?: boolean;
  /**
   * QA mode (`serve --qa`, the scenario runner's host): the gateway's fault switch and the
   * control API's `/v1/inject/*`. Absent, the host has neither. One extension per host.
   */
  readonly qa?: QaExtension;
  /**
   * The directories claimed and the sockets bound before the host was loaded (bindAtStart,
   * `companion serve`): the host takes them over instead of claiming and binding, serves the
   * connections waiting on them once it is up, and releases them if its start fails.
   */
  readonly boundAtStart?: BoundAtStart;
}

/**
 * What only tests set: shorter limits, quicker retries, other ports, substitutes. A separate
 * parameter of startHost, which the CLI and the desktop shell never pass.
 */
export interface HostTuning {
  /** The embedded emulator's limits. */
  readonly platformLimits?: PlatformLimitsInput;
  /** The gateway client's backoff, jitter and timeouts. */
  readonly gateway?: Partial<Omit<GatewayClientOptions, 'url' | 'token' | 'faults'>>;
  /** The waits of signing in again after the platform refused the account's session, e.g. a ban (default 1 s doubling to 60 s). */
  readonly signInAgainMs?: { readonly initialMs: number; readonly maxMs: number };
  /** The relay's game-activity limit (default 5 per 20 s). */
  readonly relayLimit?: RateLimit;
  /** How long a consent prompt waits for the player (default 5 minutes). */
  readonly consentTimeoutMs?: number;
  /** The ports the WebSocket transport tries (default 6463-6472), and its peer check. */
  readonly rpcWebSocketPorts?: readonly number[];
  readonly rpcWebSocketPeerCheck?: PeerCheck;
  /** Starts games for accepted invites (default: the player's configured commands). */
  readonly launcher?: GameLauncher;
  /** The image proxy's test-only allowances (a local test server's address and certificate). */
  readonly externalImages?: ExternalImagesTesting;
  /**
   * Game detection: `scan: false` runs no process scanner (the list and the settings are still
   * kept: tests whose hosts must not see other tests' processes); `intervalMs` the time between
   * two scans (default DEFAULT_SCAN_INTERVAL_MS).
   */
  readonly detection?: { readonly scan?: boolean; readonly intervalMs?: number };
}
