import * as v from 'valibot';
import { namingMessage, RpcError, RpcErrorCode } from '../protocol/codes.js';
import { eventSpec } from '../protocol/events.js';
import type { CommandContext, CommandHandler } from './rpc-server.js';
import { INVALID_SCOPE_MESSAGE, isPermitted } from './scope-check.js';
import { activityJsonTextAfter } from '../commands/activity-json.js';
import { obj } from '../commands/activity-schema.js';
import { parseArgs } from '../commands/joi-message.js';
import { runSetActivity, type GatewayActivity } from '../commands/set-activity.js';
import { UserIdArgs } from '../commands/invite-args.js';
import { noVoiceChannel } from '../commands/voice-channel.js';

/** A user, guild or channel id: a string of digits. */
const ID = /^[0-9]{1,20}$/;

/** Enough for every event with a few dozen filters; bounds what one client can make us hold. */
export const MAX_SUBSCRIPTIONS_PER_CONNECTION = 256;

const CertifiedDevicesArgs = obj({
  devices: v.array(
    obj({
      type: v.picklist(['audioinput', 'audiooutput', 'videoinput'], 'must be one of [audioinput, audiooutput, videoinput]'),
      id: v.pipe(v.string('must be a string'), v.minLength(1, 'is not allowed to be empty')),
    }),
    'must be an array',
  ),
});

function setActivity({ connection, server, request }: CommandContext): unknown {
  const result = runSetActivity(request.args, {
    applicationId: connection.clientId as string,
    applicationName: connection.applicationName,
    transport: connection.transport,
    now: server.now,
  });
  const json = result.activity === null ? null : activityJsonTextAfter(connection.activityJson, result.activity);
  // A repeated activity is the earlier object again, so what follows (the relay) can tell it by identity.
  const activity = json === null ? null : (json.value as GatewayActivity);
  connection.pid = result.pid ?? connection.pid;
  connection.activity = activity;
  connection.activityJson = json;
  // Announced once the reply is written (the relay's work is not the game's to wait for).
  if (server.listenerCount('activity') > 0) {
    server.announceAfterReply({ connection, pid: result.pid, activity, cause: 'command' });
  }
  return json;
}

function subscription(subscribe: boolean): CommandHandler {
  return ({ connection, server, request }) => {
    const { evt, args } = request;
    const spec = eventSpec(evt);
    if (spec === undefined) {
      throw new RpcError(RpcErrorCode.InvalidEvent, namingMessage('Invalid event', evt));
    }
    const name = evt as string;
    // SUBSCRIBE and UNSUBSCRIBE need what the event itself needs (its scopes).
    if (!isPermitted(connection, spec)) {
      throw new RpcError(RpcErrorCode.InvalidPermissions, INVALID_SCOPE_MESSAGE);
    }
    // The filter is the event's own argument and nothing else, so stray keys in args
    // neither create new subscriptions nor hide one from dispatch.
    let filter: Record<string, string> = {};
    if (spec.arg !== undefined) {
      const value = args[spec.arg];
      if (typeof value !== 'string' || !ID.test(value)) {
        throw new RpcError(RpcErrorCode.InvalidPayload, 'Invalid subscription parameters provided');
      }
      filter = { [spec.arg]: value };
    }
    if (subscribe && connection.subscriptions.size >= MAX_SUBSCRIPTIONS_PER_CONNECTION) {
      throw new RpcError(RpcErrorCode.InvalidPayload, `Too many subscriptions (at most ${MAX_SUBSCRIPTIONS_PER_CONNECTION})`);
    }
    server.recordSubscription(connection, { evt: name, args: filter }, subscribe);
    return { evt: name };
  };
}

/** Effects the host carries out (relay to the platform): announced on the server's bus. */
function hostRequest(schema: v.GenericSchema): CommandHandler {
  return ({ connection, server, request }) => {
    const args = parseArgs(schema, request.args) as Record<string, unknown>;
    server.emit('request', { connection, cmd: request.cmd, args });
    return null;
  };
}

/** Commands the RPC core answers itself. The host adds others with setCommandHandler. */
export const builtInCommands: Readonly<Record<string, CommandHandler>> = {
  SET_ACTIVITY: setActivity,
  SUBSCRIBE: subscription(true),
  UNSUBSCRIBE: subscription(false),
  SEND_ACTIVITY_JOIN_INVITE: hostRequest(UserIdArgs),
  // The documented name and the one the C library, npm, xhayper and Lachee send.
  CLOSE_ACTIVITY_REQUEST: hostRequest(UserIdArgs),
  CLOSE_ACTIVITY_JOIN_REQUEST: hostRequest(UserIdArgs),
  SET_CERTIFIED_DEVICES: hostRequest(CertifiedDevicesArgs),
  // No voice channel yet (issue 29: the platform's voice states come later); the host may replace these.
  GET_SELECTED_VOICE_CHANNEL: () => noVoiceChannel.selected(),
  SELECT_VOICE_CHANNEL: ({ request }) => noVoiceChannel.select(request.args),
};
