import { hostOptions, parseCommandArgs, reportExpected, UsageError, type CommandIo, type OptionValues } from './cli-args.js';
import { HostNotFoundError, locateHost, type HostEndpoint } from '../../base/host-locator.js';
import { call, ControlRequestError } from '../../base/control-client.js';
import { ControlInvocation, type ControlAction } from './control-action.js';
import { ACCOUNT_ACTIONS } from './control-account.js';
import { events } from './control-events.js';
import { LISTING_ACTIONS } from './control-listings.js';
import { PRESENCE_HELP, PRESENCE_OPTIONS, presenceAction } from './control-presence.js';
import { SOCIAL_ACTIONS } from './control-social.js';
import { VOICE_HELP, VOICE_OPTIONS, voiceAction } from './control-voice.js';

export { call, ControlRequestError };

export const CONTROL_HELP = `Usage: companion control <action> [arguments] [options]

Talks to a running Companion host through its control API: what its games and
friends are doing, join requests, invites and the account.

Actions:
  status                      Account, gateway status, sockets, platform
  games                       Connected games and their activities
  friends                     Friends and what they are playing
  join USER [--app ID]        Join a friend's game (name or id): at once for a
                              public party, else ask them (a join request)
  invite USER [--app ID] [--message TEXT]
                              Invite a friend to your game's party
  requests                    Join requests waiting for an answer
  accept-request ID           Say yes to a join request
  decline-request ID          Say no to a join request
  invites                     Invites you received
  accept-invite ID            Accept an invite (the game gets ACTIVITY_JOIN,
                              and is launched if it is not running)
  decline-invite ID           Forget an invite (the sender is not told)
  login NAME                  Sign in as a platform user (emulator dev login)
  login --token-file FILE     Sign in with a token
  logout                      Sign out (games are disconnected)
  events                      Stream the host's events until Ctrl+C
${PRESENCE_HELP}${VOICE_HELP}
Options:
  --host FILE|URL     The host's runtime file (host.json) or control URL (then
                      COMPANION_CONTROL_TOKEN holds the token). Default: the host
                      serving the sockets games would find
  --runtime-dir DIR   Find the host that serves DIR instead
  --json              Print the API's JSON instead of text
  -h, --help          Show this help
`;

/**
 * Finds the host (`--host`, `--runtime-dir`) and runs `work` against its control API. No host
 * is printed as `companion <command>: <message>`, a request the API refused as
 * `companion <label>: <message>`; both end with exit code 1.
 */
export async function withControlHost(command: string, label: string, values: OptionValues, io: CommandIo, work: (host: HostEndpoint) => Promise<number>): Promise<number> {
  const host = await reportExpected(command, io, [HostNotFoundError], () => locateHost(hostOptions(values, io)));
  if (host === undefined) return 1;
  return (await reportExpected(label, io, [ControlRequestError], () => work(host))) ?? 1;
}

const CONTROL_OPTIONS = {
  host: { type: 'string' },
  'runtime-dir': { type: 'string' },
  json: { type: 'boolean' },
  app: { type: 'string' },
  message: { type: 'string' },
  'token-file': { type: 'string' },
  ...PRESENCE_OPTIONS,
  ...VOICE_OPTIONS,
} as const;

const presence: ControlAction = (control) => presenceAction(control.call, control.args, control.values, control.print);
const voice: ControlAction = (control) => voiceAction(control.call, control.args, control.values, control.print);

/** Every action by its name. */
const CONTROL_ACTIONS: ReadonlyMap<string, ControlAction> = new Map(
  Object.entries({ ...LISTING_ACTIONS, ...SOCIAL_ACTIONS, ...ACCOUNT_ACTIONS, presence, voice, events }),
);

export async function controlCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  const parsed = parseCommandArgs('control', argv, CONTROL_OPTIONS, true);
  if (parsed.help) {
    io.stdout(CONTROL_HELP);
    return 0;
  }
  const [action, ...args] = parsed.positionals;
  if (action === undefined) {
    io.stderr(CONTROL_HELP);
    return 2;
  }
  return withControlHost('control', `control ${action}`, parsed.values, io, async (host) => {
    const run = CONTROL_ACTIONS.get(action);
    if (run === undefined) throw new UsageError(`unknown control action '${action}' (see 'companion control --help')`);
    return await run(new ControlInvocation(host, action, args, parsed.values, io));
  });
}
