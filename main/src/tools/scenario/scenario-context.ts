import type { UserLike } from '../inject/event-templates.js';
import { FriendObserver } from './friend-observer.js';
import type { GameEntry } from './game-entry.js';
import type { ReplyResult } from './reply-check.js';
import { StepFailure } from './reply-check.js';
import type { ScenarioHost } from './scenario-host.js';
import type { SdkEntry } from './sdk-entry.js';

/** A control API answer: the status and the parsed body (never thrown for 4xx/5xx). */
export interface ControlAnswer {
  readonly status: number;
  readonly body: unknown;
}

export interface GameRow {
  readonly connection_id: string;
  readonly client_id: string;
  readonly application_name: string;
}

export interface FriendRow {
  readonly user: UserLike;
  readonly presence: { readonly status: string; readonly activities: readonly Record<string, unknown>[] };
}

const PLACEHOLDER = /\{\{\s*([^}]*?)\s*\}\}/g;
const WHOLE_PLACEHOLDER = /^\{\{\s*([^}]*?)\s*\}\}$/;

/**
 * What the steps of one scenario share: the host, the games by name, replies still coming
 * (async commands), saved values, the friends watching, and the secrets seen so far (scrubbed
 * from every message).
 */
export class ScenarioContext {
  readonly games = new Map<string, GameEntry>();
  /** Social SDK games (their own platform sessions), by name. */
  readonly sdks = new Map<string, SdkEntry>();
  readonly replies = new Map<string, Promise<ReplyResult>>();
  readonly saved = new Map<string, unknown>();
  readonly observers = new Map<string, Promise<FriendObserver>>();
  readonly secrets = new Set<string>();
  private me: UserLike | undefined;
  /** Set by closeAll(): a step still running after an interruption must not open anything more. */
  closed = false;

  constructor(
    readonly host: ScenarioHost,
    /** The scenario's default wait for steps that wait (ms). */
    readonly timeoutMs: number,
    /** Aborted when the run is interrupted: waits end early. */
    readonly signal?: AbortSignal,
    /** The scenario file's folder: files a step names are relative to it. */
    readonly dir: string = process.cwd(),
  ) {}

  game(name: string): GameEntry {
    const entry = this.games.get(name);
    if (entry === undefined) throw new StepFailure(`no game named ${name} is connected`);
    return entry;
  }

  sdk(name: string): SdkEntry {
    const entry = this.sdks.get(name);
    if (entry === undefined) throw new StepFailure(`no SDK game named ${name} is open`);
    return entry;
  }

  /** Calls the host's control API; a host that does not answer is a StepFailure. */
  async control(method: string, route: string, body?: unknown): Promise<ControlAnswer> {
    let response: Response;
    try {
      response = await fetch(`${this.host.control.url}${route}`, {
        method,
        headers: { Authorization: `Bearer ${this.host.control.token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(10_000),
      });
    } catch {
      throw new StepFailure(`${this.host.label} does not answer on its control API`);
    }
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text === '' ? null : JSON.parse(text);
    } catch {
      // kept as text
    }
    return { status: response.status, body: parsed };
  }

  /** A control call that must succeed; its body. */
  async controlOk(method: string, route: string, body?: unknown): Promise<unknown> {
    const answer = await this.control(method, route, body);
    if (answer.status >= 400) {
      const message = (answer.body as { message?: unknown } | null)?.message;
      throw new StepFailure(`${method} ${route} answered ${answer.status}${typeof message === 'string' ? `: ${message}` : ''}`);
    }
    return answer.body;
  }

  /** The host's signed-in user. */
  async currentUser(): Promise<UserLike> {
    if (this.me !== undefined) return this.me;
    const status = (await this.controlOk('GET', '/v1/status')) as { account: { user: UserLike } | null };
    if (status.account === null) throw new StepFailure(`${this.host.label} is not signed in`);
    this.me = status.account.user;
    return this.me;
  }

  /** A friend of the host's user by name or id, with what the host sees of their presence. */
  async friend(user: string): Promise<FriendRow | undefined> {
    const { friends } = (await this.controlOk('GET', '/v1/friends')) as { friends: FriendRow[] };
    return friends.find((row) => row.user.id === user || row.user.username.toLowerCase() === user.toLowerCase());
  }

  /** A user's id by name: a friend of the host's user, the user itself, or any emulator user. */
  async userId(name: string): Promise<string> {
    if (/^[0-9]{15,20}$/.test(name)) return name;
    const me = await this.currentUser();
    if (me.username.toLowerCase() === name.toLowerCase()) return me.id;
    const friend = await this.friend(name);
    if (friend !== undefined) return friend.user.id;
    const admin = this.host.platformAdmin;
    if (admin !== null) {
      const response = await fetch(`${admin.url}/_emulator/users`, { headers: { Authorization: `Admin ${admin.adminToken}` }, signal: AbortSignal.timeout(5000) }).catch(() => undefined);
      if (response?.ok === true) {
        const users = (await response.json()) as UserLike[];
        const found = users.find((user) => user.username.toLowerCase() === name.toLowerCase());
        if (found !== undefined) return found.id;
      }
    }
    throw new StepFailure(`no user named '${name}' (neither the host's user nor one of its friends)`);
  }

  /** The connection id of a game now: the one it had, else the only new connection of its app. */
  async connectionOf(entry: GameEntry): Promise<GameRow> {
    const { games } = (await this.controlOk('GET', '/v1/games')) as { games: GameRow[] };
    const known = games.find((row) => row.connection_id === entry.connectionId);
    if (known !== undefined) return known;
    const claimed = new Set([...this.games.values()].map((game) => game.connectionId));
    const candidates = games.filter((row) => row.client_id === entry.clientId && !claimed.has(row.connection_id));
    if (candidates.length === 1) {
      const row = candidates[0] as GameRow;
      entry.connectionId = row.connection_id;
      return row;
    }
    throw new StepFailure(`cannot tell which connection of ${this.host.label} is game ${entry.name} (${candidates.length} candidates of application ${entry.clientId})`);
  }

  /** The friend `name` watching through their own gateway session (started once per scenario). */
  observer(name: string): Promise<FriendObserver> {
    const key = name.toLowerCase();
    let observer = this.observers.get(key);
    if (this.closed) return Promise.reject(new StepFailure('the scenario has ended'));
    if (observer === undefined) {
      if (this.host.platformAdmin === null) {
        return Promise.reject(new StepFailure(`seen_by needs the platform emulator (its dev login): ${this.host.label} uses another platform`));
      }
      observer = FriendObserver.start(this.host.platformUrl, name).catch((error: unknown) => {
        this.observers.delete(key);
        throw new StepFailure(error instanceof Error ? error.message : String(error));
      });
      this.observers.set(key, observer);
    }
    return observer;
  }

  /** Replaces placeholders in every string: `{{me}}`, `{{user:NAME}}`, `{{NAME}}` (saved). */
  async resolve<T>(value: T): Promise<T> {
    if (typeof value === 'string') {
      const whole = WHOLE_PLACEHOLDER.exec(value);
      if (whole !== null) return (await this.placeholder(whole[1] as string)) as T;
      if (!value.includes('{{')) return value;
      let result = '';
      let last = 0;
      for (const match of value.matchAll(PLACEHOLDER)) {
        result += value.slice(last, match.index) + String(await this.placeholder(match[1] as string));
        last = (match.index ?? 0) + match[0].length;
      }
      return (result + value.slice(last)) as T;
    }
    if (Array.isArray(value)) return (await Promise.all(value.map((item) => this.resolve(item)))) as T;
    if (typeof value === 'object' && value !== null) {
      const entries = await Promise.all(Object.entries(value).map(async ([key, item]) => [key, await this.resolve(item)] as const));
      return Object.fromEntries(entries) as T;
    }
    return value;
  }

  private async placeholder(name: string): Promise<unknown> {
    if (name === 'me') return (await this.currentUser()).id;
    if (name.startsWith('user:')) return this.userId(name.slice('user:'.length).trim());
    if (!this.saved.has(name)) throw new StepFailure(`{{${name}}} was not saved (the step that saves it did not find it)`);
    return this.saved.get(name);
  }

  /** Remembers values under names for later `{{NAME}}`; a path with nothing there fails. */
  save(save: Readonly<Record<string, string>> | undefined, value: unknown, root: string, read: (value: unknown, path: string) => unknown): void {
    if (save === undefined) return;
    for (const [name, path] of Object.entries(save)) {
      const found = read(value, path);
      if (found === undefined) throw new StepFailure(`cannot save ${name}: ${root} has nothing at ${path}`);
      this.saved.set(name, found);
    }
  }

  /** Closes everything the scenario opened (games, friends' sessions); never throws. */
  async closeAll(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.games.values()].map((entry) => entry.close().catch(() => undefined)));
    this.games.clear();
    await Promise.all([...this.sdks.values()].map((entry) => entry.close().catch(() => undefined)));
    this.sdks.clear();
    const observers = await Promise.all([...this.observers.values()].map((observer) => observer.catch(() => undefined)));
    await Promise.all(observers.map((observer) => observer?.stop().catch(() => undefined)));
    this.observers.clear();
  }
}
