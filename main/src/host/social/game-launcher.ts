import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { urlOpener } from '../../base/url-opener.js';

/** How a game that is not running gets started when its player joins a friend. */
export interface GameLauncher {
  launch(applicationId: string): Promise<LaunchResult>;
}

export interface LaunchResult {
  readonly launched: boolean;
  /** What was used, for the log and the UI: 'registered command', 'desktop entry', 'url handler', or why not. */
  readonly how: string;
  /** Why it did not start, in words for the player (`launched` is false): a missing command, an exit code. */
  readonly failure?: string;
}

/**
 * Starts a process; resolves with why it failed (did not start, or ended at once with an
 * error), or undefined once it runs. A launcher's word is taken as it is: a URL opener such as
 * xdg-open exits non-zero when nothing handles the URL.
 */
export type RunCommand = (command: string, args: readonly string[], kind: 'game' | 'opener') => Promise<string | undefined> | void;

export interface LauncherOptions {
  /** The host's data directory, where `launch-commands.json` lives. */
  readonly dataDir: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly platform?: NodeJS.Platform;
  /** Starts a detached process; injectable for tests. */
  readonly run?: RunCommand;
}

/**
 * Finds a game's launch command, in order:
 * 1. `<data dir>/launch-commands.json`: `{"<application id>": ["command", "arg", ...]}` (ours;
 *    the control API and the SDK's RegisterLaunchCommand of a later issue write it);
 * 2. on Linux, the desktop entry `discord-<id>.desktop` that the C library's Discord_Register
 *    writes under `$XDG_DATA_HOME/applications` (its Exec line, field codes removed);
 * 3. the game's URL handler `discord-<id>://`, opened with xdg-open / open / start.
 */
export class CommandGameLauncher implements GameLauncher {
  private readonly platform: NodeJS.Platform;
  private readonly run: RunCommand;

  constructor(private readonly options: LauncherOptions) {
    this.platform = options.platform ?? process.platform;
    this.run = options.run ?? ((command, args, kind) => spawnDetached(command, args, kind, options.env));
  }

  async launch(applicationId: string): Promise<LaunchResult> {
    // The id comes from the platform and ends up in a path and a command line.
    if (!/^[0-9]{1,20}$/.test(applicationId)) return { launched: false, how: 'not an application id' };
    const registered = await this.registeredCommand(applicationId);
    if (registered !== undefined) return this.start('registered command', registered, 'game');
    const desktop = this.platform === 'linux' ? await this.desktopEntryCommand(applicationId) : undefined;
    if (desktop !== undefined) return this.start('desktop entry', desktop, 'game');
    return this.start('url handler', urlOpener(this.platform, `discord-${applicationId}://`), 'opener');
  }

  private async start(how: string, [command, ...args]: readonly string[], kind: 'game' | 'opener'): Promise<LaunchResult> {
    const failure = await this.run(command as string, args, kind);
    return failure === undefined ? { launched: true, how } : { launched: false, how, failure };
  }

  private async registeredCommand(applicationId: string): Promise<string[] | undefined> {
    let table: unknown;
    try {
      table = JSON.parse(await readFile(path.join(this.options.dataDir, 'launch-commands.json'), 'utf8'));
    } catch {
      return undefined;
    }
    const entry = (table as Record<string, unknown> | null)?.[applicationId];
    const command = Array.isArray(entry) && entry.every((part) => typeof part === 'string') ? (entry as string[]) : typeof entry === 'string' ? splitCommandLine(entry) : [];
    // An empty command would make spawn throw: fall through to the next way instead.
    return command.length > 0 && command[0] !== '' ? command : undefined;
  }

  private async desktopEntryCommand(applicationId: string): Promise<string[] | undefined> {
    const dataHome = this.options.env.XDG_DATA_HOME || path.join(this.options.env.HOME || os.homedir(), '.local', 'share');
    let text: string;
    try {
      text = await readFile(path.join(dataHome, 'applications', `discord-${applicationId}.desktop`), 'utf8');
    } catch {
      return undefined;
    }
    const exec = /^Exec=(.*)$/m.exec(text)?.[1];
    if (exec === undefined) return undefined;
    const parts = splitCommandLine(exec).filter((part) => !/^%[a-zA-Z]$/.test(part));
    return parts.length > 0 && parts[0] !== '' ? parts : undefined;
  }
}

/** Splits a command line on spaces, honouring double and single quotes (desktop-entry style). */
export function splitCommandLine(line: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quote: string | undefined;
  let started = false;
  for (const char of line.trim()) {
    if (quote !== undefined) {
      if (char === quote) quote = undefined;
      else current += char;
    } else if (char === '"' || char === "'") {
      quote = char;
      started = true;
    } else if (char === ' ' || char === '\t') {
      if (started || current !== '') parts.push(current);
      current = '';
      started = false;
    } else {
      current += char;
    }
  }
  if (started || current !== '') parts.push(current);
  return parts;
}

/** How long an opener (xdg-open, open, start) may take to hand the URL over and exit. */
const OPENER_EXIT_MS = 10_000;
/** A game that exits with an error this soon after starting did not start. */
const GAME_EARLY_EXIT_MS = 1_000;

/**
 * Starts `command` detached. An opener is waited for (it exits once the URL is handed over;
 * non-zero means nothing handles it); a game is watched for a second for a failing exit.
 */
function spawnDetached(command: string, args: readonly string[], kind: 'game' | 'opener', env: Readonly<Record<string, string | undefined>>): Promise<string | undefined> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { detached: true, stdio: 'ignore', env: { ...env } });
    const settle = (failure: string | undefined): void => {
      clearTimeout(timer);
      child.unref();
      resolve(failure);
    };
    const timer = setTimeout(() => settle(undefined), kind === 'opener' ? OPENER_EXIT_MS : GAME_EARLY_EXIT_MS);
    timer.unref();
    // A missing command must not take the host down: it is a failure to report.
    child.once('error', (error: NodeJS.ErrnoException) => settle(error.code === 'ENOENT' ? `${command} was not found` : `${command} could not start (${error.code ?? error.name})`));
    child.once('exit', (code, signal) => {
      if (code === 0) settle(undefined);
      else settle(signal !== null ? `${command} was ended by ${signal}` : `${command} exited with code ${code}${kind === 'opener' ? ' (nothing handles the game\'s link)' : ''}`);
    });
  });
}
