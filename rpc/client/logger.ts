/**
 * The SDK's log (seed: "Versioning" 3 and "Authentication" 9). Release builds emit only
 * error and warning; debug builds also info and verbose and open the log with a debug-build
 * warning. The bearer token is filtered at every level: every registered secret (the last
 * 64), anything after `Bearer `, and the values of token-like fields become `[redacted]`
 * (`code` only when it holds a string: numeric error codes stay readable).
 */

export type LogLevel = 'error' | 'warning' | 'info' | 'verbose';
export type BuildKind = 'release' | 'debug';

/** Most severe first. */
export const LOG_LEVELS: readonly LogLevel[] = ['error', 'warning', 'info', 'verbose'];

export const REDACTED = '[redacted]';

export const DEBUG_BUILD_WARNING =
  'This is a debug build of the Companion client SDK: info and verbose logs are enabled. Do not ship debug builds; release builds log only errors and warnings.';

/** Field names whose values are always redacted, whatever they hold. */
const SECRET_KEYS = /^(?:authorization|access_?token|refresh_?token|id_?token|token|code_?verifier|verifier|client_?secret|secret|password)$/i;
/** `code` is an OAuth2 code when it holds a string; a number (an RPC error or CLOSE code) stays readable. */
const CODE_KEY = /^code$/i;
/** How many secrets the logger remembers (the most recently added or re-added); older ones are forgotten. */
export const MAX_LOG_SECRETS = 64;
/** `Bearer <anything but space>`; a second `Bearer` is not taken for the token (`bearer Bearer x`). */
const BEARER = /\b(Bearer)\s+(?!Bearer\b)\S+/gi;

export type LogFields = Readonly<Record<string, unknown>>;

export interface ClientLogger {
  readonly build: BuildKind;
  /** The least severe level this logger emits. */
  readonly level: LogLevel;
  error(message: string, fields?: LogFields): void;
  warning(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  verbose(message: string, fields?: LogFields): void;
  log(level: LogLevel, message: string, fields?: LogFields): void;
  /** Whether a line of this level would be written (to skip building costly messages). */
  enabled(level: LogLevel): boolean;
  /**
   * Hides `secret` (and its JSON- and percent-encoded forms) in every later line. Empty
   * strings are ignored. The last MAX_LOG_SECRETS (64) distinct secrets are kept; adding one
   * again makes it the newest (the Client re-adds the token it sends), so a long session
   * does not grow the list, or the cost of each line, without bound.
   */
  addSecret(secret: string): void;
  /** `text` as it would be written: secrets and bearer tokens replaced by `[redacted]`. */
  redact(text: string): string;
}

export interface ClientLoggerOptions {
  readonly build: BuildKind;
  /** Receives each finished line (no trailing newline). Default: standard error. */
  readonly sink?: (line: string) => void;
  /**
   * Raises the threshold further (e.g. `'error'`); it cannot lower it: a release build
   * never emits info or verbose. Default: `'warning'` for release, `'verbose'` for debug.
   */
  readonly minLevel?: LogLevel;
  /** Clock for the line's timestamp (tests). */
  readonly now?: () => Date;
}

function rank(level: LogLevel): number {
  return LOG_LEVELS.indexOf(level);
}

/**
 * JSON of fields: token-like keys redacted, every string value redacted on its own (so a
 * `Bearer x` value keeps its closing quote), Errors as `{name, message}`.
 */
function serializeFields(fields: LogFields, redactText: (text: string) => string): string {
  const seen = new WeakSet<object>();
  return JSON.stringify(fields, (key, value: unknown) => {
    if (key !== '' && SECRET_KEYS.test(key) && value !== undefined && value !== null) return REDACTED;
    if (key !== '' && CODE_KEY.test(key) && typeof value === 'string') return REDACTED;
    if (typeof value === 'string') return redactText(value);
    if (typeof value === 'bigint') return value.toString();
    if (value instanceof Error) return { name: value.name, message: redactText(value.message) };
    if (typeof value === 'object' && value !== null) {
      if (seen.has(value)) return '[circular]';
      seen.add(value);
    }
    return value;
  });
}

export function createClientLogger(options: ClientLoggerOptions): ClientLogger {
  const build = options.build;
  if (build !== 'release' && build !== 'debug') throw new RangeError("build must be 'release' or 'debug'");
  const cap: LogLevel = build === 'release' ? 'warning' : 'verbose';
  const min = options.minLevel ?? cap;
  if (!LOG_LEVELS.includes(min)) throw new RangeError(`minLevel must be one of ${LOG_LEVELS.join(', ')}`);
  const threshold = rank(min) < rank(cap) ? min : cap;
  const sink = options.sink ?? ((line: string) => void process.stderr.write(`${line}\n`));
  const now = options.now ?? (() => new Date());
  /** Every form of every secret, longest first (so a secret inside another is not half-replaced). */
  let forms: string[] = [];
  /** Insertion order is age: the first is the oldest. */
  const secrets = new Set<string>();
  const rebuild = (): void => {
    const all = new Set<string>();
    for (const secret of secrets) {
      all.add(secret);
      all.add(JSON.stringify(secret).slice(1, -1));
      all.add(encodeURIComponent(secret));
    }
    forms = [...all].filter((f) => f.length > 0).sort((a, b) => b.length - a.length);
  };

  const redactSecrets = (text: string): string => {
    let out = text;
    for (const form of forms) if (out.includes(form)) out = out.split(form).join(REDACTED);
    return out;
  };
  const redact = (text: string): string => redactSecrets(text).replace(BEARER, (_match, word: string) => `${word} ${REDACTED}`);

  const write = (level: LogLevel, message: string, fields?: LogFields): void => {
    let line = `${now().toISOString()} [${level}] ${redact(String(message))}`;
    if (fields !== undefined && Object.keys(fields).length > 0) {
      try {
        line += ` ${serializeFields(fields, redact)}`;
      } catch {
        line += ' [unserializable fields]';
      }
    }
    try {
      // Once more over the whole line: a secret in a key, or split across message and fields' JSON escapes.
      sink(redactSecrets(line));
    } catch {
      // A failing sink must not break the game.
    }
  };

  const log = (level: LogLevel, message: string, fields?: LogFields): void => {
    if (rank(level) < 0 || rank(level) > rank(threshold)) return;
    write(level, message, fields);
  };

  const logger: ClientLogger = {
    build,
    level: threshold,
    error: (message, fields) => log('error', message, fields),
    warning: (message, fields) => log('warning', message, fields),
    info: (message, fields) => log('info', message, fields),
    verbose: (message, fields) => log('verbose', message, fields),
    log,
    enabled: (level) => rank(level) >= 0 && rank(level) <= rank(threshold),
    addSecret(secret: string): void {
      if (typeof secret !== 'string' || secret.length === 0) return;
      if (secrets.has(secret)) {
        // Already hidden: only its age changes, the forms stay the same.
        secrets.delete(secret);
        secrets.add(secret);
        return;
      }
      secrets.add(secret);
      while (secrets.size > MAX_LOG_SECRETS) {
        const oldest = secrets.values().next().value;
        if (oldest === undefined) break;
        secrets.delete(oldest);
      }
      rebuild();
    },
    redact,
  };
  // The debug-build warning is the first line of a debug log, whatever minLevel says.
  if (build === 'debug') write('warning', DEBUG_BUILD_WARNING);
  return logger;
}
