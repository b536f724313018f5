import path from 'node:path';
import {
  describeListenDirectory,
  IPC_INDEX_COUNT,
  ipcListenDirectories,
  ipcSocketPath,
  PREFIX_ENV_VARS,
  resolveIpcPrefix,
  type Env,
  type ListenDirectoryKind,
} from '../../../../rpc/src/index.js';
import { HostNotFoundError, readHostRuntimeFile } from '../../base/host-locator.js';
import { pidExists } from '../../../../common/src/node/pid-exists.js';
import { runtimeFilePath } from '../../base/runtime-file.js';
import { clientChoices, type ClientChoice, type FsView, type PathState } from './client-rules.js';
import { flatpakApps, flatpakListFromPath, type FlatpakReport } from './flatpak.js';
import { FsSnapshot } from './fs-snapshot.js';
import { installedBridgeExe, wineFindings, wineSessions, type ProcessInfo, type WineReport } from './wine-games.js';

/**
 * `companion doctor`'s findings, as plain JSON (the CLI prints it, a Settings panel can show
 * it). It holds paths, states and advice, never a token: of the runtime file it reads only
 * the pid, the version, the start time and the socket paths.
 */
export interface DoctorReport {
  readonly platform: string;
  readonly environment: {
    /** XDG_RUNTIME_DIR, TMPDIR, TMP, TEMP as set (null: not set). */
    readonly variables: Readonly<Record<string, string | null>>;
    /** Where games look first: the resolved prefix. */
    readonly prefix: { readonly dir: string; readonly source: string };
  };
  readonly companion: CompanionStatus;
  /** The directories Companion listens in (or would, started here), with the reason. */
  readonly directories: readonly { readonly dir: string; readonly kind: string; readonly why: string }[];
  /** What is at each discord-ipc-N of those directories (absent ones left out). */
  readonly sockets: readonly SocketSlot[];
  /** The socket each known client library would pick here. */
  readonly clients: readonly ClientReport[];
  /** Linux: Flatpak apps and whether they can see Companion's sockets; null elsewhere. */
  readonly flatpak: FlatpakReport | null;
  /** Windows games under Wine and whether each session has the bridge; present when asked for (options.wineProcesses). */
  readonly wine?: WineReport;
  /** What to do, most important first. */
  readonly findings: readonly string[];
}

export type CompanionStatus =
  | { readonly state: 'running'; readonly runtimeFile: string; readonly pid: number; readonly version: string | null; readonly startedAt: string | null; readonly listeners: readonly ListenerEntry[] }
  | { readonly state: 'not-running'; readonly runtimeFile: string }
  /** A runtime file whose host is gone (a crash). */
  | { readonly state: 'stale'; readonly runtimeFile: string; readonly pid: number | null };

export interface ListenerEntry {
  readonly path: string;
  readonly index: number;
  readonly kind: string;
}

export interface SocketSlot {
  readonly dir: string;
  readonly index: number;
  readonly path: string;
  readonly state: Exclude<PathState, 'absent'>;
  /** For a socket that answers: Companion's, or another server's (the desktop client, arRPC, ...). */
  readonly holder: 'companion' | 'another server' | null;
}

export interface ClientReport extends ClientChoice {
  /** Whom the connection reaches, when it connects. */
  readonly reaches: 'companion' | 'another server' | null;
}

export interface DoctorOptions {
  readonly env: Env;
  readonly platform?: NodeJS.Platform;
  readonly uid?: number;
  /** `--runtime-dir`: the host to look at, as for `companion serve`. */
  readonly runtimeDir?: string | undefined;
  /** macOS: the GUI session's TMPDIR (`getconf DARWIN_USER_TEMP_DIR`), where Companion also listens. */
  readonly guiTempDir?: string | undefined;
  /** pypresence's /run/user/<uid> (default that path). */
  readonly runUserDir?: string;
  /** The system Flatpak installation (default /var/lib/flatpak). */
  readonly flatpakSystemDir?: string;
  /** `flatpak list` (default: run it when flatpak is on PATH). */
  readonly listFlatpakApps?: () => Promise<readonly string[] | undefined>;
  /** Whether a process exists (default: signal 0). */
  readonly pidAlive?: (pid: number) => boolean;
  /** The processes to look for Wine games in (the CLI: this user's, from /proc); without it no Wine check. */
  readonly wineProcesses?: () => Promise<readonly ProcessInfo[]>;
  /** The bridge named in the Wine fix (default: the one this Companion carries). */
  readonly bridgeExe?: string;
  /** The home directory: Wine's default prefix is ~/.wine (default: HOME). */
  readonly home?: string;
  /**
   * Which paths to look at (default: all). Others count as absent, unprobed: a fake
   * environment for tests sees only its own directories, not the machine's /tmp.
   */
  readonly visible?: (p: string) => boolean;
}

export async function buildDoctorReport(options: DoctorOptions): Promise<DoctorReport> {
  const env = options.env;
  const platform = options.platform ?? process.platform;
  const uid = options.uid ?? process.getuid?.() ?? 0;
  const prefix = resolveIpcPrefix(env, options.runtimeDir);
  const runtimeFile = runtimeFilePath(prefix.dir);
  const recorded = await readRuntimeFile(runtimeFile, env);
  const planned = ipcListenDirectories(env, platform, { runtimeDir: options.runtimeDir, guiTempDir: options.guiTempDir });
  const directories = mergeDirectories(planned, recorded?.listeners ?? []);
  const clientEnvironment = { env, platform, uid, runUserDir: options.runUserDir ?? `/run/user/${uid}` };

  const snapshot = new FsSnapshot(options.visible);
  const view = await snapshot.collect((v) => {
    for (const { dir } of directories) for (let i = 0; i < IPC_INDEX_COUNT; i += 1) v.state(ipcSocketPath(i, dir, platform));
    for (const listener of recorded?.listeners ?? []) v.realpath(listener.path);
    clientChoices(clientEnvironment, v);
  });

  const alive = options.pidAlive ?? pidExists;
  const primary = recorded?.listeners[0];
  let companion: CompanionStatus;
  if (recorded === undefined) companion = { state: 'not-running', runtimeFile };
  else if (recorded.pid !== null && alive(recorded.pid) && primary !== undefined && view.state(primary.path) === 'answers') {
    companion = { state: 'running', runtimeFile, pid: recorded.pid, version: recorded.version, startedAt: recorded.startedAt, listeners: recorded.listeners };
  } else companion = { state: 'stale', runtimeFile, pid: recorded.pid };

  const ours = new Set<string>();
  if (companion.state === 'running') {
    for (const listener of companion.listeners) ours.add(view.realpath(listener.path) ?? listener.path);
  }
  const holderOf = (p: string): SocketSlot['holder'] => (view.state(p) !== 'answers' ? null : ours.has(view.realpath(p) ?? p) ? 'companion' : 'another server');

  const sockets: SocketSlot[] = [];
  for (const { dir } of directories) {
    for (let index = 0; index < IPC_INDEX_COUNT; index += 1) {
      const p = ipcSocketPath(index, dir, platform);
      const state = view.state(p);
      if (state !== 'absent') sockets.push({ dir, index, path: p, state, holder: holderOf(p) });
    }
  }
  const clients: ClientReport[] = clientChoices(clientEnvironment, view).map((choice) => ({
    ...choice,
    reaches: choice.outcome.kind === 'connects' ? holderOf(choice.outcome.path) : null,
  }));
  const listening = companion.state === 'running' ? companion.listeners.filter((l) => l.kind === 'flatpak').map((l) => l.index) : [0];
  const flatpak =
    platform === 'linux'
      ? await flatpakApps({ env, systemDir: options.flatpakSystemDir ?? '/var/lib/flatpak', listApps: options.listFlatpakApps ?? flatpakListFromPath(env) }, listening)
      : null;

  const wine = options.wineProcesses === undefined ? undefined : await wineReport(options, env);
  const report = {
    platform,
    environment: {
      variables: Object.fromEntries(PREFIX_ENV_VARS.map((name) => [name, env[name] ?? null])),
      prefix: { dir: prefix.dir, source: prefix.source },
    },
    companion,
    directories: directories.map(({ dir, kind }) => ({ dir, kind, why: describeListenDirectory(kind) })),
    sockets,
    clients,
    flatpak,
    ...(wine === undefined ? {} : { wine }),
  };
  return { ...report, findings: findings(report, clientEnvironment.runUserDir, view) };
}

async function wineReport(options: DoctorOptions, env: Env): Promise<WineReport> {
  const processes = (await options.wineProcesses?.()) ?? [];
  return { sessions: wineSessions(processes, options.home ?? env['HOME'] ?? '/root'), bridgeExe: options.bridgeExe ?? installedBridgeExe() };
}

interface RecordedHost {
  readonly pid: number | null;
  readonly version: string | null;
  readonly startedAt: string | null;
  readonly listeners: readonly ListenerEntry[];
}

/** The runtime file's non-secret fields: pid, version, start time, sockets. */
async function readRuntimeFile(file: string, env: Env): Promise<RecordedHost | undefined> {
  let parsed: Record<string, unknown>;
  try {
    parsed = (await readHostRuntimeFile({ host: file, env })).info as Record<string, unknown>;
  } catch (error) {
    if (error instanceof HostNotFoundError) return undefined;
    throw error;
  }
  const listeners: ListenerEntry[] = [];
  const entries = Array.isArray(parsed['listeners']) ? (parsed['listeners'] as unknown[]) : [parsed['ipc']];
  for (const entry of entries) {
    if (typeof entry !== 'object' || entry === null) continue;
    const { path: p, index, kind } = entry as Record<string, unknown>;
    if (typeof p === 'string' && typeof index === 'number') listeners.push({ path: p, index, kind: typeof kind === 'string' ? kind : 'prefix' });
  }
  return {
    pid: typeof parsed['pid'] === 'number' ? parsed['pid'] : null,
    version: typeof parsed['version'] === 'string' ? parsed['version'] : null,
    startedAt: typeof parsed['startedAt'] === 'string' ? parsed['startedAt'] : null,
    listeners,
  };
}

/** The planned directories, then any other directory the running host listens in. */
function mergeDirectories(planned: readonly { dir: string; kind: ListenDirectoryKind }[], listeners: readonly ListenerEntry[]): { dir: string; kind: ListenDirectoryKind }[] {
  const dirs = planned.map(({ dir, kind }) => ({ dir, kind }));
  for (const listener of listeners) {
    const dir = path.dirname(listener.path);
    if (!dirs.some((d) => d.dir === dir)) dirs.push({ dir, kind: listener.kind as ListenDirectoryKind });
  }
  return dirs;
}

type ReportBody = Omit<DoctorReport, 'findings'>;

/**
 * Which of the libraries in the report stop at a dead path, as the library list works them out:
 * a library that takes the first path that exists (the Rust crate) or the first entry listed
 * (pypresence) stops there only when it reaches that path before a working one.
 */
function whoStopsAt(deadPath: string, clients: readonly ClientReport[]): string {
  const stopping = clients.filter((client) => client.outcome.kind === 'fails' && client.outcome.path === deadPath).map((client) => client.name);
  if (stopping.length > 0) return `${stopping.join(', ')} ${stopping.length === 1 ? 'stops' : 'stop'} at it`;
  return 'no library here stops at it now (each reaches another socket first), though pypresence (the first entry listed) or the Rust crate (the first path that exists) may once sockets change';
}

/** What removes a stale socket: the running Companion when it is in one of its directories. */
function staleRemedy(slot: SocketSlot, companion: CompanionStatus): string {
  const watched = companion.state === 'running' && companion.listeners.some((listener) => path.dirname(listener.path) === slot.dir);
  return watched ? 'the running Companion removes it within seconds, or delete it' : 'Companion removes it when it starts (and while it runs), or delete it';
}

function findings(report: ReportBody, runUserDir: string, view: FsView): string[] {
  const out: string[] = [];
  const { companion, environment } = report;
  if (companion.state === 'not-running') out.push(`Companion is not running for ${environment.prefix.dir} (no ${companion.runtimeFile}): start it with 'companion serve'`);
  if (companion.state === 'stale') {
    out.push(`Companion is not running: ${companion.runtimeFile} is left from a host that is gone${companion.pid === null ? '' : ` (pid ${companion.pid})`}; 'companion serve' replaces it`);
  }
  for (const slot of report.sockets) {
    if (slot.state === 'refuses') out.push(`${slot.path} is a stale socket (nobody listens): ${whoStopsAt(slot.path, report.clients)}; ${staleRemedy(slot, companion)}`);
    if (slot.state === 'no-access') out.push(`${slot.path} belongs to another user: libraries skip it or stop at it`);
    if (slot.state === 'file') out.push(`${slot.path} is not a socket: ${whoStopsAt(slot.path, report.clients)}; remove it`);
  }
  if (companion.state === 'running') {
    for (const listener of companion.listeners) {
      const lower = report.sockets.filter((s) => s.dir === path.dirname(listener.path) && s.index < listener.index && s.holder === 'another server');
      for (const slot of lower) out.push(`another server (the desktop client, arRPC, ...) holds ${slot.path}: libraries take the lowest index, so they reach it before Companion's ${listener.path}`);
    }
    for (const client of report.clients) {
      if (client.outcome.kind === 'fails') out.push(`${client.name}: ${client.outcome.path === null ? '' : `picks ${client.outcome.path}, `}${client.outcome.reason}`);
      else if (client.reaches === 'another server') out.push(`${client.name} reaches another server at ${client.outcome.path ?? ''}, not Companion`);
    }
  }
  const vars = environment.variables;
  const gui = report.directories.find((d) => d.kind === 'gui-tmpdir');
  if (report.platform === 'darwin' && gui !== undefined) {
    out.push(
      `games started from this shell look in ${environment.prefix.dir} (${environment.prefix.source}), apps started from the Dock or Finder in ${gui.dir} (the GUI session's TMPDIR); the Rust crate and the C# client try both. Companion listens in both when started here`,
    );
    if (companion.state === 'running' && !companion.listeners.some((l) => path.dirname(l.path) === gui.dir)) {
      out.push(`the running Companion does not listen in ${gui.dir}: restart it from this environment`);
    }
  }
  if (report.platform === 'linux' && !vars['XDG_RUNTIME_DIR'] && view.state(runUserDir) === 'directory' && environment.prefix.dir !== runUserDir) {
    out.push(`XDG_RUNTIME_DIR is not set: pypresence then looks in ${runUserDir}, Companion and most libraries in ${environment.prefix.dir}; set XDG_RUNTIME_DIR=${runUserDir} for Companion and the games`);
  }
  if (report.platform === 'linux' && !vars['XDG_RUNTIME_DIR'] && !report.directories.some((d) => d.kind === 'flatpak')) {
    out.push(`without XDG_RUNTIME_DIR Companion has no Flatpak listener (app/com.discordapp.Discord/): Flatpak apps cannot reach it`);
  }
  if (report.wine !== undefined) out.push(...wineFindings(report.wine.sessions, report.wine.bridgeExe, environment.prefix.dir));
  const blocked = report.flatpak?.apps.filter((app) => app.fix !== null) ?? [];
  if (blocked.length > 0) out.push(`${blocked.length} Flatpak app${blocked.length === 1 ? '' : 's'} cannot see Companion's sockets: run the command shown for each`);
  return out;
}
