import type { EventEmitter } from 'node:events';
import type { GatewayLogger } from '../../../../src/host/gateway/gateway-client.js';

export interface LogCall {
  readonly level: 'debug' | 'info' | 'warn' | 'error';
  readonly fields: object;
  readonly message: string;
}

/** A logger that keeps every call, to assert what never reaches a log. */
export function recordingLogger(): GatewayLogger & { readonly calls: LogCall[]; text(): string } {
  const calls: LogCall[] = [];
  const at = (level: LogCall['level']) => (fields: object, message: string): void => {
    calls.push({ level, fields, message });
  };
  return {
    calls,
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    text: () => JSON.stringify(calls),
  };
}

/** Resolves with the arguments of the next `event` that passes `where`. */
export function nextEvent<A extends unknown[]>(
  emitter: EventEmitter,
  event: string,
  where: (...args: A) => boolean = () => true,
): Promise<A> {
  return new Promise((resolve) => {
    const listener = (...args: unknown[]): void => {
      if (!where(...(args as A))) return;
      emitter.off(event, listener);
      resolve(args as A);
    };
    emitter.on(event, listener);
  });
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
