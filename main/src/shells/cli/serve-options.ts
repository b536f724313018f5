import os from 'node:os';
import path from 'node:path';
import type { HostOptions, ListenOptions, RecordOptions } from '../../host/compose/host.js';
import { CONSENT_POLICIES, parseConsentPolicy, type ConsentPolicy } from '../../host/auth/consent-policy.js';
import type { Credentials } from '../../host/session/platform-session.js';
import { LOG_LEVELS, type LogLevel } from '../../base/log-levels.js';
import { DEFAULT_MAX_CONNECTIONS } from '../../../../rpc/src/server/connection-limit.js';
import { parseCommandArgs, readSecretFile, UsageError, type CommandIo } from './cli-args.js';

/** What `companion serve`'s arguments ask for, checked; `help` when only the help is wanted. */
export interface ServeSettings {
  readonly help: boolean;
  readonly level: LogLevel;
  readonly runtimeDir: string | undefined;
  readonly dataDir: string;
  readonly platformUrl: string | undefined;
  readonly credentials: Credentials | undefined;
  readonly strictApps: boolean;
  readonly consentPolicy: ConsentPolicy;
  readonly consentAlwaysAsk: boolean;
  readonly allowSecond: boolean;
  /** false with `--no-game-detection`: no process scanning this run (the player's settings are kept). */
  readonly gameDetection: boolean;
  readonly snapSocket: boolean;
  /** `--max-connections-per-program`: open RPC connections one program may hold (default 64). */
  readonly maxConnectionsPerProgram: number | undefined;
  readonly record: RecordOptions | undefined;
  /** `--qa`: the control API's `/v1/inject/*` and the gateway's fault switch. */
  readonly qa: boolean;
  /** `--platform-tls` / `--platform-tls-port N`: the embedded emulator's TLS listener for native games. */
  readonly platformTls?: { readonly port: number };
}

const SERVE_OPTIONS = {
  'runtime-dir': { type: 'string' },
  'data-dir': { type: 'string' },
  platform: { type: 'string' },
  user: { type: 'string' },
  'token-file': { type: 'string' },
  'strict-apps': { type: 'boolean' },
  'platform-tls': { type: 'boolean' },
  'platform-tls-port': { type: 'string' },
  consent: { type: 'string' },
  'consent-always-ask': { type: 'boolean' },
  'allow-second': { type: 'boolean' },
  'no-game-detection': { type: 'boolean' },
  'snap-socket': { type: 'boolean' },
  'max-connections-per-program': { type: 'string' },
  record: { type: 'string' },
  'record-secrets': { type: 'boolean' },
  qa: { type: 'boolean' },
  verbose: { type: 'boolean', short: 'v', multiple: true },
  'log-level': { type: 'string' },
} as const;

export async function parseServeArgs(argv: readonly string[], io: CommandIo): Promise<ServeSettings | { readonly help: true }> {
  const parsed = parseCommandArgs('serve', argv, SERVE_OPTIONS);
  if (parsed.help) return { help: true };
  const values = parsed.values;
  const level = levelFrom((values.verbose as boolean[] | undefined)?.length ?? 0, values['log-level'] as string | undefined);
  const runtimeDir = values['runtime-dir'] as string | undefined;
  if (runtimeDir === '') throw new UsageError('--runtime-dir must not be empty');
  const dataDir = (values['data-dir'] as string | undefined) ?? defaultDataDir(io.env);
  if (dataDir === '') throw new UsageError('--data-dir must not be empty');
  const platformUrl = parsePlatformUrl(values.platform as string | undefined);
  const strictApps = values['strict-apps'] === true;
  if (platformUrl !== undefined && strictApps) {
    throw new UsageError("--strict-apps applies to the embedded emulator; start the other one with 'companion platform serve --strict-apps'");
  }
  const platformTls = parsePlatformTls(values['platform-tls'] === true, values['platform-tls-port'] as string | undefined, platformUrl);
  const consentValue = values.consent as string | undefined;
  const consentPolicy = consentValue === undefined ? 'prompt' : parseConsentPolicy(consentValue);
  if (consentPolicy === undefined) throw new UsageError(`--consent must be one of ${CONSENT_POLICIES.join(', ')}, got '${consentValue}'`);
  return {
    help: false,
    level,
    runtimeDir,
    dataDir,
    platformUrl,
    strictApps,
    consentPolicy,
    consentAlwaysAsk: values['consent-always-ask'] === true,
    allowSecond: values['allow-second'] === true,
    gameDetection: values['no-game-detection'] !== true,
    snapSocket: values['snap-socket'] === true,
    maxConnectionsPerProgram: parseConnectionCount(values['max-connections-per-program'] as string | undefined),
    record: parseRecordOptions(values.record as string | undefined, values['record-secrets'] === true),
    qa: values.qa === true,
    ...(platformTls === undefined ? {} : { platformTls }),
    credentials: await readCredentials(values.user as string | undefined, values['token-file'] as string | undefined, io.env),
  };
}

/** The host's options for these settings (without the QA extension and the socket activation, which the command adds). */
export function serveHostOptions(settings: ServeSettings, io: CommandIo, logger: HostOptions['logger']): HostOptions {
  return {
    env: io.env,
    version: io.version,
    logger,
    dataDir: settings.dataDir,
    listen: serveListenOptions(settings),
    platform: {
      url: settings.platformUrl,
      credentials: settings.credentials,
      strictApps: settings.strictApps,
      ...(settings.platformTls === undefined ? {} : { tls: settings.platformTls }),
    },
    consent: { policy: settings.consentPolicy, alwaysAsk: settings.consentAlwaysAsk },
    ...(settings.gameDetection ? {} : { gameDetection: false }),
    ...(settings.record === undefined ? {} : { record: settings.record }),
  };
}

/** Where the host listens for these settings (without the socket activation, which the command adds). */
export function serveListenOptions(settings: ServeSettings): ListenOptions {
  return {
    runtimeDir: settings.runtimeDir,
    allowSecond: settings.allowSecond,
    snapSocket: settings.snapSocket,
    ...(settings.maxConnectionsPerProgram === undefined ? {} : { maxConnectionsPerProgram: settings.maxConnectionsPerProgram }),
  };
}

function levelFrom(verbose: number, explicit: string | undefined): LogLevel {
  if (explicit !== undefined) {
    if (!(LOG_LEVELS as readonly string[]).includes(explicit)) {
      throw new UsageError(`--log-level must be one of ${LOG_LEVELS.join(', ')}, got '${explicit}'`);
    }
    return explicit as LogLevel;
  }
  return (['warn', 'info', 'debug', 'trace'] as const)[Math.min(verbose, 3)] ?? 'warn';
}

function defaultDataDir(env: Readonly<Record<string, string | undefined>>): string {
  const config = env.XDG_CONFIG_HOME || path.join(env.HOME || os.homedir(), '.config');
  return path.join(config, 'companion');
}

function parseRecordOptions(file: string | undefined, secrets: boolean): RecordOptions | undefined {
  if (file === undefined) {
    if (secrets) throw new UsageError('--record-secrets needs --record FILE');
    return undefined;
  }
  if (file === '') throw new UsageError('--record must name a file');
  return { file: path.resolve(file), secrets };
}

/** A whole number of connections from 1 to the total cap (1,024). */
function parseConnectionCount(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const count = /^\d{1,4}$/.test(value) ? Number(value) : NaN;
  if (!(count >= 1 && count <= DEFAULT_MAX_CONNECTIONS)) {
    throw new UsageError(`--max-connections-per-program must be a whole number from 1 to ${DEFAULT_MAX_CONNECTIONS}, got '${value}'`);
  }
  return count;
}

/** `--platform-tls` (or a `--platform-tls-port`): the embedded emulator's TLS port, 0 for a free one. */
function parsePlatformTls(asked: boolean, portValue: string | undefined, platformUrl: string | undefined): { port: number } | undefined {
  if (!asked && portValue === undefined) return undefined;
  if (platformUrl !== undefined) {
    throw new UsageError("--platform-tls applies to the embedded emulator; start the other one with 'companion platform serve --tls'");
  }
  if (portValue === undefined) return { port: 0 };
  const port = /^\d{1,5}$/.test(portValue) ? Number(portValue) : NaN;
  if (!(port >= 0 && port <= 65535)) throw new UsageError(`--platform-tls-port must be a number from 0 to 65535, got '${portValue}'`);
  if (port >= 6463 && port <= 6472) throw new UsageError(`--platform-tls-port ${port} is reserved for the local RPC transport (6463-6472)`);
  return { port };
}

function parsePlatformUrl(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--platform must be an http(s) URL, got '${value}'`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--platform must be an http(s) URL, got '${value}'`);
  return url.origin;
}

/** --user, --token-file or COMPANION_TOKEN; at most one. Tokens never come from argv. */
async function readCredentials(
  username: string | undefined,
  tokenFile: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): Promise<Credentials | undefined> {
  const envToken = env.COMPANION_TOKEN || undefined;
  const given = [username !== undefined, tokenFile !== undefined, envToken !== undefined].filter(Boolean).length;
  if (given > 1) throw new UsageError('give only one of --user, --token-file and COMPANION_TOKEN');
  if (username !== undefined) {
    if (username.length === 0) throw new UsageError('--user must not be empty');
    return { username };
  }
  if (tokenFile !== undefined) return { token: await readSecretFile('--token-file', tokenFile) };
  return envToken === undefined ? undefined : { token: envToken.trim() };
}
