import { parseCommandArgs, readOptionFile, rejectOtherOptions, stringOption, UsageError, type CommandIo, type OptionValues } from './cli-args.js';
import type { HostEndpoint } from '../../base/host-locator.js';
import {
  activityInvite,
  activityJoin,
  activityJoinRequest,
  guildStatus,
  invitingActivity,
  rpcFullUser,
  type UserLike,
} from '../../tools/inject/event-templates.js';
import { call, ControlRequestError, withControlHost } from './control.js';
import { injectCall } from '../../tools/inject/qa-off.js';

export const INJECT_HELP = `Usage: companion inject <kind> [arguments] [options]

Injects events and faults into a running Companion host, for QA (the control
API's /v1/inject routes, served by a host in QA mode: 'companion serve --qa').
CONN is a connection id from 'companion control games' (c1, c2, ...); only that
connection is affected.

Events to one game. Like the real client, Companion sends an event only to a
game that subscribed to it; --force sends it anyway. The command says whether
it was delivered (exit code 1 when it was not):
  event CONN EVT [--data JSON | --data-file FILE]
                                  Any event (ACTIVITY_JOIN, GUILD_STATUS, ...)
                                  with any data (default null)
  join CONN --secret SECRET       ACTIVITY_JOIN {secret}
  spectate CONN --secret SECRET   ACTIVITY_SPECTATE {secret}
  join-request CONN --user USER   ACTIVITY_JOIN_REQUEST from USER (a friend's
                                  name or id)
  invite CONN --user USER [--party ID]
                                  ACTIVITY_INVITE from USER (their activity when
                                  they are playing, else a party of the game)
  guild-status CONN --guild ID [--name NAME] [--online N]
                                  GUILD_STATUS
  authorize-request CONN          AUTHORIZE_REQUEST
  current-user CONN [--username NAME]
                                  CURRENT_USER_UPDATE: the signed-in user
                                  (renamed when --username is given)

Faults:
  revoke APP_ID                   Revoke the application's grant, as the player
                                  would: its games are closed with 4003
  gateway drop                    Drop the platform connection as a network loss
                                  would; Companion resumes the session
  gateway pause MS                Stall the platform connection for MS ms
                                  (nothing read or sent): heartbeats time out
  token-error ERROR [--description TEXT] [--status N] [--app ID]
                    [--grant-type authorization_code|refresh_token] [--count N]
                                  The platform emulator answers the next token
                                  request(s) with this OAuth2 error
  token-error --clear             Disarm the token errors not used yet
  output CONN [--delay MS] [--split N[:GAP_MS]] [--coalesce N[:WINDOW_MS]]
                                  Disturb the frames sent to one game: each
                                  MS ms late; cut into N pieces GAP_MS apart
                                  (default 5); N frames to one write, or what
                                  came within WINDOW_MS (default 50)
  output CONN --reset             Send normally again

Options:
  --force             Send an event the game did not subscribe to
  --host FILE|URL     The host's runtime file (host.json) or control URL (then
                      COMPANION_CONTROL_TOKEN holds the token). Default: the host
                      serving the sockets games would find
  --runtime-dir DIR   Find the host that serves DIR instead
  --json              Print the API's JSON
  -h, --help          Show this help
`;

const KINDS = ['event', 'join', 'spectate', 'join-request', 'invite', 'guild-status', 'authorize-request', 'current-user', 'revoke', 'gateway', 'token-error', 'output'] as const;
type Kind = (typeof KINDS)[number];

/** Which options each kind takes; anything else is a usage error. */
const KIND_OPTIONS: Readonly<Record<Kind, readonly string[]>> = {
  event: ['data', 'data-file', 'force'],
  join: ['secret', 'force'],
  spectate: ['secret', 'force'],
  'join-request': ['user', 'force'],
  invite: ['user', 'party', 'force'],
  'guild-status': ['guild', 'name', 'online', 'force'],
  'authorize-request': ['force'],
  'current-user': ['username', 'force'],
  revoke: [],
  gateway: [],
  'token-error': ['description', 'status', 'app', 'grant-type', 'count', 'clear'],
  output: ['delay', 'split', 'coalesce', 'reset'],
};
const COMMON_OPTIONS = new Set(['host', 'runtime-dir', 'json']);

interface EventRequest {
  readonly connection_id: string;
  readonly evt: string;
  readonly data: unknown;
  readonly force: boolean;
}

function requiredOption(values: OptionValues, name: string, kind: string): string {
  const value = stringOption(values, name);
  if (value === undefined || value === '') throw new UsageError(`inject ${kind} needs --${name} (see 'companion inject --help')`);
  return value;
}

function integer(value: string, name: string, min: number, max: number): number {
  const number = Number(value);
  if (!/^[0-9]+$/.test(value) || number < min || number > max) throw new UsageError(`${name} must be a whole number from ${min} to ${max}, got '${value}'`);
  return number;
}

/** `N` or `N:MS`, for --split and --coalesce. */
function countAndMs(value: string, name: string, countMax: number): [number, number | undefined] {
  const match = /^([0-9]+)(?::([0-9]+))?$/.exec(value);
  if (match === null) throw new UsageError(`--${name} takes N or N:MS (e.g. 3 or 3:10), got '${value}'`);
  const count = integer(match[1] as string, `--${name}'s N`, 2, countMax);
  return [count, match[2] === undefined ? undefined : integer(match[2], `--${name}'s MS`, 0, 10_000)];
}

interface GameRow {
  readonly connection_id: string;
  readonly client_id: string;
  readonly application_name: string;
}
interface FriendRow {
  readonly user: UserLike;
  readonly presence: { readonly activities: readonly { readonly application_id?: string }[] };
}

export async function injectCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  const parsed = parseCommandArgs(
    'inject',
    argv,
    {
      host: { type: 'string' },
      'runtime-dir': { type: 'string' },
      json: { type: 'boolean' },
      force: { type: 'boolean' },
      data: { type: 'string' },
      'data-file': { type: 'string' },
      secret: { type: 'string' },
      user: { type: 'string' },
      party: { type: 'string' },
      guild: { type: 'string' },
      name: { type: 'string' },
      online: { type: 'string' },
      username: { type: 'string' },
      description: { type: 'string' },
      status: { type: 'string' },
      app: { type: 'string' },
      'grant-type': { type: 'string' },
      count: { type: 'string' },
      clear: { type: 'boolean' },
      delay: { type: 'string' },
      split: { type: 'string' },
      coalesce: { type: 'string' },
      reset: { type: 'boolean' },
    },
    true,
  );
  if (parsed.help) {
    io.stdout(INJECT_HELP);
    return 0;
  }
  const [kindArg, ...args] = parsed.positionals;
  if (kindArg === undefined) {
    io.stderr(INJECT_HELP);
    return 2;
  }
  if (!(KINDS as readonly string[]).includes(kindArg)) throw new UsageError(`unknown inject kind '${kindArg}' (see 'companion inject --help')`);
  const kind = kindArg as Kind;
  const values = parsed.values;
  rejectOtherOptions(values, COMMON_OPTIONS, KIND_OPTIONS[kind], `inject ${kind}`);
  const json = values.json === true;
  const need = (count: number, what: string): string[] => {
    if (args.length !== count) throw new UsageError(`inject ${kind} takes ${what} (see 'companion inject --help')`);
    return args;
  };

  // Everything that can be checked without the host is checked before looking for it.
  const plan = await planFor(kind, args, need, values);
  return withControlHost('inject', `inject ${kind}`, values, io, (host) => plan(host, io, json));
}

type Plan = (host: HostEndpoint, io: CommandIo, json: boolean) => Promise<number>;

async function planFor(kind: Kind, args: readonly string[], need: (count: number, what: string) => string[], values: OptionValues): Promise<Plan> {
  const force = values.force === true;
  switch (kind) {
    case 'event': {
      const [connection, evt] = need(2, 'CONN and EVT') as [string, string];
      const data = await eventData(values);
      return (host, io, json) => sendEvent(host, io, json, { connection_id: connection, evt, data, force });
    }
    case 'join':
    case 'spectate': {
      const [connection] = need(1, 'CONN') as [string];
      const secret = requiredOption(values, 'secret', kind);
      const evt = kind === 'join' ? 'ACTIVITY_JOIN' : 'ACTIVITY_SPECTATE';
      return (host, io, json) => sendEvent(host, io, json, { connection_id: connection, evt, data: activityJoin(secret), force });
    }
    case 'join-request': {
      const [connection] = need(1, 'CONN') as [string];
      const userArg = requiredOption(values, 'user', kind);
      return async (host, io, json) => {
        const user = await friendUser(host, userArg);
        return sendEvent(host, io, json, { connection_id: connection, evt: 'ACTIVITY_JOIN_REQUEST', data: activityJoinRequest(user.user), force });
      };
    }
    case 'invite': {
      const [connection] = need(1, 'CONN') as [string];
      const userArg = requiredOption(values, 'user', kind);
      const party = stringOption(values, 'party');
      return async (host, io, json) => {
        const game = await gameRow(host, connection);
        const friend = await friendUser(host, userArg);
        const activity = invitingActivity(friend.presence?.activities, game, party);
        return sendEvent(host, io, json, { connection_id: connection, evt: 'ACTIVITY_INVITE', data: activityInvite(friend.user, activity), force });
      };
    }
    case 'guild-status': {
      const [connection] = need(1, 'CONN') as [string];
      const guild = requiredOption(values, 'guild', kind);
      if (!/^[0-9]{1,20}$/.test(guild)) throw new UsageError(`--guild must be a guild id (digits), got '${guild}'`);
      const online = stringOption(values, 'online');
      const data = guildStatus({ id: guild, name: stringOption(values, 'name') ?? `Guild ${guild}` }, online === undefined ? 0 : integer(online, '--online', 0, 1_000_000));
      return (host, io, json) => sendEvent(host, io, json, { connection_id: connection, evt: 'GUILD_STATUS', data, force });
    }
    case 'authorize-request': {
      const [connection] = need(1, 'CONN') as [string];
      return (host, io, json) => sendEvent(host, io, json, { connection_id: connection, evt: 'AUTHORIZE_REQUEST', data: null, force });
    }
    case 'current-user': {
      const [connection] = need(1, 'CONN') as [string];
      const username = stringOption(values, 'username');
      return async (host, io, json) => {
        const status = (await call(host, 'GET', '/v1/status')) as { account: { user: UserLike } | null };
        if (status.account === null) throw new ControlRequestError(409, 'the host is not signed in: there is no current user to send');
        const user = { ...status.account.user, ...(username === undefined ? {} : { username }) };
        return sendEvent(host, io, json, { connection_id: connection, evt: 'CURRENT_USER_UPDATE', data: rpcFullUser(user), force });
      };
    }
    case 'revoke': {
      const [app] = need(1, 'APP_ID') as [string];
      if (!/^[0-9]{1,20}$/.test(app)) throw new UsageError(`APP_ID must be an application id (digits), got '${app}'`);
      return async (host, io, json) => {
        const result = await call(host, 'DELETE', `/v1/grants/${app}`);
        io.stdout(json ? `${JSON.stringify(result)}\n` : `Revoked the grant of ${app}: its authenticated games are closed with 4003\n`);
        return 0;
      };
    }
    case 'gateway': {
      const [action, ms, ...extra] = args;
      if (action === 'drop' && ms === undefined) return (host, io, json) => gateway(host, io, json, { action: 'drop' });
      if (action === 'pause' && ms !== undefined && extra.length === 0) {
        const duration = integer(ms, 'MS', 1, 600_000);
        return (host, io, json) => gateway(host, io, json, { action: 'pause', duration_ms: duration });
      }
      throw new UsageError("inject gateway takes 'drop' or 'pause MS' (see 'companion inject --help')");
    }
    case 'token-error':
      return tokenErrorPlan(need, values);
    case 'output':
      return outputPlan(need, values);
  }
}

function tokenErrorPlan(need: (count: number, what: string) => string[], values: OptionValues): Plan {
  if (values.clear === true) {
    need(0, 'no ERROR with --clear');
    for (const name of ['description', 'status', 'app', 'grant-type', 'count']) {
      if (values[name] !== undefined) throw new UsageError(`--${name} does not go with --clear`);
    }
    return async (host, io, json) => {
      const result = (await injectCall(host, 'DELETE', '/v1/inject/token-error')) as { cleared: number };
      io.stdout(json ? `${JSON.stringify(result)}\n` : `Disarmed ${result.cleared} token error(s)\n`);
      return 0;
    };
  }
  const [error] = need(1, 'ERROR (an OAuth2 error code such as invalid_grant)') as [string];
  if (!/^[a-z][a-z0-9_]{0,63}$/.test(error)) throw new UsageError(`ERROR must be an OAuth2 error code like invalid_grant, got '${error}'`);
  const body: Record<string, unknown> = { error };
  const description = stringOption(values, 'description');
  if (description !== undefined) body['error_description'] = description;
  const status = stringOption(values, 'status');
  if (status !== undefined) body['status'] = integer(status, '--status', 400, 599);
  const app = stringOption(values, 'app');
  if (app !== undefined) {
    if (!/^[0-9]{1,20}$/.test(app)) throw new UsageError(`--app must be an application id (digits), got '${app}'`);
    body['application_id'] = app;
  }
  const grantType = stringOption(values, 'grant-type');
  if (grantType !== undefined) {
    if (grantType !== 'authorization_code' && grantType !== 'refresh_token') throw new UsageError(`--grant-type must be authorization_code or refresh_token, got '${grantType}'`);
    body['grant_type'] = grantType;
  }
  const count = stringOption(values, 'count');
  if (count !== undefined) body['count'] = integer(count, '--count', 1, 1000);
  return async (host, io, json) => {
    const result = (await injectCall(host, 'POST', '/v1/inject/token-error', body)) as { armed: { status: number; remaining: number }; pending: number };
    io.stdout(
      json
        ? `${JSON.stringify(result)}\n`
        : `Armed: the next ${result.armed.remaining === 1 ? 'token request' : `${result.armed.remaining} token requests`}${app === undefined ? '' : ` of ${app}`} ${result.armed.remaining === 1 ? 'gets' : 'get'} ${error} (HTTP ${result.armed.status}); ${result.pending} armed in all\n`,
    );
    return 0;
  };
}

function outputPlan(need: (count: number, what: string) => string[], values: OptionValues): Plan {
  const [connection] = need(1, 'CONN') as [string];
  const body: Record<string, unknown> = { connection_id: connection };
  const delay = stringOption(values, 'delay');
  const split = stringOption(values, 'split');
  const coalesce = stringOption(values, 'coalesce');
  if (values.reset === true) {
    if (delay !== undefined || split !== undefined || coalesce !== undefined) throw new UsageError('--reset does not go with --delay, --split or --coalesce');
  } else {
    if (delay === undefined && split === undefined && coalesce === undefined) throw new UsageError('inject output needs --delay, --split, --coalesce or --reset');
    if (delay !== undefined) body['delay_ms'] = integer(delay, '--delay', 0, 60_000);
    if (split !== undefined) {
      const [parts, gap] = countAndMs(split, 'split', 64);
      body['split'] = { parts, ...(gap === undefined ? {} : { gap_ms: gap }) };
    }
    if (coalesce !== undefined) {
      const [frames, window] = countAndMs(coalesce, 'coalesce', 64);
      if (window === 0) throw new UsageError("--coalesce's MS must be at least 1");
      body['coalesce'] = { frames, ...(window === undefined ? {} : { window_ms: window }) };
    }
  }
  return async (host, io, json) => {
    const result = (await injectCall(host, 'POST', '/v1/inject/output', body)) as { connection_id: string; shaping: Record<string, unknown> | null };
    io.stdout(json ? `${JSON.stringify(result)}\n` : result.shaping === null ? `${result.connection_id}: frames are sent normally\n` : `${result.connection_id}: ${describeShaping(result.shaping)}\n`);
    return 0;
  };
}

function describeShaping(shaping: Record<string, unknown>): string {
  const parts: string[] = [];
  const delay = shaping['delay_ms'];
  const split = shaping['split'] as { parts: number; gap_ms: number } | undefined;
  const coalesce = shaping['coalesce'] as { frames: number; window_ms: number } | undefined;
  if (typeof delay === 'number') parts.push(`every frame ${delay} ms late`);
  if (coalesce !== undefined) parts.push(`${coalesce.frames} frames to a write (or what came within ${coalesce.window_ms} ms)`);
  if (split !== undefined) parts.push(`each write in ${split.parts} pieces ${split.gap_ms} ms apart`);
  return parts.join('; ');
}

async function eventData(values: OptionValues): Promise<unknown> {
  const inline = stringOption(values, 'data');
  const file = stringOption(values, 'data-file');
  if (inline !== undefined && file !== undefined) throw new UsageError('give either --data or --data-file, not both');
  let text: string;
  let source: string;
  if (inline !== undefined) {
    text = inline;
    source = '--data';
  } else if (file !== undefined) {
    text = await readOptionFile('--data-file', file);
    source = `--data-file ${file}`;
  } else {
    return null;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new UsageError(`${source} is not valid JSON (${error instanceof Error ? error.message : 'parse error'})`);
  }
}

async function sendEvent(host: HostEndpoint, io: CommandIo, json: boolean, request: EventRequest): Promise<number> {
  const result = (await injectCall(host, 'POST', '/v1/inject/event', request)) as { connection_id: string; evt: string; subscribed: boolean; delivered: boolean };
  if (json) io.stdout(`${JSON.stringify(result)}\n`);
  if (result.delivered) {
    if (!json) io.stdout(`${result.evt} delivered to ${result.connection_id}${result.subscribed ? '' : ' (forced: it did not subscribe to it)'}\n`);
    return 0;
  }
  io.stderr(`companion inject: ${result.evt} not delivered: ${result.connection_id} did not subscribe to it (--force sends it anyway)\n`);
  return 1;
}

async function gateway(host: HostEndpoint, io: CommandIo, json: boolean, body: { action: 'drop' } | { action: 'pause'; duration_ms: number }): Promise<number> {
  const result = await injectCall(host, 'POST', '/v1/inject/gateway', body);
  if (json) io.stdout(`${JSON.stringify(result)}\n`);
  else io.stdout(body.action === 'drop' ? 'Dropped the platform connection; Companion resumes it\n' : `Stalled the platform connection for ${body.duration_ms} ms\n`);
  return 0;
}

async function gameRow(host: HostEndpoint, connection: string): Promise<GameRow> {
  const { games } = (await call(host, 'GET', '/v1/games')) as { games: GameRow[] };
  const game = games.find((row) => row.connection_id === connection);
  if (game === undefined) throw new ControlRequestError(404, `No game connection ${connection} (see 'companion control games')`);
  return game;
}

/** A friend by name or id; an id that is no friend still works (a stranger's request). */
async function friendUser(host: HostEndpoint, user: string): Promise<{ user: UserLike; presence: FriendRow['presence'] | undefined }> {
  const { friends } = (await call(host, 'GET', '/v1/friends')) as { friends: FriendRow[] };
  const found = friends.find((friend) => friend.user.id === user || friend.user.username.toLowerCase() === user.toLowerCase());
  if (found !== undefined) return { user: found.user, presence: found.presence };
  if (/^[0-9]{15,20}$/.test(user)) return { user: { id: user, username: `user${user.slice(-4)}` }, presence: undefined };
  throw new ControlRequestError(404, `no friend named '${user}' (see 'companion control friends'; a user id works too)`);
}
