import { RPC_COMMANDS, RPC_EVENTS } from '../../../../rpc/src/index.js';
import type { SeededRandom } from './seeded-random.js';

/** What the fuzz has learnt about the host it drives: ids and a token to build valid frames with. */
export interface FuzzTargets {
  /** The application every fuzz connection handshakes as. */
  readonly clientId: string;
  /** Other application ids a HANDSHAKE variant may name (a small pool: each one is registered once). */
  readonly otherClientIds: readonly string[];
  /** The signed-in user (READY). */
  readonly selfUserId: string | null;
  readonly guildIds: readonly string[];
  readonly channelIds: readonly string[];
  /** An access token of `clientId` for the signed-in user: AUTHENTICATE, and commands that need it. */
  readonly accessToken: string | null;
}

/** A command as a well-behaved client sends it, before any mutation. */
export interface ValidCommand {
  readonly cmd: string;
  readonly args?: Record<string, unknown>;
  readonly evt?: string;
  /** Sent on an authenticated connection (the command or event needs AUTHENTICATE). */
  readonly authenticated: boolean;
}

/** Timestamps around a fixed moment, so that a seed and an index always give the same bytes. */
const EPOCH_MS = 1_764_000_000_000;

const WORDS = ['Ranked match', 'In the lobby', 'Exploring', 'Level 3-2', 'Boss fight', 'Menu', 'ÉTÉ', '😀 party'];

function snowflake(rng: SeededRandom): string {
  return rng.digits(rng.int(17, 19));
}

function idFrom(rng: SeededRandom, known: readonly (string | null)[]): string {
  const ids = known.filter((id): id is string => id !== null);
  return ids.length > 0 && rng.chance(0.7) ? rng.pick(ids) : snowflake(rng);
}

function activity(rng: SeededRandom): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (rng.chance(0.8)) out['state'] = rng.pick(WORDS);
  if (rng.chance(0.7)) out['details'] = rng.pick(WORDS);
  if (rng.chance(0.3)) out['type'] = rng.pick([0, 2, 3, 5]);
  if (rng.chance(0.5)) out['timestamps'] = { start: EPOCH_MS - rng.int(0, 3_600_000), ...(rng.chance(0.3) ? { end: EPOCH_MS + 60_000 } : {}) };
  if (rng.chance(0.5)) out['assets'] = { large_image: 'logo', large_text: rng.pick(WORDS), ...(rng.chance(0.5) ? { small_image: 'badge', small_text: 'Rank 7' } : {}) };
  const joinable = rng.chance(0.4);
  if (joinable || rng.chance(0.3)) out['party'] = { id: `party-${rng.int(1, 99)}`, size: [1, rng.int(2, 8)] };
  if (joinable) out['secrets'] = { join: `join-${rng.int(1, 1e6)}`, ...(rng.chance(0.3) ? { match: `match-${rng.int(1, 1e6)}` } : {}) };
  else if (rng.chance(0.3)) out['buttons'] = [{ label: 'Website', url: 'https://example.com/game' }];
  if (rng.chance(0.2)) out['instance'] = rng.chance(0.5);
  return out;
}

function setActivity(rng: SeededRandom): Record<string, unknown> {
  return { pid: rng.int(1, 4_000_000), activity: rng.chance(0.1) ? null : activity(rng) };
}

function subscribe(rng: SeededRandom, t: FuzzTargets, cmd: 'SUBSCRIBE' | 'UNSUBSCRIBE'): ValidCommand {
  const evt = rng.pick(Object.keys(RPC_EVENTS));
  const spec = RPC_EVENTS[evt];
  const args: Record<string, unknown> = {};
  if (spec?.arg === 'guild_id') args['guild_id'] = idFrom(rng, t.guildIds);
  if (spec?.arg === 'channel_id') args['channel_id'] = idFrom(rng, t.channelIds);
  return { cmd, evt, args, authenticated: spec?.local !== true };
}

function authorize(rng: SeededRandom, t: FuzzTargets): Record<string, unknown> {
  const scopes = rng.pick([['identify'], ['identify', 'rpc'], ['rpc', 'guilds'], ['identify', 'rpc', 'guilds', 'rpc.voice.read']]);
  return {
    client_id: t.clientId,
    scopes: rng.chance(0.2) ? scopes.join(' ') : scopes,
    ...(rng.chance(0.3) ? { prompt: rng.pick(['consent', 'none']) } : {}),
    ...(rng.chance(0.2) ? { state: `s${rng.int(0, 1e6)}` } : {}),
    ...(rng.chance(0.2) ? { code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256' } : {}),
  };
}

function certifiedDevices(rng: SeededRandom): Record<string, unknown> {
  const device = (): Record<string, unknown> => ({
    type: rng.pick(['audioinput', 'audiooutput', 'videoinput']),
    id: `dev-${rng.int(1, 99)}`,
    vendor: { name: 'Vendor', url: 'https://vendor.example' },
    model: { name: 'Model', url: 'https://vendor.example/model' },
    related: [],
    echo_cancellation: rng.chance(0.5),
    noise_suppression: rng.chance(0.5),
    automatic_gain_control: rng.chance(0.5),
    hardware_mute: rng.chance(0.5),
  });
  return { devices: Array.from({ length: rng.int(0, 3) }, device) };
}

type Builder = (rng: SeededRandom, t: FuzzTargets) => Omit<ValidCommand, 'cmd' | 'authenticated'> & { authenticated?: boolean };

const BUILDERS: Readonly<Record<string, Builder>> = {
  SET_ACTIVITY: (rng) => ({ args: setActivity(rng) }),
  AUTHORIZE: (rng, t) => ({ args: authorize(rng, t) }),
  AUTHENTICATE: (rng, t) => ({ args: { access_token: t.accessToken !== null && rng.chance(0.6) ? t.accessToken : `tok-${rng.int(0, 1e9)}` } }),
  GET_GUILDS: () => ({ args: {} }),
  GET_GUILD: (rng, t) => ({ args: { guild_id: idFrom(rng, t.guildIds), ...(rng.chance(0.4) ? { timeout: rng.int(0, 10) } : {}) } }),
  GET_CHANNELS: (rng, t) => ({ args: { guild_id: idFrom(rng, t.guildIds) } }),
  GET_CHANNEL: (rng, t) => ({ args: { channel_id: idFrom(rng, t.channelIds) } }),
  SEND_ACTIVITY_JOIN_INVITE: (rng, t) => ({ args: { user_id: idFrom(rng, [t.selfUserId]), pid: rng.int(1, 1e6) } }),
  CLOSE_ACTIVITY_REQUEST: (rng, t) => ({ args: { user_id: idFrom(rng, [t.selfUserId]) } }),
  CLOSE_ACTIVITY_JOIN_REQUEST: (rng, t) => ({ args: { user_id: idFrom(rng, [t.selfUserId]) } }),
  SET_CERTIFIED_DEVICES: (rng) => ({ args: certifiedDevices(rng) }),
  ACTIVITY_INVITE_USER: (rng, t) => ({ args: { user_id: idFrom(rng, [t.selfUserId]), type: 1, ...(rng.chance(0.5) ? { content: rng.pick(WORDS) } : {}) } }),
  ACCEPT_ACTIVITY_INVITE: (rng, t) => ({ args: { message_id: snowflake(rng), ...(rng.chance(0.5) ? { channel_id: idFrom(rng, t.channelIds) } : {}) } }),
};

/** Every command of the protocol; the ones the host implements come up far more often. */
const WEIGHTED: readonly (readonly [string, number])[] = [
  ...Object.keys(BUILDERS).map((cmd) => [cmd, cmd === 'SET_ACTIVITY' ? 12 : 4] as const),
  ['SUBSCRIBE', 8],
  ['UNSUBSCRIBE', 4],
  ...Object.keys(RPC_COMMANDS)
    .filter((cmd) => BUILDERS[cmd] === undefined && cmd !== 'SUBSCRIBE' && cmd !== 'UNSUBSCRIBE')
    .map((cmd) => [cmd, 0.25] as const),
  ['NOT_A_COMMAND', 0.5],
];

/** A valid frame's command for `cmd`, or for a command chosen by weight. */
export function validCommand(rng: SeededRandom, t: FuzzTargets, cmd: string = rng.weighted(WEIGHTED)): ValidCommand {
  if (cmd === 'SUBSCRIBE' || cmd === 'UNSUBSCRIBE') return subscribe(rng, t, cmd);
  const build = BUILDERS[cmd];
  const needsAuth = RPC_COMMANDS[cmd]?.local === false;
  if (build === undefined) return { cmd, args: {}, authenticated: needsAuth };
  const built = build(rng, t);
  return { cmd, ...built, authenticated: built.authenticated ?? needsAuth };
}

/** The commands the generator knows a valid shape of (the rest are sent with empty args). */
export const BUILT_COMMANDS: readonly string[] = [...Object.keys(BUILDERS), 'SUBSCRIBE', 'UNSUBSCRIBE'];
