import type { GatewayActivity, RpcServer } from '../../../../rpc/src/index.js';
import { ControlError, type GatewayState } from '../control/control-backend.js';
import type { SessionStatus } from '../session/platform-session.js';
import { SocialError } from '../social/social-error.js';
import type { WebUiBackend } from '../ui-bridge/web-ui-backend.js';

/** The session's status as the control API names it. */
export function gatewayState(status: SessionStatus['status']): GatewayState {
  switch (status) {
    case 'ready':
      return 'ready';
    case 'reconnecting':
      return 'reconnecting';
    case 'banned':
      return 'banned';
    case 'connecting':
    case 'signing-in':
      return 'connecting';
    default:
      return 'disconnected';
  }
}

/**
 * The activity as the control API shows it: join secrets never leave the host except to the
 * platform (the activity's flags still say whether it is joinable).
 */
export function withoutSecrets(activity: GatewayActivity | null): GatewayActivity | null {
  if (activity === null || activity.secrets === undefined) return activity;
  const { secrets: _secrets, ...rest } = activity;
  return rest as GatewayActivity;
}

/** Social errors carry an HTTP status already; anything else is left to the API's 500. */
export async function mapped<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof SocialError) throw new ControlError(error.status, error.message);
    const status = (error as { status?: unknown }).status;
    if (typeof status === 'number' && status >= 400 && status < 600) {
      throw new ControlError(status, error instanceof Error ? error.message : 'platform error');
    }
    if (status === 0) throw new ControlError(503, 'Companion cannot reach the platform right now');
    throw error;
  }
}

/** Whether the connection subscribed to `evt` (with any arguments). */
function subscribedTo(connection: { readonly subscriptions: ReadonlyMap<string, { readonly evt: string }> }, evt: string): boolean {
  for (const subscription of connection.subscriptions.values()) if (subscription.evt === evt) return true;
  return false;
}

/** The games connected and ready, as `GET /v1/games` lists them. */
export function gameViews(server: RpcServer): ReturnType<WebUiBackend['games']> {
  return [...server.connections()]
    .filter((connection) => connection.state === 'ready' && connection.clientId !== null)
    .map((connection) => ({
      connection_id: connection.id,
      client_id: connection.clientId as string,
      application_name: connection.applicationName,
      pid: connection.pid,
      transport: connection.transport,
      client_library: server.clientGuess(connection),
      activity: withoutSecrets(connection.activity),
      connected_at: connection.connectedAt,
      link_requests: subscribedTo(connection, 'AUTHORIZE_REQUEST'),
    }));
}
