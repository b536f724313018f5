/**
 * The Social SDK's UserHandle: a user the SDK knows (the player, the player's relationships),
 * with their account fields and what their presence says. A handle is live, as the Social
 * SDK's are: it reads the SDK's cache each time, so a later USER_UPDATE, RELATIONSHIP_ADD or
 * PRESENCE_UPDATE shows through a handle taken before; a user the cache has dropped keeps the
 * last values seen.
 */

/** discordpp::StatusType. */
export const StatusType = { Online: 0, Offline: 1, Blocked: 2, Idle: 3, Dnd: 4, Invisible: 5, Streaming: 6, Unknown: 7 } as const;
export type StatusType = (typeof StatusType)[keyof typeof StatusType];

/** A user object as the platform sends it (the fields a handle reads). */
export interface WireUser {
  readonly id: string;
  readonly username: string;
  readonly global_name?: string | null;
  readonly avatar?: string | null;
  /** Present (true) only on provisional accounts. */
  readonly provisional?: boolean;
}

/** An activity of a user's presence, in the wire's snake_case names (secrets are never sent). */
export type GameActivity = Readonly<Record<string, unknown>> & {
  readonly name?: string;
  readonly type?: number;
  readonly application_id?: string;
  readonly state?: string;
  readonly details?: string;
};

/** Where a handle reads from each time: the SDK's user cache. */
export interface UserSource {
  user(id: string): WireUser | undefined;
  status(id: string): StatusType;
  /** The user's activity for this game, if their presence has one. */
  gameActivity(id: string): GameActivity | undefined;
  /** `https://cdn.discordapp.com`, or the CDN READY named. */
  cdnBase(): string;
}

const DEFAULT_AVATARS = 6n;

/**
 * The avatar's CDN URL (`.gif` for an animated `a_` hash, else `.png`), or the default avatar's
 * when the user has none (index `(id >> 22) % 6`, as for accounts without a discriminator).
 */
export function avatarUrlOf(cdnBase: string, user: WireUser): string {
  const avatar = user.avatar ?? null;
  if (avatar !== null && avatar !== '') return `${cdnBase}/avatars/${user.id}/${avatar}.${avatar.startsWith('a_') ? 'gif' : 'png'}`;
  let index = 0n;
  try {
    index = (BigInt(user.id) >> 22n) % DEFAULT_AVATARS;
  } catch {
    // not a snowflake: the first default avatar
  }
  return `${cdnBase}/embed/avatars/${index}.png`;
}

export class UserHandle {
  constructor(
    readonly id: string,
    private readonly source: UserSource,
    private last: WireUser,
  ) {}

  private get data(): WireUser {
    const now = this.source.user(this.id);
    if (now !== undefined) this.last = now;
    return this.last;
  }

  /** UserHandle::Username: the unique username (generated for provisional accounts). */
  get username(): string {
    return this.data.username;
  }

  /** UserHandle::GlobalName: the preferred name, null when none is set. */
  get globalName(): string | null {
    return this.data.global_name ?? null;
  }

  /** UserHandle::DisplayName: the global name when set, else the username. */
  get displayName(): string {
    const data = this.data;
    return data.global_name !== undefined && data.global_name !== null && data.global_name !== '' ? data.global_name : data.username;
  }

  /** UserHandle::Avatar: the avatar's hash, null when none is set. */
  get avatar(): string | null {
    return this.data.avatar ?? null;
  }

  /** UserHandle::AvatarUrl: the avatar's CDN URL, or the default avatar's (never empty). */
  get avatarUrl(): string {
    return avatarUrlOf(this.source.cdnBase(), this.data);
  }

  /** UserHandle::IsProvisional. */
  get isProvisional(): boolean {
    return this.data.provisional === true;
  }

  /** UserHandle::Status: online, idle, dnd, offline (also when no presence was seen), blocked (a user the player blocked). */
  status(): StatusType {
    return this.source.status(this.id);
  }

  /** UserHandle::GameActivity: the user's activity for this game, undefined when they have none (or no presence was seen). */
  gameActivity(): GameActivity | undefined {
    return this.source.gameActivity(this.id);
  }

  /** The handle's values now, as a plain object (for logs and tests). */
  toJSON(): { id: string; username: string; globalName: string | null; displayName: string; avatarUrl: string; isProvisional: boolean; status: StatusType } {
    return { id: this.id, username: this.username, globalName: this.globalName, displayName: this.displayName, avatarUrl: this.avatarUrl, isProvisional: this.isProvisional, status: this.status() };
  }
}
