/** The pino-like logger the emulator writes to. Only ids and codes go into fields, never secrets. */
export interface PlatformLogger {
  debug(fields: object, msg: string): void;
  info(fields: object, msg: string): void;
  warn(fields: object, msg: string): void;
  error(fields: object, msg: string): void;
}

const noop = (): void => undefined;
export const SILENT_LOGGER: PlatformLogger = { debug: noop, info: noop, warn: noop, error: noop };
