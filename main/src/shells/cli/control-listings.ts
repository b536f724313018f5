import { describeActivity, type ActivityLike, type ControlAction, type UserLike } from './control-action.js';

interface StatusLike {
  readonly version: string;
  readonly account: { readonly user: UserLike } | null;
  readonly gateway: { readonly status: string; readonly detail: string | null };
  readonly ipc: { readonly path: string } | null;
  readonly platform: { readonly url: string; readonly embedded: boolean };
}

interface GameLike {
  readonly connection_id: string;
  readonly client_id: string;
  readonly application_name: string;
  readonly pid: number | null;
  readonly activity: ActivityLike | null;
}

/** A game found running by game detection (no RPC connection). */
interface DetectedLike {
  readonly detected: true;
  readonly application_id: string;
  readonly application_name: string;
  readonly path: string;
  readonly pid: number;
  readonly showing: string;
}

const SHOWING_WORDS: Readonly<Record<string, string>> = {
  shown: 'friends see "Playing"',
  excluded: 'not shown (switched off)',
  rpc: 'its RPC activity is shown instead',
  off: 'not shown (detection off)',
};

function describeGame(game: GameLike | DetectedLike): string {
  if ('detected' in game) return `detected  ${game.application_name} (${game.application_id}, pid ${game.pid})  ${game.path}  ${SHOWING_WORDS[game.showing] ?? game.showing}\n`;
  return `${game.connection_id}  ${game.application_name} (${game.client_id}, pid ${game.pid ?? '-'})  ${describeActivity(game.activity)}\n`;
}

interface FriendLike {
  readonly user: UserLike;
  readonly presence: { readonly status: string; readonly activities: readonly ActivityLike[] };
}

/** A friend request either way, or a block (hosts before them list none). */
interface RelationshipLike {
  readonly user: UserLike;
  readonly type: 'incoming' | 'outgoing' | 'blocked';
}

const RELATIONSHIP_WORDS: Readonly<Record<RelationshipLike['type'], string>> = {
  incoming: 'friend request from them',
  outgoing: 'friend request sent',
  blocked: 'blocked',
};

interface JoinRequestLike {
  readonly id: string;
  readonly user: UserLike;
  readonly application_id: string;
}

interface InviteLike {
  readonly id: string;
  readonly user: UserLike;
  readonly application_id: string;
  readonly activity: ActivityLike | null;
  readonly valid: boolean;
}

function describeStatus(status: StatusLike): string {
  return [
    `Companion ${status.version}`,
    `account:  ${status.account === null ? 'not signed in' : status.account.user.username}`,
    `gateway:  ${status.gateway.status}${status.gateway.detail === null ? '' : ` (${status.gateway.detail})`}`,
    `sockets:  ${status.ipc?.path ?? '-'}`,
    `platform: ${status.platform.url}${status.platform.embedded ? ' (embedded emulator)' : ''}`,
    '',
  ].join('\n');
}

const status: ControlAction = async (control) => {
  control.need(0, 'no arguments');
  const found = (await control.call('GET', '/v1/status')) as StatusLike;
  control.print(found, () => describeStatus(found));
  return 0;
};

const games: ControlAction = async (control) => {
  control.need(0, 'no arguments');
  const { games: list } = (await control.call('GET', '/v1/games')) as { games: (GameLike | DetectedLike)[] };
  control.print({ games: list }, () => (list.length === 0 ? 'No games connected or detected\n' : list.map(describeGame).join('')));
  return 0;
};

const friends: ControlAction = async (control) => {
  control.need(0, 'no arguments');
  const found = (await control.call('GET', '/v1/friends')) as { friends: FriendLike[]; relationships?: RelationshipLike[] };
  const relationships = found.relationships ?? [];
  control.print({ friends: found.friends, relationships }, () =>
    [
      ...found.friends.map((f) => `${f.user.username.padEnd(16)} ${f.user.id}  ${f.presence.status.padEnd(8)} ${f.presence.activities.map(describeActivity).join('; ') || '-'}\n`),
      ...relationships.map((r) => `${r.user.username.padEnd(16)} ${r.user.id}  ${RELATIONSHIP_WORDS[r.type]}\n`),
    ].join(''),
  );
  return 0;
};

const requests: ControlAction = async (control) => {
  control.need(0, 'no arguments');
  const { join_requests: list } = (await control.call('GET', '/v1/join-requests')) as { join_requests: JoinRequestLike[] };
  control.print({ join_requests: list }, () =>
    list.length === 0 ? 'No join requests\n' : list.map((r) => `${r.id}  from ${r.user.username} for ${r.application_id}\n`).join(''),
  );
  return 0;
};

const invites: ControlAction = async (control) => {
  control.need(0, 'no arguments');
  const { invites: list } = (await control.call('GET', '/v1/invites')) as { invites: InviteLike[] };
  control.print({ invites: list }, () =>
    list.length === 0
      ? 'No invites\n'
      : list.map((i) => `${i.id}  from ${i.user.username}: ${describeActivity(i.activity)}${i.valid ? '' : ' (no longer valid)'}\n`).join(''),
  );
  return 0;
};

/** The actions that list what the host knows: they take no arguments. */
export const LISTING_ACTIONS: Readonly<Record<string, ControlAction>> = { status, games, friends, requests, invites };
