import { UsageError, type CommandIo, type OptionValues } from './cli-args.js';
import type { HostEndpoint } from '../../base/host-locator.js';
import { call, ControlRequestError } from '../../base/control-client.js';

/** One `companion control` action, run against a located host. Resolves to the exit code. */
export type ControlAction = (invocation: ControlInvocation) => Promise<number>;

/** The action's name, arguments and options, and the host it talks to. */
export class ControlInvocation {
  constructor(
    readonly host: HostEndpoint,
    readonly action: string,
    readonly args: readonly string[],
    readonly values: OptionValues,
    readonly io: CommandIo,
  ) {}

  /** The positional arguments, when there are exactly `count`; else a usage error naming `what` the action takes. */
  need(count: number, what: string): readonly string[] {
    if (this.args.length !== count) throw new UsageError(`control ${this.action} takes ${what} (see 'companion control --help')`);
    return this.args;
  }

  /** The API's JSON under `--json`, else `text()`. */
  readonly print = (value: unknown, text: () => string): void => {
    this.io.stdout(this.values.json === true ? `${JSON.stringify(value, null, 2)}\n` : text());
  };

  /** A control API request to the host. */
  readonly call = (method: string, route: string, body?: unknown): Promise<unknown> => call(this.host, method, route, body);

  /** A friend by name or id, for the actions that take USER. */
  async friendId(user: string): Promise<string> {
    if (/^[0-9]{15,20}$/.test(user)) return user;
    const { friends } = (await this.call('GET', '/v1/friends')) as { friends: { user: UserLike }[] };
    const found = friends.find((friend) => friend.user.username.toLowerCase() === user.toLowerCase());
    if (found === undefined) throw new ControlRequestError(404, `no friend named '${user}' (see 'companion control friends')`);
    return found.user.id;
  }
}

export interface UserLike {
  readonly id: string;
  readonly username: string;
}

export interface ActivityLike {
  readonly name?: string;
  readonly state?: string;
  readonly details?: string;
  readonly application_id?: string;
  readonly party?: { readonly id?: string; readonly size?: readonly number[] };
}

export function describeActivity(activity: ActivityLike | null | undefined): string {
  if (activity === null || activity === undefined) return '-';
  const parts = [activity.name, activity.details, activity.state].filter((part): part is string => typeof part === 'string' && part !== '');
  const size = activity.party?.size;
  if (size !== undefined && size.length === 2) parts.push(`party ${size[0]}/${size[1]}`);
  return parts.join(' · ') || '-';
}
