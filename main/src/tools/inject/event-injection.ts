import { encodeFrame, eventDispatch, Opcode, RPC_EVENTS, type RpcConnection, type RpcServer } from '../../../../rpc/src/index.js';
import { ControlError } from '../../host/control/control-backend.js';

/** Events the server sends without a subscription (the client cannot subscribe to them). */
const UNSOLICITED_EVENTS: ReadonlySet<string> = new Set(['READY', 'ERROR']);

/** Every event name injection accepts: the subscribable ones and READY / ERROR. */
export function injectableEvents(): string[] {
  return [...Object.keys(RPC_EVENTS), ...UNSOLICITED_EVENTS].sort();
}

export function isInjectableEvent(evt: string): boolean {
  return Object.hasOwn(RPC_EVENTS, evt) || UNSOLICITED_EVENTS.has(evt);
}

export interface InjectEventInput {
  readonly connection_id: string;
  readonly evt: string;
  readonly data: unknown;
  /** Send it even when the game did not subscribe to `evt`. */
  readonly force: boolean;
}

export interface InjectEventResult {
  readonly connection_id: string;
  readonly evt: string;
  /** The game subscribed to `evt` (READY and ERROR count as subscribed: they need none). */
  readonly subscribed: boolean;
  /** The event was written to the connection (subscribed, or forced). */
  readonly delivered: boolean;
}

/** The ready connection with that id, or a ControlError naming the problem. */
export function readyConnection(server: RpcServer, connectionId: string): RpcConnection {
  const connection = [...server.connections()].find((candidate) => candidate.id === connectionId);
  if (connection === undefined || connection.state === 'closed') {
    throw new ControlError(404, `No game connection ${connectionId} (see GET /v1/games or 'companion control games')`, 'unknown_connection');
  }
  if (connection.state !== 'ready') {
    throw new ControlError(409, `Connection ${connectionId} is ${connection.state === 'handshake' ? 'still in its handshake' : 'closing'}`, 'connection_not_ready');
  }
  return connection;
}

/**
 * Sends a DISPATCH to one connection, as the real client would: only when the game
 * subscribed to the event (what the real client does), unless `force`. It goes through the
 * connection's paced event queue and is traced like any other frame (the inspector and
 * recordings show it). Nothing else changes: an injected ACTIVITY_JOIN_REQUEST is not a join
 * request the host knows, so a game that answers it gets the host's "no pending join request".
 */
export function injectEvent(server: RpcServer, input: InjectEventInput): InjectEventResult {
  if (!isInjectableEvent(input.evt)) {
    throw new ControlError(400, `evt: unknown event '${input.evt}' (known: ${injectableEvents().join(', ')})`, 'invalid_request');
  }
  const connection = readyConnection(server, input.connection_id);
  const subscribed = UNSOLICITED_EVENTS.has(input.evt) || [...connection.subscriptions.values()].some((subscription) => subscription.evt === input.evt);
  const delivered = subscribed || input.force;
  if (delivered) {
    const payload = eventDispatch(input.evt, input.data ?? null);
    connection.sendEvent(encodeFrame(Opcode.Frame, payload), payload);
  }
  return { connection_id: connection.id, evt: input.evt, subscribed, delivered };
}
