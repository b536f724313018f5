import { randomBytes } from 'node:crypto';
import { runSetActivity, RpcError } from '../../../../rpc/src/index.js';
import type { PlatformMessage, PresenceUpdateEvent, WireActivity } from '../../../../platform/src/wire/index.js';
import { hostOptions, parseCommandArgs, readOptionJson, rejectOtherOptions, reportExpected, stringOption, UsageError, type CommandIo, type OptionValues } from './cli-args.js';
import { HostNotFoundError, locateHost, readHostRuntimeFile } from '../../base/host-locator.js';
import { toWireActivity } from '../../host/presence/to-wire-activity.js';
import { call as controlCall, ControlRequestError } from './control.js';
import { call, findTarget, PlatformAdminError, type AdminTarget } from './platform.js';
import { describeFriendVoice, FRIEND_VOICE_HELP, FRIEND_VOICE_OPTIONS, friendVoiceRequests } from './platform-friend-voice.js';

export const FRIEND_HELP = `Usage: companion platform friend <action> --as NAME [options]

A simulated friend on the platform emulator: a second user driven from the
command line, so one developer can test the whole invite loop against one host.
NAME is an emulator user (bob, carol, ...) who is friends with you.

Actions:
  presence [--app ID] [--activity FILE] [--status S]
                        Set their presence: playing --app with the activity in
                        FILE (SET_ACTIVITY's activity object, as for
                        'companion game'), else a joinable party of 1/4.
                        Without --app: online, playing nothing.
                        --status online|idle|dnd|invisible
  ask-to-join [--app ID]
                        Ask you to let them join your party: your games
                        subscribed to ACTIVITY_JOIN_REQUEST get it
  invite --app ID [--message TEXT]
                        Invite you to their party (they start one when they
                        have none): your games get ACTIVITY_INVITE
  accept [--message-id ID] [--app ID]
                        Say yes to what you sent them last: your join request
                        (they invite you back and your host joins), or your
                        invite (they join your party)
  decline [--message-id ID] [--app ID]
                        Say no to your join request (your host is told), or
                        ignore your invite (nobody is told)
  offline               End their simulated presence
  voice ACTION          In a server voice channel: join CHANNEL, speak
                        [--tone HZ] [--seconds N] | [--wav FILE], quiet, mute,
                        unmute, deaf, undeaf, leave; with --lobby ID in that
                        lobby's call, with real audio (see 'platform friend
                        voice --help')

Options:
  --as NAME           The simulated friend (required)
  --to NAME           You: the user they talk to. Default: the user the running
                      host is signed in as
  --host FILE         The host's runtime file (host.json); default: the host
                      serving the sockets games would find
  --runtime-dir DIR   Find the host that serves DIR instead
  --data DIR          The emulator's data dir (its platform.json); default: the
                      host's embedded emulator, else the default data dir
  --platform URL      The emulator's URL (with --data)
  --json              Print the emulator's JSON
  -h, --help          Show this help
`;

const ACTIONS = ['presence', 'ask-to-join', 'invite', 'accept', 'decline', 'offline', 'voice'] as const;
type Action = (typeof ACTIONS)[number];

/** Options each action takes besides the common ones. */
const ACTION_OPTIONS: Readonly<Record<Action, readonly string[]>> = {
  presence: ['app', 'activity', 'status'],
  'ask-to-join': ['app'],
  invite: ['app', 'message'],
  accept: ['message-id', 'app'],
  decline: ['message-id', 'app'],
  offline: [],
  voice: FRIEND_VOICE_OPTIONS,
};
const COMMON_OPTIONS = new Set(['as', 'to', 'host', 'runtime-dir', 'data', 'platform', 'json']);
const STATUSES = ['online', 'idle', 'dnd', 'invisible'] as const;

function appId(values: OptionValues, required: boolean, action: string): string | undefined {
  const app = stringOption(values, 'app');
  if (app === undefined) {
    if (required) throw new UsageError(`platform friend ${action} needs --app ID`);
    return undefined;
  }
  if (!/^[0-9]{1,20}$/.test(app)) throw new UsageError(`--app must be an application id (digits), got '${app}'`);
  return app;
}

export async function friendCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  const parsed = parseCommandArgs(
    'platform friend',
    argv,
    {
      as: { type: 'string' },
      to: { type: 'string' },
      host: { type: 'string' },
      'runtime-dir': { type: 'string' },
      data: { type: 'string' },
      platform: { type: 'string' },
      json: { type: 'boolean' },
      app: { type: 'string' },
      activity: { type: 'string' },
      status: { type: 'string' },
      message: { type: 'string' },
      'message-id': { type: 'string' },
      tone: { type: 'string' },
      seconds: { type: 'string' },
      wav: { type: 'string' },
      lobby: { type: 'string' },
    },
    true,
  );
  if (parsed.help) {
    io.stdout(parsed.positionals[0] === 'voice' ? FRIEND_VOICE_HELP : FRIEND_HELP);
    return 0;
  }
  const [actionArg, ...extra] = parsed.positionals;
  if (actionArg === undefined) {
    io.stderr(FRIEND_HELP);
    return 2;
  }
  if (!(ACTIONS as readonly string[]).includes(actionArg)) throw new UsageError(`unknown friend action '${actionArg}' (see 'companion platform friend --help')`);
  const action = actionArg as Action;
  if (extra.length > 0 && action !== 'voice') throw new UsageError(`platform friend ${action} takes no further arguments, got '${extra.join(' ')}'`);
  const values = parsed.values;
  rejectOtherOptions(values, COMMON_OPTIONS, ACTION_OPTIONS[action], `platform friend ${action}`);
  const as = stringOption(values, 'as');
  if (as === undefined || as === '') throw new UsageError("platform friend needs --as NAME (the simulated friend)");
  const json = values.json === true;
  const messageId = stringOption(values, 'message-id');
  if (messageId !== undefined && !/^[0-9]{1,20}$/.test(messageId)) throw new UsageError(`--message-id must be a message id (digits), got '${messageId}'`);

  // Validate what needs no network first.
  let body: Record<string, unknown>;
  let route: string;
  // A WAV file played into a lobby call goes in several requests: the last one answers.
  let followUps: Record<string, unknown>[] = [];
  switch (action) {
    case 'voice':
      [body = {}, ...followUps] = await friendVoiceRequests(as, extra, values);
      route = '/_emulator/simulated-friend/voice';
      break;
    case 'presence': {
      const status = stringOption(values, 'status');
      if (status !== undefined && !(STATUSES as readonly string[]).includes(status)) throw new UsageError(`--status must be one of ${STATUSES.join(', ')}, got '${status}'`);
      const app = appId(values, stringOption(values, 'activity') !== undefined, action);
      const activity = app === undefined ? null : await presenceActivity(app, stringOption(values, 'activity'));
      body = { as, activity, ...(status === undefined ? {} : { status }) };
      route = '/_emulator/simulated-friend/presence';
      break;
    }
    case 'offline':
      body = { as, status: 'offline', activity: null };
      route = '/_emulator/simulated-friend/presence';
      break;
    case 'ask-to-join': {
      const app = appId(values, false, action);
      body = { as, ...(app === undefined ? {} : { application_id: app }) };
      route = '/_emulator/simulated-friend/ask-to-join';
      break;
    }
    case 'invite': {
      const message = stringOption(values, 'message');
      body = { as, application_id: appId(values, true, action), ...(message === undefined ? {} : { content: message }) };
      route = '/_emulator/simulated-friend/invite';
      break;
    }
    case 'accept':
    case 'decline': {
      const app = appId(values, false, action);
      body = { as, ...(messageId === undefined ? {} : { message_id: messageId }), ...(app === undefined ? {} : { application_id: app }) };
      route = `/_emulator/simulated-friend/${action}`;
      break;
    }
  }

  const sent = await reportExpected(`platform friend ${action}`, io, [PlatformAdminError, HostNotFoundError, ControlRequestError], async () => {
    const target = await emulatorTarget(values, io);
    if (action !== 'presence' && action !== 'offline' && action !== 'voice') body['to'] = await resolveTo(values, io);
    let result = await call<unknown>(target, 'POST', route, body);
    for (const next of followUps) result = await call<unknown>(target, 'POST', route, next);
    io.stdout(json ? `${JSON.stringify(result, null, 2)}\n` : `${describe(action, as, body, result)}\n`);
    return 0;
  });
  return sent ?? 1;
}

/**
 * The emulator to drive: the one named by --data/--platform; else the running host's
 * embedded emulator (its runtime file holds the admin token); else the default data dir's.
 */
async function emulatorTarget(values: OptionValues, io: CommandIo): Promise<AdminTarget> {
  const data = stringOption(values, 'data');
  const platform = stringOption(values, 'platform');
  if (data !== undefined || platform !== undefined) return findTarget(data, platform, io);
  try {
    const { info } = await readHostRuntimeFile(hostOptions(values, io));
    if (info.platform?.adminToken !== undefined) return { url: info.platform.url, adminToken: info.platform.adminToken };
  } catch (error) {
    if (!(error instanceof HostNotFoundError)) throw error;
  }
  return findTarget(undefined, undefined, io);
}

/** `--to`, else the user the running host is signed in as. */
async function resolveTo(values: OptionValues, io: CommandIo): Promise<string> {
  const to = stringOption(values, 'to');
  if (to !== undefined && to !== '') return to;
  let host;
  try {
    host = await locateHost(hostOptions(values, io));
  } catch (error) {
    if (error instanceof HostNotFoundError) throw new PlatformAdminError(`name yourself with --to NAME: ${error.message}`);
    throw error;
  }
  const status = (await controlCall(host, 'GET', '/v1/status')) as { account: { user: { username: string } } | null };
  if (status.account === null) throw new PlatformAdminError('the host is not signed in: name yourself with --to NAME');
  return status.account.user.username;
}

/** The activity as the host would send it to the platform: checked with the server's own SET_ACTIVITY rules. */
async function presenceActivity(app: string, file: string | undefined): Promise<WireActivity> {
  let input: unknown;
  if (file === undefined) {
    const id = randomBytes(4).toString('hex');
    input = { state: 'Looking for players', party: { id: `party-${id}`, size: [1, 4] }, secrets: { join: `join-${randomBytes(12).toString('hex')}` } };
  } else {
    input = await readOptionJson('--activity', file);
  }
  try {
    const result = runSetActivity({ pid: 1, activity: input }, { applicationId: app, applicationName: '', transport: 'ipc', now: Date.now });
    if (result.activity === null) throw new UsageError(`--activity: ${file ?? 'the activity'} holds no activity`);
    return toWireActivity(result.activity, app);
  } catch (error) {
    if (error instanceof RpcError) throw new UsageError(`--activity: ${file ?? 'the activity'} is not a valid activity: ${error.message}`);
    throw error;
  }
}

function describeActivities(presence: PresenceUpdateEvent | null): string {
  const activities = presence?.activities ?? [];
  if (activities.length === 0) return 'playing nothing';
  return activities
    .map((activity) => {
      const parts = [activity.name, activity.details, activity.state].filter((part): part is string => typeof part === 'string' && part !== '');
      const size = activity.party?.size;
      if (size !== undefined) parts.push(`party ${size[0]}/${size[1]}`);
      return parts.join(' · ');
    })
    .join('; ');
}

function describe(action: Action, as: string, body: Record<string, unknown>, result: unknown): string {
  const to = String(body['to'] ?? '');
  switch (action) {
    case 'voice':
      return describeFriendVoice(as, result);
    case 'presence': {
      const presence = (result as { presence: PresenceUpdateEvent | null }).presence;
      return presence === null ? `${as} is invisible (offline to friends)` : `${as} is ${presence.status}, ${describeActivities(presence)}`;
    }
    case 'offline':
      return `${as} is offline (the simulated presence ended)`;
    case 'ask-to-join':
      return `${as} asked ${to} to join (message ${(result as PlatformMessage).id}); ${to}'s games subscribed to ACTIVITY_JOIN_REQUEST get it`;
    case 'invite':
      return `${as} invited ${to} (message ${(result as PlatformMessage).id}); ${to}'s games subscribed to ACTIVITY_INVITE get it`;
    case 'accept': {
      const outcome = result as { accepted: string; message_id: string; invite_message_id?: string };
      return outcome.accepted === 'join-request'
        ? `${as} accepted ${to}'s join request ${outcome.message_id}: an invite went back (message ${outcome.invite_message_id ?? '?'}), so ${to}'s host joins`
        : `${as} accepted ${to}'s invite ${outcome.message_id} and joined the party`;
    }
    case 'decline': {
      const outcome = result as { declined: string; message_id: string };
      return outcome.declined === 'join-request'
        ? `${as} declined ${to}'s join request ${outcome.message_id}`
        : `${as} ignored ${to}'s invite ${outcome.message_id} (nobody is told)`;
    }
  }
}
