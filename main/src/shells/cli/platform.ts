import os from 'node:os';
import path from 'node:path';
import {
  CorruptStateError,
  LimitsInputError,
  parseLimitsInput,
  PlatformAlreadyRunningError,
  readRuntimeFile,
  runtimeFilePath,
  startPlatform,
  type AdminApp,
  type PlatformLimitsInput,
  type PlatformServer,
} from '../../../../platform/src/index.js';
import type { PlatformUser } from '../../../../platform/src/wire/index.js';
import { parseCommandArgs, readOptionJson, reportExpected, stringOption, UsageError, type CommandIo, type OptionValues } from './cli-args.js';
import { createLogger, LOG_LEVELS, type LogLevel } from '../../base/logger.js';
import { StopSignal, stopSignals } from './stop-signal.js';
import { tlsReport } from './tls-report.js';

export const PLATFORM_HELP = `Usage: companion platform <subcommand> [options]

The local platform emulator: accounts, friends, apps, the HTTP API and the
gateway WebSocket that the host talks to.

Subcommands:
  serve                          Run the emulator until Ctrl+C (SIGINT) or SIGTERM
  users [list]                   List users
  users add NAME                 Create a user (friends with nobody)
  friends add|remove A B         Make two users (names or ids) friends, or not
  friend <action> --as NAME      A simulated friend: presence, ask-to-join, invite,
                                 accept, decline, offline, voice (see 'platform friend --help')
  apps [list]                    List applications (with the executables game
                                 detection recognises them by)
  apps add NAME [--id ID]        Create an application
  assets list APP_ID             List an application's assets
  assets add APP_ID NAME         Add an asset (--type small|large, default large)
  assets remove APP_ID NAME      Remove an asset
  lobbies [list]                 List lobbies, their members and metadata
  lobbies messages LOBBY_ID      A lobby's messages (see 'platform lobbies --help')
  voice [list]                   Who is in the servers' voice channels (--guild, --channel)
  accounts [list]                Provisional accounts and their links to full accounts
  accounts ban|unban USER        Ban a user, or lift it (see 'platform accounts --help')
  accounts mint-token TYPE ID    A test provider token (Steam, Epic, Unity, ...) for QA
  tls                            The local certificate authority of --tls, and how to
                                 trust it on each system (makes it if there is none)

Options for serve:
  --port N          Listen on 127.0.0.1:N (default 0: a free port, never 6463-6472)
  --data DIR        State and runtime file (default $XDG_CONFIG_HOME/companion/platform,
                    else ~/.config/companion/platform)
  --strict-apps     Unknown application ids are 404 instead of registered on first use
  --tls             Also serve the API and the gateway over TLS (https, wss) on a second
                    port, for a native game (Social SDK) pointed at the emulator; the
                    certificate comes from a local CA kept in DIR/tls (made once, reused)
  --tls-port N      The TLS port (default 0: a free one, never 6463-6472); implies --tls
  --limits JSON     Override emulator limits for QA, e.g. '{"heartbeatIntervalMs":500}'
                    or '{"gameActivityLimit":{"count":5,"windowMs":2000}}': any field of
                    the emulator's limits (see platform/README.md); unknown keys are errors
  --limits-file FILE  The same, read from a JSON file
  -v, --verbose     More log output (-v info, -vv debug)
  --log-level LEVEL error | warn | info | debug | trace

Options for the other subcommands:
  --data DIR        Where to read the running emulator's admin token (platform.json)
  --platform URL    The emulator's URL (default: the one in platform.json)
  --json            Print JSON instead of a table
  -h, --help        Show this help

Logs are JSON lines on stderr. Tokens and secrets are never logged, at any level.
`;

/** The emulator's default data dir. */
export function defaultPlatformDataDir(env: Readonly<Record<string, string | undefined>>): string {
  const xdg = env.XDG_CONFIG_HOME;
  if (xdg !== undefined && xdg.length > 0) return path.join(xdg, 'companion', 'platform');
  return path.join(env.HOME ?? os.homedir(), '.config', 'companion', 'platform');
}

/** The admin API answered with an error, or could not be reached. */
export class PlatformAdminError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PlatformAdminError';
  }
}

/** Hooks for tests: `stop` ends `serve` like a signal does. */
export interface PlatformCommandOptions {
  readonly stop?: Promise<unknown>;
}

export async function platformCommand(argv: readonly string[], io: CommandIo, options: PlatformCommandOptions = {}): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === undefined) {
    io.stderr(PLATFORM_HELP);
    return 2;
  }
  if (sub === '-h' || sub === '--help') {
    io.stdout(PLATFORM_HELP);
    return 0;
  }
  if (sub === 'serve') return serve(rest, io, options);
  if (sub === 'friend') return (await import('./platform-friend.js')).friendCommand(rest, io);
  if (sub === 'lobbies') return (await import('./platform-lobbies.js')).lobbiesCommand(rest, io);
  if (sub === 'voice') return (await import('./platform-voice.js')).voiceCommand(rest, io);
  if (sub === 'accounts') return (await import('./platform-accounts.js')).accountsCommand(rest, io);
  if (sub === 'tls') return (await import('./platform-tls.js')).tlsCommand(rest, io, dataDirFrom);
  if (!['users', 'friends', 'apps', 'assets'].includes(sub)) throw new UsageError(`unknown platform subcommand '${sub}' (see 'companion platform --help')`);
  return (await reportExpected(`platform ${sub}`, io, [PlatformAdminError], () => admin(sub, rest, io))) ?? 1;
}

// ---- serve

function levelFrom(verbose: number, explicit: string | undefined): LogLevel {
  if (explicit !== undefined) {
    if (!(LOG_LEVELS as readonly string[]).includes(explicit)) throw new UsageError(`--log-level must be one of ${LOG_LEVELS.join(', ')}, got '${explicit}'`);
    return explicit as LogLevel;
  }
  return (['warn', 'info', 'debug', 'trace'] as const)[Math.min(verbose, 3)] ?? 'warn';
}

function parsePort(value: string | undefined, option = '--port'): number {
  if (value === undefined) return 0;
  const port = Number(value);
  if (!/^[0-9]+$/.test(value) || port > 65535) throw new UsageError(`${option} must be a number from 0 to 65535, got '${value}'`);
  if (port >= 6463 && port <= 6472) throw new UsageError(`${option} ${port} is reserved for the local RPC transport (6463-6472)`);
  return port;
}

async function serve(argv: readonly string[], io: CommandIo, options: PlatformCommandOptions): Promise<number> {
  const parsed = parseCommandArgs('platform serve', argv, {
    port: { type: 'string' },
    data: { type: 'string' },
    'strict-apps': { type: 'boolean' },
    tls: { type: 'boolean' },
    'tls-port': { type: 'string' },
    limits: { type: 'string' },
    'limits-file': { type: 'string' },
    verbose: { type: 'boolean', short: 'v', multiple: true },
    'log-level': { type: 'string' },
  });
  if (parsed.help) {
    io.stdout(PLATFORM_HELP);
    return 0;
  }
  const values = parsed.values;
  const port = parsePort(values.port as string | undefined);
  const tls = values.tls === true || values['tls-port'] !== undefined ? { port: parsePort(values['tls-port'] as string | undefined, '--tls-port') } : undefined;
  const dataDir = path.resolve(dataDirFrom(values.data as string | undefined, io));
  const limits = await limitsFrom(values);
  const logger = createLogger({ level: levelFrom((values.verbose as boolean[] | undefined)?.length ?? 0, values['log-level'] as string | undefined) });

  // Signal handlers first: a signal during start-up stops the emulator as soon as it is up.
  const stop = new StopSignal(stopSignals(), options.stop);

  let platform: PlatformServer;
  try {
    platform = await startPlatform({ port, dataDir, strictApps: values['strict-apps'] === true, logger, ...(limits === undefined ? {} : { limits }), ...(tls === undefined ? {} : { tls }) });
  } catch (error) {
    stop.dispose();
    if (error instanceof PlatformAlreadyRunningError || error instanceof CorruptStateError) {
      io.stderr(`companion platform serve: ${error.message}\n`);
      return 1;
    }
    if (error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string') {
      io.stderr(`companion platform serve: cannot start: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
  io.stdout(`Platform emulator listening on ${platform.url}\n`);
  if (platform.tls !== undefined) io.stdout(tlsReport(platform.tls));
  await stop.wait();
  stop.dispose();
  logger.info({}, 'platform emulator shutting down');
  try {
    await platform.close();
    return 0;
  } catch (error) {
    logger.error({ error: error instanceof Error ? error.message : String(error) }, 'platform emulator shutdown failed');
    return 1;
  }
}

/** The limits override of --limits JSON or --limits-file FILE, checked against the emulator's limits. */
async function limitsFrom(values: OptionValues): Promise<PlatformLimitsInput | undefined> {
  const inline = stringOption(values, 'limits');
  const file = stringOption(values, 'limits-file');
  if (inline !== undefined && file !== undefined) throw new UsageError('--limits and --limits-file are exclusive: give one');
  let json: unknown;
  if (file !== undefined) json = await readOptionJson('--limits-file', file);
  else if (inline !== undefined) {
    try {
      json = JSON.parse(inline) as unknown;
    } catch (error) {
      throw new UsageError(`--limits is not valid JSON (${error instanceof Error ? error.message : 'parse error'})`);
    }
  } else return undefined;
  try {
    return parseLimitsInput(json);
  } catch (error) {
    if (error instanceof LimitsInputError) throw new UsageError(`${file !== undefined ? '--limits-file' : '--limits'}: ${error.message}`);
    throw error;
  }
}

function dataDirFrom(value: string | undefined, io: CommandIo): string {
  if (value === '') throw new UsageError('--data must not be empty');
  return value ?? defaultPlatformDataDir(io.env);
}

// ---- admin subcommands

export interface AdminTarget {
  readonly url: string;
  readonly adminToken: string;
}

async function admin(sub: string, argv: readonly string[], io: CommandIo): Promise<number> {
  const parsed = parseCommandArgs(
    `platform ${sub}`,
    argv,
    { data: { type: 'string' }, platform: { type: 'string' }, json: { type: 'boolean' }, id: { type: 'string' }, type: { type: 'string' } },
    true,
  );
  if (parsed.help) {
    io.stdout(PLATFORM_HELP);
    return 0;
  }
  const { values, positionals } = parsed;
  const json = values.json === true;
  const [action = 'list', ...args] = positionals;
  const expectArgs = (count: number, usage: string): string[] => {
    if (args.length !== count) throw new UsageError(`usage: companion platform ${sub} ${usage}`);
    return args;
  };
  if (values.id !== undefined && !(sub === 'apps' && action === 'add')) throw new UsageError('--id is only for apps add');
  if (values.type !== undefined && !(sub === 'assets' && action === 'add')) throw new UsageError('--type is only for assets add');

  const check = (): void => {
    const known: Record<string, readonly string[]> = {
      users: ['list', 'add'],
      friends: ['add', 'remove'],
      apps: ['list', 'add'],
      assets: ['list', 'add', 'remove'],
    };
    if (!(known[sub] ?? []).includes(action)) throw new UsageError(`unknown action '${action}' for 'platform ${sub}' (see 'companion platform --help')`);
  };
  check();
  // Validate arguments before touching the network.
  const plan = ((): (() => Promise<void>) => {
    switch (`${sub} ${action}`) {
      case 'users list':
        expectArgs(0, 'list');
        return async () => printUsers(io, await call<PlatformUser[]>(target, 'GET', '/_emulator/users'), json);
      case 'users add': {
        const [name] = expectArgs(1, 'add NAME');
        return async () => printUsers(io, [await call<PlatformUser>(target, 'POST', '/_emulator/users', { username: name })], json);
      }
      case 'friends add':
      case 'friends remove': {
        const [a, b] = expectArgs(2, `${action} A B`);
        return async () => {
          const result = await call<{ added?: boolean; removed?: boolean }>(target, action === 'add' ? 'POST' : 'DELETE', '/_emulator/friends', { a, b });
          if (json) io.stdout(`${JSON.stringify(result)}\n`);
          else if (action === 'add') io.stdout(result.added === true ? `${a} and ${b} are now friends\n` : `${a} and ${b} were friends already\n`);
          else io.stdout(result.removed === true ? `${a} and ${b} are no longer friends\n` : `${a} and ${b} were not friends\n`);
        };
      }
      case 'apps list':
        expectArgs(0, 'list');
        return async () => printApps(io, await call<AdminApp[]>(target, 'GET', '/_emulator/apps'), json);
      case 'apps add': {
        const [name] = expectArgs(1, 'add NAME [--id ID]');
        const id = values.id as string | undefined;
        if (id !== undefined && !/^[0-9]{15,20}$/.test(id)) throw new UsageError(`--id must be a snowflake (15-20 digits), got '${id}'`);
        return async () => printApps(io, [await call<AdminApp>(target, 'POST', '/_emulator/apps', { name, ...(id !== undefined ? { id } : {}) })], json);
      }
      case 'assets list': {
        const [appId] = expectArgs(1, 'list APP_ID');
        return async () => {
          const app = (await call<AdminApp[]>(target, 'GET', '/_emulator/apps')).find((candidate) => candidate.id === appId);
          if (app === undefined) throw new PlatformAdminError(`unknown application ${appId}`);
          printAssets(io, app.assets, json);
        };
      }
      case 'assets add': {
        const [appId, name] = expectArgs(2, 'add APP_ID NAME [--type small|large]');
        const type = assetType(values.type as string | undefined);
        return async () =>
          printAssets(io, [await call<AdminApp['assets'][number]>(target, 'POST', `/_emulator/apps/${encodeURIComponent(appId as string)}/assets`, { name, type })], json);
      }
      default: {
        const [appId, name] = expectArgs(2, 'remove APP_ID NAME');
        return async () => {
          await call(target, 'DELETE', `/_emulator/apps/${encodeURIComponent(appId as string)}/assets/${encodeURIComponent(name as string)}`);
          io.stdout(json ? '{"removed":true}\n' : `Removed asset ${name} from ${appId}\n`);
        };
      }
    }
  })();
  const target = await findTarget(values.data as string | undefined, values.platform as string | undefined, io);
  await plan();
  return 0;
}

function assetType(value: string | undefined): number {
  if (value === undefined || value === 'large' || value === '2') return 2;
  if (value === 'small' || value === '1') return 1;
  throw new UsageError(`--type must be small or large, got '${value}'`);
}

export async function findTarget(dataOption: string | undefined, urlOption: string | undefined, io: CommandIo): Promise<AdminTarget> {
  const dataDir = dataDirFrom(dataOption, io);
  const info = await readRuntimeFile(dataDir);
  if (info === undefined) {
    throw new PlatformAdminError(`no running platform emulator found (${runtimeFilePath(dataDir)} is missing); start one with 'companion platform serve' or pass --data`);
  }
  if (urlOption !== undefined && !/^https?:\/\/[^/]+\/?$/.test(urlOption)) throw new UsageError(`--platform must be an http URL like http://127.0.0.1:PORT, got '${urlOption}'`);
  return { url: (urlOption ?? info.url).replace(/\/$/, ''), adminToken: info.adminToken };
}

export async function call<T = unknown>(target: AdminTarget, method: string, pathname: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`${target.url}${pathname}`, {
      method,
      headers: { Authorization: `Admin ${target.adminToken}`, ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    throw new PlatformAdminError(`cannot reach the platform emulator at ${target.url}${cause !== undefined ? ` (${cause})` : ''}`);
  }
  const text = await response.text();
  const data = text.length > 0 ? (JSON.parse(text) as unknown) : undefined;
  if (!response.ok) {
    if (response.status === 401) throw new PlatformAdminError(`the emulator at ${target.url} refused the admin token (is it the one whose platform.json was read?)`);
    const message = (data as { message?: string } | undefined)?.message ?? `HTTP ${response.status}`;
    const detail = firstFieldError(data);
    throw new PlatformAdminError(detail !== undefined ? `${message}: ${detail}` : message);
  }
  return data as T;
}

/** The first `_errors` message of a 50035 body. */
function firstFieldError(data: unknown): string | undefined {
  const errors = (data as { errors?: unknown } | undefined)?.errors;
  const visit = (node: unknown): string | undefined => {
    if (typeof node !== 'object' || node === null) return undefined;
    const list = (node as { _errors?: { message?: string }[] })._errors;
    if (Array.isArray(list) && typeof list[0]?.message === 'string') return list[0].message;
    for (const child of Object.values(node)) {
      const found = visit(child);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  return visit(errors);
}

// ---- output

function table(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = headers.map((header, i) => Math.max(header.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return `${[line(headers), ...rows.map(line)].join('\n')}\n`;
}

function printUsers(io: CommandIo, users: readonly PlatformUser[], json: boolean): void {
  if (json) return io.stdout(`${JSON.stringify(users, null, 2)}\n`);
  io.stdout(table(['ID', 'USERNAME', 'DISPLAY NAME'], users.map((user) => [user.id, user.username, user.global_name ?? ''])));
}

function printApps(io: CommandIo, apps: readonly AdminApp[], json: boolean): void {
  if (json) return io.stdout(`${JSON.stringify(apps, null, 2)}\n`);
  io.stdout(
    table(
      ['ID', 'NAME', 'VERIFIED', 'ASSETS', 'EXECUTABLES', 'PUBLIC KEY'],
      apps.map((app) => [app.id, app.name, app.verified ? 'yes' : app.auto_registered ? 'no (auto)' : 'no', String(app.assets.length), executablesText(app), app.public_key]),
    ),
  );
}

/** What game detection recognises the app by, in a table cell: `os:name`, a launcher marked. */
function executablesText(app: AdminApp): string {
  const executables = app.executables ?? [];
  if (executables.length === 0) return '-';
  return executables.map((e) => `${e.os}:${e.name}${e.is_launcher ? ' (launcher)' : ''}${e.arguments === undefined ? '' : ` [${e.arguments}]`}`).join(', ');
}

function printAssets(io: CommandIo, assets: readonly AdminApp['assets'][number][], json: boolean): void {
  if (json) return io.stdout(`${JSON.stringify(assets, null, 2)}\n`);
  io.stdout(table(['ID', 'NAME', 'TYPE'], assets.map((asset) => [asset.id, asset.name, asset.type === 1 ? 'small' : 'large'])));
}
