import { authorizeError, RpcError, type CommandHandler } from '../../../../rpc/src/index.js';

/** AUTHORIZE requests one connection may have waiting at once (for the platform or the player). */
export const MAX_AUTHORIZE_IN_FLIGHT = 4;

/**
 * At most `max` runs of `handler` at once per connection: one more is refused at once with
 * ERROR 5000 `OAuth2 Error: invalid_request: ...` naming the limit (the code every client
 * library already surfaces for AUTHORIZE), before the platform or the player is asked. A
 * slot is free again when its run settles (answered, refused, or the connection gone).
 */
export function capInFlight(handler: CommandHandler, max: number): CommandHandler {
  const running = new Map<string, number>();
  return async (context) => {
    const id = context.connection.id;
    const count = running.get(id) ?? 0;
    if (count >= max) {
      const { code, message } = authorizeError('invalid_request', `too many AUTHORIZE requests in flight on this connection (at most ${max}); wait for an answer`);
      throw new RpcError(code, message);
    }
    running.set(id, count + 1);
    try {
      return await handler(context);
    } finally {
      const left = (running.get(id) ?? 1) - 1;
      if (left === 0) running.delete(id);
      else running.set(id, left);
    }
  };
}
