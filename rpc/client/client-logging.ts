import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import path from 'node:path';
import { createClientLogger, LOG_LEVELS, type BuildKind, type ClientLogger, type LogLevel } from './logger.js';

/** The Social SDK's LoggingSeverity in our names; `none` turns a destination off. */
export type LogSeverity = LogLevel | 'none';

/** Client::AddLogCallback's callback: a finished line (timestamp, `[level]`, message, fields; secrets already `[redacted]`) and its level. */
export type LogCallback = (message: string, severity: LogLevel) => void;

/** The file setLogDir writes in its directory. */
export const LOG_FILE_NAME = 'companion-client.log';

export interface ClientLoggingOptions {
  readonly build?: BuildKind;
  /** The constructor's sink (default: standard error). */
  readonly sink?: (line: string) => void;
  /** The constructor's sink's threshold (default: the build's). */
  readonly minLevel?: LogLevel;
  /** The file setDir writes in its directory (default LOG_FILE_NAME). */
  readonly fileName?: string;
}

interface Destination {
  readonly write: (line: string, level: LogLevel) => void;
  readonly min: LogLevel;
}

const LINE_LEVEL = /^\S+ \[(error|warning|info|verbose)\] /;

function rank(level: LogLevel): number {
  return LOG_LEVELS.indexOf(level);
}

function checkSeverity(severity: LogSeverity): void {
  if (severity !== 'none' && !LOG_LEVELS.includes(severity)) throw new RangeError(`minSeverity must be one of ${[...LOG_LEVELS, 'none'].join(', ')}`);
}

/**
 * Where the SDK's log goes: the constructor's sink, every callback of addLogCallback and the
 * file of setLogDir, each with its own least severity. One logger writes each line once, with
 * its secrets redacted (logger.ts), and hands it to each destination whose severity it meets.
 * The build still caps them all: a release build never writes info or verbose lines.
 */
export class ClientLogging {
  readonly logger: ClientLogger;
  private readonly defaultSink: Destination;
  private readonly callbacks: Destination[] = [];
  private file: { readonly destination: Destination; readonly stream: WriteStream } | null = null;
  private readonly fileName: string;

  constructor(options: ClientLoggingOptions = {}) {
    this.fileName = options.fileName ?? LOG_FILE_NAME;
    const build = options.build ?? 'release';
    const sink = options.sink ?? ((line: string) => void process.stderr.write(`${line}\n`));
    const cap: LogLevel = build === 'release' ? 'warning' : 'verbose';
    if (options.minLevel !== undefined) checkSeverity(options.minLevel);
    this.defaultSink = { write: (line) => sink(line), min: options.minLevel ?? cap };
    this.logger = createClientLogger({ build, sink: (line) => this.fanOut(line) });
  }

  /** Client::AddLogCallback: `callback(line, level)` for each line of `minSeverity` or more severe ('none': nothing). */
  addCallback(callback: LogCallback, minSeverity: LogSeverity): void {
    if (typeof callback !== 'function') throw new TypeError('callback must be a function');
    checkSeverity(minSeverity);
    if (minSeverity === 'none') return;
    this.callbacks.push({ write: (line, level) => callback(line, level), min: minSeverity });
  }

  /**
   * Client::SetLogDir: appends the lines of `minSeverity` or more severe to
   * `<dir>/companion-client.log` (or the file name given; the directory is made, owner-only; the file is 0600).
   * An empty path or 'none' stops the file. Returns false when the directory cannot be made.
   */
  setDir(dir: string, minSeverity: LogSeverity): boolean {
    if (typeof dir !== 'string') throw new TypeError('path must be a string');
    checkSeverity(minSeverity);
    this.file?.stream.end();
    this.file = null;
    if (dir === '' || minSeverity === 'none') return true;
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
    } catch (error) {
      this.logger.warning('the log directory could not be made', { path: dir, error });
      return false;
    }
    const stream = createWriteStream(path.join(dir, this.fileName), { flags: 'a', mode: 0o600 });
    // A failing file must not break the game; the other destinations go on.
    stream.on('error', () => {
      if (this.file?.stream === stream) this.file = null;
    });
    this.file = { stream, destination: { write: (line) => void stream.write(`${line}\n`), min: minSeverity } };
    return true;
  }

  private fanOut(line: string): void {
    const level = (LINE_LEVEL.exec(line)?.[1] ?? 'error') as LogLevel;
    const destinations = [this.defaultSink, ...this.callbacks, ...(this.file === null ? [] : [this.file.destination])];
    for (const destination of destinations) {
      if (rank(level) > rank(destination.min)) continue;
      try {
        destination.write(line, level);
      } catch {
        // One destination's failure is not the others'.
      }
    }
  }
}
