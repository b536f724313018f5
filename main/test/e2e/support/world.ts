/* eslint-disable @typescript-eslint/no-explicit-any -- event and reply payloads are checked by the tests' own expectations */
import { startWebUi } from '../../../src/shells/web/web-ui-server.js';
import { rm } from 'node:fs/promises';
import { Client } from '@xhayper/discord-rpc';
import { startPlatform } from '../../../../platform/src/index.js';
import { startHost, type ConsentOptions, type Host, type HostOptions, type HostTuning, type ListenOptions, type PlatformOptions, type UiOptions } from '../../../src/host/compose/host.js';
import { qaMode } from '../../../src/tools/inject/qa-mode.js';
import { makeTempDir } from '../../../../rpc/test/support/test-server.js';
import { Recorder, within } from '../../../../rpc/test/compat/helpers.js';
import type { RpcLogger } from '../../../../rpc/src/index.js';

/** The demo application every emulator is seeded with. */
export const DEMO_APP_ID = '1234567890123456789';

export const quietLogger: RpcLogger = { debug() {}, info() {}, warn() {}, error() {} };

export type Platform = Awaited<ReturnType<typeof startPlatform>>;

export interface Player {
  readonly name: string;
  readonly host: Host;
  readonly runtimeDir: string;
  readonly dataDir: string;
  /** A game of `applicationId` connected to this player's host with the real xhayper client. */
  game(applicationId?: string): Promise<Game>;
  /** Calls the host's control API. */
  control(method: string, route: string, body?: unknown): Promise<{ status: number; body: any; text: string }>;
}

export interface Game {
  readonly client: Client;
  /** Every event the game received, as [evt, data]. */
  readonly events: Recorder<[string, any]>;
  subscribe(evt: 'ACTIVITY_JOIN' | 'ACTIVITY_JOIN_REQUEST' | 'ACTIVITY_INVITE' | 'ACTIVITY_INVITE_ACCEPTED'): Promise<void>;
}

const EVENTS = ['ACTIVITY_JOIN', 'ACTIVITY_JOIN_REQUEST', 'ACTIVITY_INVITE', 'ACTIVITY_INVITE_ACCEPTED'] as const;

/** Connects an xhayper client to the sockets in `runtimeDir` (the library reads XDG_RUNTIME_DIR at connect). */
export async function connectGame(runtimeDir: string, applicationId: string): Promise<Game> {
  const previous = process.env['XDG_RUNTIME_DIR'];
  process.env['XDG_RUNTIME_DIR'] = runtimeDir;
  const client = new Client({ clientId: applicationId });
  try {
    await within(client.connect(), 5000, 'xhayper connect() (READY)');
  } finally {
    if (previous === undefined) delete process.env['XDG_RUNTIME_DIR'];
    else process.env['XDG_RUNTIME_DIR'] = previous;
  }
  const events = new Recorder<[string, any]>();
  for (const evt of EVENTS) client.on(evt, (data: unknown) => events.push([evt, data]));
  return {
    client,
    events,
    async subscribe(evt) {
      // ACTIVITY_INVITE_ACCEPTED is ours, so the library's event union does not list it.
      await client.subscribe(evt as Parameters<Client['subscribe']>[0]);
    },
  };
}

/** Calls a host's control API with its bearer token. */
export async function controlCall(host: Host, method: string, route: string, body?: unknown): Promise<{ status: number; body: any; text: string }> {
  const response = await fetch(`${host.control.url}${route}`, {
    method,
    headers: { Authorization: `Bearer ${host.control.token}`, 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text), text };
}

/**
 * A test host's options in one flat list: the product's options (HostOptions, by concern) and
 * the tests' tuning (HostTuning) side by side. `qa: true` starts it in QA mode.
 */
export interface TestHostOptions {
  readonly runtimeDir?: string | undefined;
  readonly dataDir: string;
  readonly platformUrl?: string | undefined;
  readonly rpcWebSocket?: boolean;
  readonly credentials?: PlatformOptions['credentials'];
  readonly tokenStore?: PlatformOptions['tokenStore'];
  readonly strictApps?: boolean;
  readonly consentPolicy?: ConsentOptions['policy'];
  readonly consentAlwaysAsk?: boolean;
  readonly webUi?: boolean;
  readonly webUiRendererDir?: string;
  readonly record?: HostOptions['record'];
  readonly qa?: boolean;
  readonly relayLimit?: HostTuning['relayLimit'];
  readonly consentTimeoutMs?: number;
  readonly rpcWebSocketPorts?: readonly number[];
  readonly launcher?: HostTuning['launcher'];
  /** Default: a logger that writes nothing. */
  readonly logger?: HostOptions['logger'];
  /** Game detection's scanner (default off: a test host must not see other tests' processes). */
  readonly detection?: HostTuning['detection'];
}

/** The fields that are set (exactOptionalPropertyTypes: an option is absent, never undefined). */
function defined<T extends object>(value: { readonly [K in keyof T]?: T[K] | undefined }): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** A host for tests: quiet, fast gateway retries, on the given dirs and platform. */
export function startTestHost(options: TestHostOptions): Promise<Host> {
  const hostOptions: HostOptions = {
    env: {},
    version: '0.0.0-test',
    logger: options.logger ?? quietLogger,
    dataDir: options.dataDir,
    listen: defined<ListenOptions>({
      runtimeDir: options.runtimeDir,
      // Tests run many hosts at once: the 6463-6472 WebSocket transport has its own tests.
      rpcWebSocket: options.rpcWebSocket ?? false,
    }),
    platform: defined<PlatformOptions>({ url: options.platformUrl, credentials: options.credentials, tokenStore: options.tokenStore, strictApps: options.strictApps }),
    consent: defined<ConsentOptions>({ policy: options.consentPolicy, alwaysAsk: options.consentAlwaysAsk }),
    ...(options.webUi === false ? {} : { ui: defined<UiOptions>({ start: startWebUi, rendererDir: options.webUiRendererDir }) }),
    ...(options.record === undefined ? {} : { record: options.record }),
    ...(options.qa === true ? { qa: qaMode() } : {}),
  };
  const tuning = defined<HostTuning>({
    gateway: { backoff: { initialMs: 50, maxMs: 500 } },
    signInAgainMs: { initialMs: 50, maxMs: 500 },
    relayLimit: options.relayLimit,
    consentTimeoutMs: options.consentTimeoutMs,
    rpcWebSocketPorts: options.rpcWebSocketPorts,
    launcher: options.launcher,
    detection: options.detection ?? { scan: false },
  });
  return startHost(hostOptions, tuning);
}

/** Polls a condition that other processes' work makes true (a gateway round trip). */
export async function eventually<T>(probe: () => T | undefined | false, what: string, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** One emulator and hosts for some of its demo users; everything in temp dirs, closed by close(). */
export class World {
  readonly players = new Map<string, Player>();
  private readonly games: Game[] = [];
  private readonly dirs: string[] = [];

  private constructor(
    public platform: Platform,
    private readonly platformDir: string,
    private readonly limits: Record<string, unknown> | undefined,
  ) {
    this.dirs.push(platformDir);
  }

  static async start(limits?: Record<string, unknown>, strictApps = false): Promise<World> {
    const dataDir = await makeTempDir('companion-platform-');
    const platform = await startPlatform({ port: 0, dataDir, logger: quietLogger, strictApps, ...(limits === undefined ? {} : { limits }) });
    return new World(platform, dataDir, limits);
  }

  /** A temp dir removed by close(). */
  async tempDir(prefix: string): Promise<string> {
    const dir = await makeTempDir(prefix);
    this.dirs.push(dir);
    return dir;
  }

  /** Stops the emulator (every gateway connection drops) and starts it again on the same port and state. */
  async restartPlatform(downtime?: () => Promise<void>): Promise<void> {
    const port = this.platform.port;
    await this.platform.close();
    await downtime?.();
    this.platform = await startPlatform({
      port,
      dataDir: this.platformDir,
      logger: quietLogger,
      ...(this.limits === undefined ? {} : { limits: this.limits }),
    });
  }

  /** A host signed in as `name`; `device` tells two hosts of one user apart. */
  async player(name: string, extra: Partial<TestHostOptions> = {}, device = name): Promise<Player> {
    const runtimeDir = await makeTempDir('companion-rt-');
    const dataDir = await makeTempDir('companion-data-');
    this.dirs.push(runtimeDir, dataDir);
    const host = await startTestHost({ runtimeDir, dataDir, platformUrl: this.platform.url, credentials: { username: name }, ...extra });
    const outcome = host.signedIn;
    if (outcome.kind !== 'signed-in') throw new Error(`${name} did not sign in: ${JSON.stringify(outcome)}`);
    await eventually(() => host.session.status.status === 'ready', `${name}'s gateway READY`);
    const games = this.games;
    const player: Player = {
      name,
      host,
      runtimeDir,
      dataDir,
      async game(applicationId = DEMO_APP_ID) {
        const game = await connectGame(runtimeDir, applicationId);
        games.push(game);
        return game;
      },
      control: (method, route, body) => controlCall(host, method, route, body),
    };
    this.players.set(device, player);
    return player;
  }

  async close(): Promise<void> {
    await Promise.all(this.games.splice(0).map((game) => within(game.client.destroy(), 2000, 'xhayper destroy()').catch(() => undefined)));
    for (const player of this.players.values()) await player.host.close();
    await this.platform.close();
    for (const dir of this.dirs) await rm(dir, { recursive: true, force: true });
  }
}

/** A joinable activity as xhayper sends it. */
export function joinableActivity(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    state: 'In a squad',
    details: 'Ranked match',
    partyId: 'party-alpha',
    partySize: 1,
    partyMax: 4,
    joinSecret: 'join-secret-alpha-7f3a',
    largeImageKey: 'logo',
    ...overrides,
  };
}
