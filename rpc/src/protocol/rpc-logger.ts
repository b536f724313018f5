/** The logger the RPC server and its transports write to: pino's shape, any object with these four methods. */
export interface RpcLogger {
  debug(fields: object, message: string): void;
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}
