import type { DestinationStream, Logger } from 'pino';
import { pino } from './cjs-modules.js';
import type { LogLevel } from './log-levels.js';

export { LOG_LEVELS, type LogLevel } from './log-levels.js';

/** Keys whose string values are secrets wherever they appear in a log record. */
export const SECRET_KEY = /token|secret|password|passwd|authorization|cookie|^code$|verifier|^nonce$/i;
export const REDACTED = '[redacted]';

/**
 * Replaces secret values in a log record, at any depth. Companion never logs frame payloads;
 * this is the second line of defence for anything that is logged as structured fields.
 */
export function scrubSecrets(value: unknown, depth = 0): unknown {
  if (depth > 8 || typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((item) => scrubSecrets(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] = SECRET_KEY.test(key) && (typeof item === 'string' || typeof item === 'object') && item !== null
      ? REDACTED
      : scrubSecrets(item, depth + 1);
  }
  return out;
}

export interface LoggerOptions {
  readonly level: LogLevel;
  /** Where records go; defaults to stderr. Tests pass a stream to capture them. */
  readonly destination?: DestinationStream;
}

/** JSON lines on stderr (stdout carries the CLI's own output). */
export function createLogger(options: LoggerOptions): Logger {
  return pino(
    {
      level: options.level,
      base: { pid: process.pid },
      formatters: { log: (record) => scrubSecrets(record) as Record<string, unknown> },
    },
    options.destination ?? pino.destination({ fd: 2, sync: true }),
  );
}
