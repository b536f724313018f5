import type { BanView } from '../../../../platform/src/provisional/bans.js';
import type { IdentityView } from '../../../../platform/src/provisional/identity-book.js';
import type { PlatformUser } from '../../../../platform/src/wire/index.js';
import { parseCommandArgs, reportExpected, UsageError, type CommandIo } from './cli-args.js';
import { call, findTarget, PlatformAdminError, type AdminTarget } from './platform.js';

export const ACCOUNTS_HELP = `Usage: companion platform accounts <action> [options]

Provisional accounts (a game's accounts for players without a login of their own),
their links to full accounts, bans, and the test provider's external tokens, for QA.

Actions:
  list (default)             Each external identity: its app, provider type, id, and
                             state (provisional, linked to USER, restricted by a ban)
  bans                       Banned users and the restricted accounts each ban made
  ban USER [--permanent]     Ban a user (name or id): tokens deleted, linked games
                             unlinked, merges refused (530017) until 'unban'
  unban USER                 Lift the ban
  mint-token TYPE EXTERNAL_ID
                             A token of the emulator's test provider, which a game
                             trades at /partner-sdk/token. TYPE: STEAM_SESSION_TICKET,
                             EPIC_ONLINE_SERVICES_ACCESS_TOKEN, EPIC_ONLINE_SERVICES_ID_TOKEN,
                             UNITY_SERVICES_ID_TOKEN, APPLE_ID_TOKEN, PLAYSTATION_NETWORK_ID_TOKEN

Options:
  --app ID          Only this application's identities (list)
  --name NAME       The provider's display name for the player (mint-token)
  --expires-in S    Seconds the token lives (mint-token; 0 or less: already expired)
  --data DIR        Where to read the running emulator's admin token (platform.json)
  --platform URL    The emulator's URL (default: the one in platform.json)
  --json            Print the emulator's JSON
  -h, --help        Show this help
`;

const USAGE: Record<string, string> = {
  list: 'list [--app ID]',
  bans: 'bans',
  ban: 'ban USER [--permanent]',
  unban: 'unban USER',
  'mint-token': 'mint-token TYPE EXTERNAL_ID [--name NAME] [--expires-in S]',
};
const ARITY: Record<string, number> = { list: 0, bans: 0, ban: 1, unban: 1, 'mint-token': 2 };

function identityLine(identity: IdentityView): string {
  const who = identity.user === null ? '(gone)' : `${identity.user.username} (${identity.user.id})`;
  return `app ${identity.application_id}  ${identity.external_auth_type} ${identity.external_id}  ${identity.state}: ${who}\n`;
}

function banLine(ban: BanView): string {
  const made = ban.restricted.map((account) => `${account.user_id} in app ${account.application_id}`).join(', ');
  return `${ban.user_id}  ${ban.permanent ? 'permanent' : 'temporary'} since ${ban.created_at}${made.length > 0 ? `  restricted: ${made}` : ''}\n`;
}

/** A user named by id or username, as the emulator knows them. */
async function userIdOf(target: AdminTarget, nameOrId: string): Promise<string> {
  if (/^\d{5,20}$/.test(nameOrId)) return nameOrId;
  const users = await call<PlatformUser[]>(target, 'GET', '/_emulator/users');
  const user = users.find((candidate) => candidate.username === nameOrId.toLowerCase());
  if (user === undefined) throw new PlatformAdminError(`no user named '${nameOrId}'`);
  return user.id;
}

function expiresIn(raw: unknown): number | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || !/^-?[0-9]+$/.test(raw)) throw new UsageError(`--expires-in must be a whole number of seconds, got '${String(raw)}'`);
  return Number(raw);
}

async function perform(target: AdminTarget, action: string, args: readonly string[], values: Record<string, unknown>, io: CommandIo): Promise<void> {
  const json = values.json === true;
  const print = <T>(result: T, text: (value: T) => string): void => io.stdout(json ? `${JSON.stringify(result)}\n` : text(result));
  switch (action) {
    case 'list': {
      const query = typeof values.app === 'string' ? `?application_id=${encodeURIComponent(values.app)}` : '';
      return print(await call<IdentityView[]>(target, 'GET', `/_emulator/provisional-accounts${query}`), (list) => (list.length === 0 ? 'No provisional accounts.\n' : list.map(identityLine).join('')));
    }
    case 'bans':
      return print(await call<BanView[]>(target, 'GET', '/_emulator/bans'), (list) => (list.length === 0 ? 'No bans.\n' : list.map(banLine).join('')));
    case 'ban': {
      const userId = await userIdOf(target, args[0] as string);
      return print(await call<BanView>(target, 'POST', `/_emulator/users/${userId}/ban`, { permanent: values.permanent === true }), banLine);
    }
    case 'unban': {
      const userId = await userIdOf(target, args[0] as string);
      await call(target, 'DELETE', `/_emulator/users/${userId}/ban`);
      return io.stdout(json ? '{}\n' : `${args[0] as string} is no longer banned\n`);
    }
    default: {
      const seconds = expiresIn(values['expires-in']);
      const body = { type: args[0], external_user_id: args[1], ...(typeof values.name === 'string' ? { display_name: values.name } : {}), ...(seconds !== undefined ? { expires_in: seconds } : {}) };
      // The token itself is what QA asked for: printed alone, so a script can capture it.
      return print(await call<{ token: string }>(target, 'POST', '/_emulator/external-tokens', body), (minted) => `${minted.token}\n`);
    }
  }
}

export async function accountsCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  const options = { data: { type: 'string' }, platform: { type: 'string' }, json: { type: 'boolean' }, app: { type: 'string' }, permanent: { type: 'boolean' }, name: { type: 'string' }, 'expires-in': { type: 'string' } } as const;
  const parsed = parseCommandArgs('platform accounts', argv, options, true);
  if (parsed.help) {
    io.stdout(ACCOUNTS_HELP);
    return 0;
  }
  const [action = 'list', ...args] = parsed.positionals;
  if (!(action in USAGE)) throw new UsageError(`unknown action '${action}' for 'platform accounts' (see 'companion platform accounts --help')`);
  if (args.length !== ARITY[action]) throw new UsageError(`usage: companion platform accounts ${USAGE[action] as string}`);
  expiresIn(parsed.values['expires-in']);
  return (
    (await reportExpected('platform accounts', io, [PlatformAdminError], async () => {
      const target = await findTarget(parsed.values.data as string | undefined, parsed.values.platform as string | undefined, io);
      await perform(target, action, args, parsed.values, io);
      return 0;
    })) ?? 1
  );
}
