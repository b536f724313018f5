import path from 'node:path';
import { candidateSocketPaths } from '../../../../rpc/client/connection/discovery.js';
import type { Env } from '../../../../rpc/src/index.js';

/*
 * Where each client library looks for the socket, as a pure function of the environment, the
 * platform and what is on disk (an FsView). The rules are each library's own search
 * order, with the quirks that decide real outcomes: which variables count
 * when set to the empty string, which libraries test a socket before taking it, and which
 * take the first entry that merely exists.
 */

/** What is at a path, symlinks followed. */
export type PathState =
  /** A socket that accepts connections. */
  | 'answers'
  /** A socket file nobody listens on (ECONNREFUSED): stale. */
  | 'refuses'
  /** A socket this user may not connect to. */
  | 'no-access'
  | 'directory'
  | 'file'
  | 'absent';

/** Read-only access to the file system, as a snapshot. */
export interface FsView {
  state(p: string): PathState;
  /** A directory's entry names in directory order (unsorted, as readdir(3) gives them); undefined if it cannot be listed. */
  list(dir: string): readonly string[] | undefined;
  /** The canonical path; undefined when it does not exist. */
  realpath(p: string): string | undefined;
}

export interface ClientEnvironment {
  readonly env: Env;
  readonly platform: NodeJS.Platform;
  readonly uid: number;
  /** pypresence's `/run/user/<uid>` (a seam for fake environments). */
  readonly runUserDir: string;
}

export type ClientId = 'discord-rpc' | 'xhayper' | 'pypresence' | 'c-library' | 'rust-crate' | 'csharp' | 'social-sdk' | 'companion-sdk';

export type ClientOutcome =
  /** It connects to `path`. */
  | { readonly kind: 'connects'; readonly path: string }
  /** It picks `path` and fails there (e.g. a stale socket), or finds nothing it can connect to. */
  | { readonly kind: 'fails'; readonly path: string | null; readonly reason: string }
  /** Not worked out on this platform. */
  | { readonly kind: 'not-checked'; readonly path: null; readonly reason: string };

export interface ClientChoice {
  readonly id: ClientId;
  readonly name: string;
  /** The rule, in a sentence. */
  readonly rule: string;
  readonly outcome: ClientOutcome;
}

interface ClientRule {
  readonly id: ClientId;
  readonly name: string;
  readonly rule: string;
  choose(environment: ClientEnvironment, view: FsView): ClientOutcome;
}

const INDICES = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] as const;
const socketName = (index: number): string => `discord-ipc-${index}`;

/** The first path that answers, trying in order; a library that tests each candidate by connecting. */
function firstAnswering(candidates: readonly string[], view: FsView, nothing: string): ClientOutcome {
  for (const candidate of candidates) if (view.state(candidate) === 'answers') return { kind: 'connects', path: candidate };
  return { kind: 'fails', path: null, reason: nothing };
}

/** The outcome of connecting to one chosen path, for libraries that pick first and connect after. */
function connectTo(candidate: string, view: FsView, library: string): ClientOutcome {
  const state = view.state(candidate);
  if (state === 'answers') return { kind: 'connects', path: candidate };
  if (state === 'refuses') return { kind: 'fails', path: candidate, reason: `a stale socket (nobody listens): ${library} stops there with a connection refused error` };
  if (state === 'no-access') return { kind: 'fails', path: candidate, reason: `another user's socket: ${library} is refused and stops there` };
  return { kind: 'fails', path: candidate, reason: `not a socket: ${library} stops there` };
}

/** `a || b || ...`: the first variable set to a non-empty value. */
function firstNonEmpty(env: Env, names: readonly string[]): string | undefined {
  for (const name of names) {
    const value = env[name];
    if (value !== undefined && value !== '') return value;
  }
  return undefined;
}

/** `a ?? b ?? ...` / getenv: the first variable that is set, even to the empty string. */
function firstDefined(env: Env, names: readonly string[]): string | undefined {
  for (const name of names) if (env[name] !== undefined) return env[name];
  return undefined;
}

const ENV_ORDER = ['XDG_RUNTIME_DIR', 'TMPDIR', 'TMP', 'TEMP'] as const;

const RULES: readonly ClientRule[] = [
  {
    id: 'discord-rpc',
    name: 'discord-rpc (npm) 4.0.1',
    rule: 'XDG_RUNTIME_DIR || TMPDIR || TMP || TEMP || /tmp, one trailing / dropped; discord-ipc-0..10 in order, the first that accepts a connection',
    choose({ env }, view) {
      const dir = (firstNonEmpty(env, ENV_ORDER) ?? '/tmp').replace(/\/$/, '');
      const candidates = Array.from({ length: 11 }, (_, i) => `${dir}/${socketName(i)}`);
      return firstAnswering(candidates, view, `no socket answers in ${dir} (discord-ipc-0..10)`);
    },
  },
  {
    id: 'xhayper',
    name: '@xhayper/discord-rpc 1.5.1',
    rule: 'realpath(XDG_RUNTIME_DIR ?? TMPDIR ?? TMP ?? TEMP ?? /tmp); discord-ipc-0..9 there, then (Linux) in snap.discord/ and app/{com.discordapp.Discord, ...DiscordCanary, ...DiscordPTB, dev.vencord.Vesktop}/; of the paths that exist, the first that accepts',
    choose({ env, platform }, view) {
      const chosen = firstDefined(env, ENV_ORDER) ?? '/tmp';
      const dir = view.realpath(chosen);
      if (dir === undefined) return { kind: 'fails', path: null, reason: `realpath(${chosen === '' ? '""' : chosen}) throws: the directory does not exist` };
      const dirs = [dir];
      if (platform === 'linux') {
        dirs.push(path.join(dir, 'snap.discord'));
        for (const app of ['com.discordapp.Discord', 'com.discordapp.DiscordCanary', 'com.discordapp.DiscordPTB', 'dev.vencord.Vesktop']) dirs.push(path.join(dir, 'app', app));
      }
      const existing = dirs.flatMap((d) => INDICES.map((i) => path.join(d, socketName(i)))).filter((p) => view.state(p) !== 'absent');
      if (existing.length === 0) return { kind: 'fails', path: null, reason: `no discord-ipc-N exists in ${dir} or its sandbox sub-directories ("Unable to find any Discord client")` };
      return firstAnswering(existing, view, `no existing socket accepts ("Could not connect to Discord client")`);
    },
  },
  {
    id: 'pypresence',
    name: 'pypresence',
    rule: 'XDG_RUNTIME_DIR, else /run/user/<uid> if it exists, else the temp dir; in ., .., snap.discord, app/com.discordapp.Discord, app/com.discordapp.DiscordCanary the first entry in directory order named discord-ipc-*, then it connects to that one only',
    choose({ env, runUserDir }, view) {
      const dir = firstNonEmpty(env, ['XDG_RUNTIME_DIR']) ?? (view.state(runUserDir) === 'directory' ? runUserDir : pythonTempDir(env, view));
      for (const sub of ['.', '..', 'snap.discord', 'app/com.discordapp.Discord', 'app/com.discordapp.DiscordCanary']) {
        const full = path.resolve(dir, sub);
        if (view.state(full) !== 'directory') continue;
        for (const entry of view.list(full) ?? []) {
          const candidate = path.join(full, entry);
          if (entry.startsWith('discord-ipc-') && view.state(candidate) !== 'absent') return connectTo(candidate, view, 'pypresence');
        }
      }
      return { kind: 'fails', path: null, reason: `no discord-ipc-* entry in ${dir} or the directories it searches` };
    },
  },
  {
    id: 'c-library',
    name: 'discord-rpc (the official C library)',
    rule: 'the first of XDG_RUNTIME_DIR, TMPDIR, TMP, TEMP that is set (even empty), else /tmp; discord-ipc-0..9, the first that accepts',
    choose({ env }, view) {
      const dir = firstDefined(env, ENV_ORDER) ?? '/tmp';
      return firstAnswering(INDICES.map((i) => `${dir}/${socketName(i)}`), view, `no socket answers in ${dir === '' ? '"" (an empty variable: it looks in /)' : dir} (discord-ipc-0..9)`);
    },
  },
  {
    id: 'rust-crate',
    name: 'discord-rich-presence (Rust crate)',
    rule: 'each of XDG_RUNTIME_DIR (its parent under Snap), TMPDIR, TMP, TEMP that is a directory, no /tmp; for N in 0..9 the plain path, then app/com.discordapp.Discord, app/dev.vencord.Vesktop, .flatpak/…/xdg-run, snap.discord-canary, snap.discord; the first path that exists, connected only afterwards',
    choose({ env }, view) {
      const subs = ['', 'app/com.discordapp.Discord', 'app/dev.vencord.Vesktop', '.flatpak/com.discordapp.Discord/xdg-run', '.flatpak/dev.vencord.Vesktop/xdg-run', 'snap.discord-canary', 'snap.discord'];
      for (const key of ENV_ORDER) {
        let base = env[key];
        if (base === undefined) continue;
        if (key === 'XDG_RUNTIME_DIR' && env['SNAP'] !== undefined) base = base.includes('/') ? base.slice(0, base.lastIndexOf('/')) : '';
        if (base === '' || view.state(base) !== 'directory') continue;
        for (const i of INDICES) {
          for (const sub of subs) {
            const candidate = path.join(base, sub, socketName(i));
            if (view.state(candidate) !== 'absent') return connectTo(candidate, view, 'the Rust crate');
          }
        }
      }
      return { kind: 'fails', path: null, reason: 'no discord-ipc-N exists in the directories of XDG_RUNTIME_DIR, TMPDIR, TMP, TEMP (it has no /tmp fallback)' };
    },
  },
  {
    id: 'csharp',
    name: "discord-rpc-csharp (Lachee's C# client)",
    rule: 'for N in 0..9, in each of XDG_RUNTIME_DIR, TMPDIR, TMP, TEMP that is set, then /temp: the plain path, then app/com.discordapp.Discord/, snap.discord/; the first that accepts',
    choose({ env }, view) {
      const dirs = [...ENV_ORDER.map((key) => env[key]).filter((value): value is string => value !== undefined), '/temp'];
      const candidates = INDICES.flatMap((i) => dirs.flatMap((dir) => ['', 'app/com.discordapp.Discord', 'snap.discord'].map((sub) => path.join(dir, sub, socketName(i)))));
      return firstAnswering(candidates, view, `no socket answers in ${dirs.join(', ')} or their app/com.discordapp.Discord, snap.discord`);
    },
  },
  {
    id: 'social-sdk',
    name: 'Discord Social SDK',
    rule: 'closed source: the documented rule, the first of XDG_RUNTIME_DIR, TMPDIR, TMP, TEMP that is set, else /tmp; discord-ipc-0..9, the first that accepts',
    choose({ env }, view) {
      const dir = (firstNonEmpty(env, ENV_ORDER) ?? '/tmp').replace(/\/$/, '');
      return firstAnswering(INDICES.map((i) => `${dir}/${socketName(i)}`), view, `no socket answers in ${dir} (discord-ipc-0..9)`);
    },
  },
  {
    id: 'companion-sdk',
    name: 'companion/client (Companion SDK)',
    rule: "the prefix Companion resolves, then every other set variable and /tmp; for each N the plain path, then the sandbox sub-directories; of the paths that exist, the first that accepts",
    choose({ env, platform }, view) {
      const existing = candidateSocketPaths(env, platform).filter((p) => view.state(p) !== 'absent');
      return firstAnswering(existing, view, 'no existing socket accepts');
    },
  },
];

/** Python's tempfile.gettempdir(): TMPDIR, TEMP, TMP (when a directory), else /tmp. */
function pythonTempDir(env: Env, view: FsView): string {
  for (const name of ['TMPDIR', 'TEMP', 'TMP']) {
    const value = env[name];
    if (value !== undefined && value !== '' && view.state(value) === 'directory') return path.resolve(value);
  }
  return '/tmp';
}

/** Each known client library's choice in this environment. */
export function clientChoices(environment: ClientEnvironment, view: FsView): ClientChoice[] {
  return RULES.map((rule) => ({
    id: rule.id,
    name: rule.name,
    rule: rule.rule,
    outcome:
      environment.platform === 'win32'
        ? { kind: 'not-checked', path: null, reason: 'Windows: every library opens \\\\?\\pipe\\discord-ipc-0..9, one namespace for all' }
        : rule.choose(environment, view),
  }));
}
