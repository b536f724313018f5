import { hostOptions, parseCommandArgs, readSecretFile, reportExpected, UsageError, type CommandIo, type OptionValues } from './cli-args.js';
import { HostNotFoundError, locateHost, type HostEndpoint } from '../../base/host-locator.js';
import { call, ControlRequestError } from '../../base/control-client.js';

export { call, ControlRequestError };
import { PRESENCE_HELP, PRESENCE_OPTIONS, presenceAction } from './control-presence.js';

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
${PRESENCE_HELP}
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

interface UserLike {
  readonly id: string;
  readonly username: string;
}
interface ActivityLike {
  readonly name?: string;
  readonly state?: string;
  readonly details?: string;
  readonly application_id?: string;
  readonly party?: { readonly id?: string; readonly size?: readonly number[] };
}

function describeActivity(activity: ActivityLike | null | undefined): string {
  if (activity === null || activity === undefined) return '-';
  const parts = [activity.name, activity.details, activity.state].filter((part): part is string => typeof part === 'string' && part !== '');
  const size = activity.party?.size;
  if (size !== undefined && size.length === 2) parts.push(`party ${size[0]}/${size[1]}`);
  return parts.join(' · ') || '-';
}

/** A friend by name or id, for the actions that take USER. */
async function resolveUser(host: HostEndpoint, user: string): Promise<string> {
  if (/^[0-9]{15,20}$/.test(user)) return user;
  const { friends } = (await call(host, 'GET', '/v1/friends')) as { friends: { user: UserLike }[] };
  const found = friends.find((friend) => friend.user.username.toLowerCase() === user.toLowerCase());
  if (found === undefined) throw new ControlRequestError(404, `no friend named '${user}' (see 'companion control friends')`);
  return found.user.id;
}

export async function controlCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  const parsed = parseCommandArgs(
    'control',
    argv,
    {
      host: { type: 'string' },
      'runtime-dir': { type: 'string' },
      json: { type: 'boolean' },
      app: { type: 'string' },
      message: { type: 'string' },
      'token-file': { type: 'string' },
      ...PRESENCE_OPTIONS,
    },
    true,
  );
  if (parsed.help) {
    io.stdout(CONTROL_HELP);
    return 0;
  }
  const [action, ...args] = parsed.positionals;
  if (action === undefined) {
    io.stderr(CONTROL_HELP);
    return 2;
  }
  const values = parsed.values;
  const json = values.json === true;
  const need = (count: number, what: string): string[] => {
    if (args.length !== count) throw new UsageError(`control ${action} takes ${what} (see 'companion control --help')`);
    return args;
  };
  const print = (value: unknown, text: () => string): void => io.stdout(json ? `${JSON.stringify(value, null, 2)}\n` : text());

  return withControlHost('control', `control ${action}`, values, io, async (host) => {
    switch (action) {
      case 'status': {
        need(0, 'no arguments');
        const status = (await call(host, 'GET', '/v1/status')) as {
          version: string;
          account: { user: UserLike } | null;
          gateway: { status: string; detail: string | null };
          ipc: { path: string } | null;
          platform: { url: string; embedded: boolean };
        };
        print(status, () =>
          [
            `Companion ${status.version}`,
            `account:  ${status.account === null ? 'not signed in' : status.account.user.username}`,
            `gateway:  ${status.gateway.status}${status.gateway.detail === null ? '' : ` (${status.gateway.detail})`}`,
            `sockets:  ${status.ipc?.path ?? '-'}`,
            `platform: ${status.platform.url}${status.platform.embedded ? ' (embedded emulator)' : ''}`,
            '',
          ].join('\n'),
        );
        return 0;
      }
      case 'games': {
        need(0, 'no arguments');
        const { games } = (await call(host, 'GET', '/v1/games')) as {
          games: { connection_id: string; client_id: string; application_name: string; pid: number | null; activity: ActivityLike | null }[];
        };
        print({ games }, () =>
          games.length === 0
            ? 'No games connected\n'
            : games.map((g) => `${g.connection_id}  ${g.application_name} (${g.client_id}, pid ${g.pid ?? '-'})  ${describeActivity(g.activity)}\n`).join(''),
        );
        return 0;
      }
      case 'friends': {
        need(0, 'no arguments');
        const { friends } = (await call(host, 'GET', '/v1/friends')) as {
          friends: { user: UserLike; presence: { status: string; activities: ActivityLike[] } }[];
        };
        print({ friends }, () =>
          friends
            .map((f) => `${f.user.username.padEnd(16)} ${f.user.id}  ${f.presence.status.padEnd(8)} ${f.presence.activities.map(describeActivity).join('; ') || '-'}\n`)
            .join(''),
        );
        return 0;
      }
      case 'join': {
        const [user] = need(1, 'one USER');
        const userId = await resolveUser(host, user as string);
        const app = values.app as string | undefined;
        const result = (await call(host, 'POST', `/v1/friends/${userId}/join`, app === undefined ? {} : { application_id: app })) as { joined: boolean };
        print(result, () => (result.joined ? 'Joined: the game got ACTIVITY_JOIN\n' : `Asked ${user} to let you join; their game decides\n`));
        return 0;
      }
      case 'invite': {
        const [user] = need(1, 'one USER');
        const userId = await resolveUser(host, user as string);
        const body: Record<string, string> = { user_id: userId };
        if (typeof values.app === 'string') body['application_id'] = values.app;
        if (typeof values.message === 'string') body['content'] = values.message;
        const result = (await call(host, 'POST', '/v1/invites', body)) as { message_id: string };
        print(result, () => `Invited ${user} (message ${result.message_id})\n`);
        return 0;
      }
      case 'requests': {
        need(0, 'no arguments');
        const { join_requests: requests } = (await call(host, 'GET', '/v1/join-requests')) as {
          join_requests: { id: string; user: UserLike; application_id: string }[];
        };
        print({ join_requests: requests }, () =>
          requests.length === 0 ? 'No join requests\n' : requests.map((r) => `${r.id}  from ${r.user.username} for ${r.application_id}\n`).join(''),
        );
        return 0;
      }
      case 'accept-request':
      case 'decline-request': {
        const [id] = need(1, 'one request ID');
        const verb = action === 'accept-request' ? 'accept' : 'decline';
        const result = await call(host, 'POST', `/v1/join-requests/${encodeURIComponent(id as string)}/${verb}`, {});
        print(result, () => (verb === 'accept' ? 'Accepted: an invite went back to the player\n' : 'Declined\n'));
        return 0;
      }
      case 'invites': {
        need(0, 'no arguments');
        const { invites } = (await call(host, 'GET', '/v1/invites')) as {
          invites: { id: string; user: UserLike; application_id: string; activity: ActivityLike | null; valid: boolean }[];
        };
        print({ invites }, () =>
          invites.length === 0
            ? 'No invites\n'
            : invites.map((i) => `${i.id}  from ${i.user.username}: ${describeActivity(i.activity)}${i.valid ? '' : ' (no longer valid)'}\n`).join(''),
        );
        return 0;
      }
      case 'accept-invite': {
        const [id] = need(1, 'one invite ID');
        const result = (await call(host, 'POST', `/v1/invites/${encodeURIComponent(id as string)}/accept`, {})) as { secret_delivered: boolean };
        print(result, () => (result.secret_delivered ? 'Accepted: the game got ACTIVITY_JOIN\n' : 'Accepted: the game is being launched and gets ACTIVITY_JOIN when it connects\n'));
        return 0;
      }
      case 'decline-invite': {
        const [id] = need(1, 'one invite ID');
        const result = await call(host, 'POST', `/v1/invites/${encodeURIComponent(id as string)}/decline`, {});
        print(result, () => 'Declined: the invite is gone\n');
        return 0;
      }
      case 'login': {
        const tokenFile = values['token-file'] as string | undefined;
        let body: { username: string } | { token: string };
        if (tokenFile !== undefined) {
          need(0, 'either NAME or --token-file FILE');
          body = { token: await readSecretFile('--token-file', tokenFile) };
        } else {
          const [name] = need(1, 'NAME (or --token-file FILE)');
          body = { username: name as string };
        }
        const result = (await call(host, 'POST', '/v1/account/login', body)) as { account: { user: UserLike } | null };
        print(result, () => `Signed in as ${result.account?.user.username ?? '?'}\n`);
        return 0;
      }
      case 'logout': {
        need(0, 'no arguments');
        const result = await call(host, 'POST', '/v1/account/logout', {});
        print(result, () => 'Signed out\n');
        return 0;
      }
      case 'presence':
        return await presenceAction((method, route, body) => call(host, method, route, body), args, values, print);
      case 'events':
        need(0, 'no arguments');
        return await streamEvents(host, io);
      default:
        throw new UsageError(`unknown control action '${action}' (see 'companion control --help')`);
    }
  });
}

/** Prints each Server-Sent Event as one line `type data` until the stream ends or a signal. */
async function streamEvents(host: HostEndpoint, io: CommandIo): Promise<number> {
  const aborter = new AbortController();
  const stop = (): void => aborter.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    const response = await fetch(`${host.url}/v1/events`, { headers: { Authorization: `Bearer ${host.token}` }, signal: aborter.signal });
    if (!response.ok || response.body === null) throw new ControlRequestError(response.status, `HTTP ${response.status}`);
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of response.body) {
      buffer += decoder.decode(chunk as Uint8Array, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (data !== undefined) io.stdout(`${event ?? 'message'} ${data}\n`);
      }
    }
    return 0;
  } catch (error) {
    if (aborter.signal.aborted) return 0;
    if (error instanceof ControlRequestError) throw error;
    throw new ControlRequestError(0, `the event stream from ${host.url} ended: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}
