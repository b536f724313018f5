import net from 'node:net';
import * as v from 'valibot';
import { existingSocketPaths } from './connection/discovery.js';
import type { Env } from '../src/transport/ipc-paths.js';
import { answerOf, bearerCall, type BearerCallOptions } from './platform-request.js';
import { WireUserSchema } from './wire/objects.js';

/**
 * Client::IsDiscordAppInstalled for Companion: whether a Companion (or a desktop client) is
 * reachable here: one of the sockets the connection would try (the `socketPaths` option, else
 * the discovery's candidates that exist) accepts a connection. The probe only connects and
 * closes (no handshake), so it opens no session.
 */
export async function companionReachable(options: { readonly env: Env; readonly socketPaths?: readonly string[] | undefined; readonly timeoutMs?: number }): Promise<boolean> {
  const paths = options.socketPaths ?? (await existingSocketPaths(options.env));
  for (const socketPath of paths) {
    if (await accepts(socketPath, options.timeoutMs ?? 1000)) return true;
  }
  return false;
}

function accepts(socketPath: string, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(socketPath);
    const done = (answer: boolean): void => {
      clearTimeout(timer);
      socket.removeAllListeners();
      socket.on('error', () => undefined);
      socket.destroy();
      resolve(answer);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

const CurrentUserSchema = v.looseObject({ ...WireUserSchema.entries });

/** The user a token belongs to: `GET /api/v10/users/@me` with it; the name is the display name (global name, else username). */
export async function fetchUser(options: BearerCallOptions): Promise<{ id: string; name: string }> {
  const user = answerOf(CurrentUserSchema, await bearerCall(options, 'GET', '/users/@me'), 'user');
  const globalName = typeof user.global_name === 'string' && user.global_name !== '' ? user.global_name : null;
  return { id: user.id, name: globalName ?? user.username };
}

/** Client::UpdateProvisionalAccountDisplayName: `PATCH /api/v10/users/@me {global_name}` (ours: the route), 1-32 characters once trimmed; only a provisional account's token. */
export async function renameProvisionalAccount(options: BearerCallOptions, name: string): Promise<void> {
  if (typeof name !== 'string' || name.trim().length === 0 || name.trim().length > 32) throw new TypeError('name must be 1-32 characters (not only spaces)');
  await bearerCall(options, 'PATCH', '/users/@me', { global_name: name.trim() });
}
