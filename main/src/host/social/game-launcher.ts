import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** How a game that is not running gets started when its player joins a friend. */
export interface GameLauncher {
  launch(applicationId: string): Promise<LaunchResult>;
}

export interface LaunchResult {
  readonly launched: boolean;
  /** What was used, for the log and the UI: 'registered command', 'desktop entry', 'url handler', or why not. */
  readonly how: string;
}

export interface LauncherOptions {
  /** The host's data directory, where `launch-commands.json` lives. */
  readonly dataDir: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly platform?: NodeJS.Platform;
  /** Starts a detached process; injectable for tests. */
  readonly run?: (command: string, args: readonly string[]) => void;
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
  private readonly run: (command: string, args: readonly string[]) => void;

  constructor(private readonly options: LauncherOptions) {
    this.platform = options.platform ?? process.platform;
    this.run = options.run ?? spawnDetached;
  }

  async launch(applicationId: string): Promise<LaunchResult> {
    // The id comes from the platform and ends up in a path and a command line.
    if (!/^[0-9]{1,20}$/.test(applicationId)) return { launched: false, how: 'not an application id' };
    const registered = await this.registeredCommand(applicationId);
    if (registered !== undefined) {
      const [command, ...args] = registered;
      this.run(command as string, args);
      return { launched: true, how: 'registered command' };
    }
    const desktop = this.platform === 'linux' ? await this.desktopEntryCommand(applicationId) : undefined;
    if (desktop !== undefined) {
      const [command, ...args] = desktop;
      this.run(command as string, args);
      return { launched: true, how: 'desktop entry' };
    }
    const url = `discord-${applicationId}://`;
    if (this.platform === 'darwin') this.run('open', [url]);
    else if (this.platform === 'win32') this.run('cmd', ['/c', 'start', '', url]);
    else this.run('xdg-open', [url]);
    return { launched: true, how: 'url handler' };
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

function spawnDetached(command: string, args: readonly string[]): void {
  const child = spawn(command, args, { detached: true, stdio: 'ignore' });
  // A missing xdg-open must not take the host down; the join stays pending until it expires.
  child.on('error', () => undefined);
  child.unref();
}
