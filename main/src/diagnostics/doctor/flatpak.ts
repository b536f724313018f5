import { execFile } from 'node:child_process';
import { constants } from 'node:fs';
import { access, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { FLATPAK_DISCORD_SUBDIR, type Env } from '../../../../rpc/src/index.js';

/** The grant that exposes Companion's Flatpak directory to a sandboxed app (and creates it if missing). */
export const FLATPAK_GRANT = `xdg-run/${FLATPAK_DISCORD_SUBDIR}:create`;

export function flatpakFixCommand(appId: string): string {
  return `flatpak override --user --filesystem=${FLATPAK_GRANT} ${appId}`;
}

export interface FlatpakGrant {
  /** Where it comes from: the app's manifest, a system or user override (global or the app's). */
  readonly source: string;
  /** As written, e.g. `xdg-run/app/com.discordapp.Discord:create` or `!xdg-run/discord-ipc-0`. */
  readonly entry: string;
}

export interface FlatpakAppReport {
  readonly id: string;
  /** How it was found: `~/.var/app`, `installed (user)`, `installed (system)`, `flatpak list`. */
  readonly foundIn: readonly string[];
  /** The filesystem grants that concern the runtime directory, in the order they apply. */
  readonly grants: readonly FlatpakGrant[];
  /**
   * `directory`: app/com.discordapp.Discord is visible inside (libraries that search it find
   * Companion, across Companion restarts); `socket`: only discord-ipc-N files are (a file bound
   * at the app's start: after Companion restarts, the sandbox keeps the old, dead socket);
   * `none`.
   */
  readonly exposes: 'directory' | 'socket' | 'none';
  readonly detail: string;
  /** The command that fixes it, or null when nothing needs fixing. */
  readonly fix: string | null;
}

export interface FlatpakReport {
  /** Whether the `flatpak` command was found (apps are then also taken from `flatpak list`). */
  readonly flatpakCommand: boolean;
  readonly apps: readonly FlatpakAppReport[];
}

/** The `filesystems=` entries of a keyfile's [Context] group (an override file or an app's metadata). */
export function parseFilesystems(keyfile: string): string[] {
  let inContext = false;
  for (const raw of keyfile.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('[')) {
      inContext = line === '[Context]';
      continue;
    }
    if (!inContext) continue;
    const match = /^filesystems\s*=\s*(.*)$/.exec(line);
    if (match !== null) return (match[1] ?? '').split(';').map((entry) => entry.trim()).filter((entry) => entry !== '');
  }
  return [];
}

const DIRECTORY_PATHS = new Set(['xdg-run', 'xdg-run/app', `xdg-run/${FLATPAK_DISCORD_SUBDIR}`]);
const SOCKET_PATH = /^xdg-run\/discord-ipc-(\d)$/;

/** The path of a grant without its `!` and its `:ro`, `:rw` or `:create` suffix, and whether it is a negation. */
function grantPath(entry: string): { path: string; negated: boolean } {
  const negated = entry.startsWith('!');
  const body = negated ? entry.slice(1) : entry;
  return { path: body.replace(/:(ro|rw|create)$/, '').replace(/\/+$/, ''), negated };
}

/**
 * What the grants (in the order they apply: manifest, system overrides, user overrides, each
 * global then the app's) expose of Companion's sockets. `listening` are the indexes Companion
 * listens on in the runtime directory.
 */
export function judgeFlatpakGrants(appId: string, grants: readonly FlatpakGrant[], listening: readonly number[]): Pick<FlatpakAppReport, 'exposes' | 'detail' | 'fix' | 'grants'> {
  const relevant = grants.filter((grant) => grantPath(grant.entry).path.startsWith('xdg-run'));
  const effective = new Map<string, boolean>();
  for (const grant of relevant) {
    const { path: p, negated } = grantPath(grant.entry);
    effective.set(p, !negated);
  }
  const granted = [...effective].filter(([, on]) => on).map(([p]) => p);
  if (granted.some((p) => DIRECTORY_PATHS.has(p))) {
    return { grants: relevant, exposes: 'directory', detail: `sees ${FLATPAK_DISCORD_SUBDIR}/ in its runtime directory: libraries that search it (@xhayper/discord-rpc, pypresence, the Rust and C# clients) reach Companion`, fix: null };
  }
  const sockets = granted.map((p) => SOCKET_PATH.exec(p)?.[1]).filter((n): n is string => n !== undefined).map(Number);
  const wildcard = granted.find((p) => p.includes('*'));
  const fix = flatpakFixCommand(appId);
  if (sockets.length > 0) {
    const reached = sockets.filter((n) => listening.includes(n));
    return {
      grants: relevant,
      exposes: 'socket',
      detail:
        `sees only ${sockets.map((n) => `discord-ipc-${n}`).join(', ')}${reached.length === 0 ? ', where Companion does not listen' : ''}: ` +
        'a file bound when the app starts, so after Companion restarts the app keeps the old socket; grant the directory',
      fix,
    };
  }
  if (wildcard !== undefined) {
    return { grants: relevant, exposes: 'none', detail: `${wildcard} is a pattern: Flatpak binds paths, not patterns, so it likely exposes nothing; grant the directory`, fix };
  }
  const revoked = relevant.find((grant) => grantPath(grant.entry).negated && DIRECTORY_PATHS.has(grantPath(grant.entry).path));
  if (revoked !== undefined) return { grants: relevant, exposes: 'none', detail: `cannot see Companion's sockets: the ${revoked.source} takes the directory back (${revoked.entry})`, fix };
  return { grants: relevant, exposes: 'none', detail: `cannot see Companion's sockets (no xdg-run/${FLATPAK_DISCORD_SUBDIR} grant)`, fix };
}

export interface FlatpakSources {
  readonly env: Env;
  /** `/var/lib/flatpak` (the system installation); a seam for fake environments. */
  readonly systemDir: string;
  /** `flatpak list --app`'s ids, or undefined when there is no flatpak command. */
  readonly listApps: () => Promise<readonly string[] | undefined>;
}

/** Runs `flatpak list --app --columns=application` when `flatpak` is on PATH. */
export function flatpakListFromPath(env: Env): () => Promise<readonly string[] | undefined> {
  return async () => {
    const command = await findOnPath(env, 'flatpak');
    if (command === undefined) return undefined;
    return new Promise((resolve) => {
      execFile(command, ['list', '--app', '--columns=application'], { env: { ...env }, timeout: 10_000 }, (error, stdout) => {
        resolve(error === null ? stdout.split('\n').map((line) => line.trim()).filter((line) => APP_ID.test(line)) : []);
      });
    });
  };
}

async function findOnPath(env: Env, name: string): Promise<string | undefined> {
  for (const dir of (env['PATH'] ?? '').split(path.delimiter)) {
    if (dir === '') continue;
    const candidate = path.join(dir, name);
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // next
    }
  }
  return undefined;
}

/** Desktop clients that serve discord-ipc themselves. */
const DISCORD_CLIENTS = new Set(['com.discordapp.Discord', 'com.discordapp.DiscordCanary', 'com.discordapp.DiscordPTB', 'dev.vencord.Vesktop']);

/** Reverse-DNS application ids (at least three parts), as Flatpak requires. */
const APP_ID = /^[A-Za-z_][\w-]*(\.[A-Za-z_][\w-]*){2,}$/;

/** Flatpak apps of this user and their grants: from ~/.var/app, both installations and `flatpak list`. */
export async function flatpakApps(sources: FlatpakSources, listening: readonly number[]): Promise<FlatpakReport> {
  const home = sources.env['HOME'] ?? '';
  const dataHome = sources.env['XDG_DATA_HOME'] || path.join(home, '.local', 'share');
  const userDir = path.join(dataHome, 'flatpak');
  const found = new Map<string, string[]>();
  const note = (id: string, where: string): void => {
    if (!APP_ID.test(id)) return;
    const list = found.get(id) ?? [];
    if (!list.includes(where)) list.push(where);
    found.set(id, list);
  };
  for (const id of await names(path.join(home, '.var', 'app'))) note(id, '~/.var/app');
  for (const id of await names(path.join(userDir, 'app'))) note(id, 'installed (user)');
  for (const id of await names(path.join(sources.systemDir, 'app'))) note(id, 'installed (system)');
  const listed = await sources.listApps();
  for (const id of listed ?? []) note(id, 'flatpak list');

  const apps: FlatpakAppReport[] = [];
  for (const id of [...found.keys()].sort()) {
    const grants: FlatpakGrant[] = [];
    const add = async (file: string, source: string): Promise<void> => {
      const text = await readFile(file, 'utf8').catch(() => undefined);
      if (text !== undefined) for (const entry of parseFilesystems(text)) grants.push({ source, entry });
    };
    await add(path.join(userDir, 'app', id, 'current', 'active', 'metadata'), 'app manifest (user installation)');
    await add(path.join(sources.systemDir, 'app', id, 'current', 'active', 'metadata'), 'app manifest (system installation)');
    await add(path.join(sources.systemDir, 'overrides', 'global'), 'system override (all apps)');
    await add(path.join(sources.systemDir, 'overrides', id), 'system override');
    await add(path.join(userDir, 'overrides', 'global'), 'user override (all apps)');
    await add(path.join(userDir, 'overrides', id), 'user override');
    const verdict = DISCORD_CLIENTS.has(id)
      ? { grants: [], exposes: 'none' as const, detail: 'a Discord client: it serves its own socket (in app/' + id + '/), not a game that needs Companion', fix: null }
      : judgeFlatpakGrants(id, grants, listening);
    apps.push({ id, foundIn: found.get(id) ?? [], ...verdict });
  }
  return { flatpakCommand: listed !== undefined, apps };
}

async function names(dir: string): Promise<string[]> {
  return readdir(dir).catch(() => []);
}
