import type { Activity } from '../../../../rpc/client/index.js';
import { parseCommandArgs, readOptionJson, reportExpected, UsageError, type CommandIo } from './cli-args.js';
import { FakeGame, FakeGameError, checkEventNames, formatLine, type FakeGameLine } from '../../tools/fake-game/fake-game.js';
import { HostNotFoundError, readHostRuntimeFile } from '../../base/host-locator.js';
import { StopSignal } from './stop-signal.js';

export const GAME_HELP = `Usage: companion game --client-id ID [options]

A fake game for manual QA and demos: connects to a running Companion with the
project's own game SDK, sets an activity, subscribes to events and prints every
event it receives, one line each (the event name, then its data as JSON), until
Ctrl+C. It answers nothing by itself: it shows what a game would be told.

Options:
  --client-id ID      The application id to connect as (required)
  --activity FILE     Set this activity once connected: a JSON file holding
                      SET_ACTIVITY's activity object (state, details, party,
                      secrets, assets, timestamps, buttons, ...)
  --subscribe EVT     Subscribe to an event; repeat it, or separate names with
                      commas (ACTIVITY_JOIN,ACTIVITY_JOIN_REQUEST,...)
  --host FILE         Connect to the host of this runtime file (host.json)
  --runtime-dir DIR   Find the sockets in DIR instead of the environment's choice
  --once              Exit after READY, the activity and the subscriptions
                      (exit code 1 if one of them was refused)
  --json              One JSON object per line: {"type":"event","evt":...,"data":...}
  -h, --help          Show this help

Output lines: READY, ACTIVITY set|refused, SUBSCRIBED EVT | SUBSCRIBE EVT refused,
then EVT {data} per event and STATUS lines when the connection drops or comes
back (the game reconnects by itself, as games on the SDK do).
`;

/** Hooks for tests: `stop` ends the game like a signal does. */
export interface GameCommandOptions {
  readonly stop?: Promise<unknown>;
}

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

async function readActivity(file: string): Promise<Activity> {
  const parsed = await readOptionJson('--activity', file);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new UsageError(`--activity: ${file} must hold a JSON object (the activity)`);
  return parsed as Activity;
}

/** `--host FILE`: the socket that host bound, from its runtime file. */
async function hostSocket(file: string, env: CommandIo['env']): Promise<string> {
  if (/^https?:\/\//.test(file)) throw new UsageError('--host for a game must be the host\'s runtime file (host.json): a game connects to its socket, not to the control API');
  const { info } = await readHostRuntimeFile({ host: file, env });
  if (info.ipc === undefined || info.ipc === null) throw new HostNotFoundError(`${file} names no socket (a host still starting?)`);
  return info.ipc.path;
}

export async function gameCommand(argv: readonly string[], io: CommandIo, options: GameCommandOptions = {}): Promise<number> {
  const parsed = parseCommandArgs('game', argv, {
    'client-id': { type: 'string' },
    activity: { type: 'string' },
    subscribe: { type: 'string', multiple: true },
    host: { type: 'string' },
    'runtime-dir': { type: 'string' },
    once: { type: 'boolean' },
    json: { type: 'boolean' },
  });
  if (parsed.help) {
    io.stdout(GAME_HELP);
    return 0;
  }
  const values = parsed.values;
  const clientId = values['client-id'] as string | undefined;
  if (clientId === undefined) throw new UsageError("game needs --client-id ID (see 'companion game --help')");
  if (!/^[0-9]{1,20}$/.test(clientId)) throw new UsageError(`--client-id must be an application id (digits), got '${clientId}'`);
  const subscribe = ((values.subscribe as string[] | undefined) ?? []).flatMap((entry) => entry.split(',')).map((name) => name.trim()).filter((name) => name !== '');
  try {
    checkEventNames(subscribe);
  } catch (error) {
    if (error instanceof FakeGameError) throw new UsageError(`--subscribe: ${error.message}`);
    throw error;
  }
  const activityFile = values.activity as string | undefined;
  const activity = activityFile === undefined ? undefined : await readActivity(activityFile);
  const hostFile = values.host as string | undefined;
  const runtimeDir = values['runtime-dir'] as string | undefined;
  if (hostFile !== undefined && runtimeDir !== undefined) throw new UsageError('give either --host or --runtime-dir, not both');
  const json = values.json === true;
  const once = values.once === true;

  let socketPaths: string[] | undefined;
  if (hostFile !== undefined) {
    const socket = await reportExpected('game', io, [HostNotFoundError], () => hostSocket(hostFile, io.env));
    if (socket === undefined) return 1;
    socketPaths = [socket];
  }
  // The SDK finds sockets where games do; --runtime-dir is that directory.
  const env = runtimeDir === undefined ? io.env : { ...io.env, XDG_RUNTIME_DIR: runtimeDir };

  // Signal handlers first: a Ctrl+C while connecting ends the game as soon as it is up.
  const stop = new StopSignal(SIGNALS, options.stop);
  const print = (line: FakeGameLine): void => io.stdout(`${formatLine(line, json)}\n`);

  try {
    const game = await reportExpected('game', io, [FakeGameError], () =>
      FakeGame.start({
        clientId,
        subscribe,
        env,
        onLine: print,
        ...(activity === undefined ? {} : { activity }),
        ...(socketPaths === undefined ? {} : { socketPaths }),
      }),
    );
    if (game === undefined) return 1;
    const refused = game.lines.some((line) => (line.type === 'activity' || line.type === 'subscribed') && !line.ok);
    if (!once) await stop.wait();
    await game.close();
    return once && refused ? 1 : 0;
  } finally {
    stop.dispose();
  }
}
