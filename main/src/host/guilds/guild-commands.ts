import {
  parseGetChannelArgs,
  parseGetChannelsArgs,
  parseGetGuildArgs,
  parseGetGuildsArgs,
  RpcError,
  RpcErrorCode,
  type CommandHandler,
  type RpcConnection,
  type RpcLogger,
  type RpcServer,
  type Subscription,
} from '../../../../rpc/src/index.js';
import type { SourceGuild, GuildSource } from './guild-source.js';
import { channelSummary, DEFAULT_CDN_HOST, guildStatus, guildSummary, rpcChannel, rpcGuild } from './guild-shapes.js';

export const GUILD_STATUS = 'GUILD_STATUS';

/** ERROR texts of the guild commands (codes 4003 and 4005 are the real client's). */
export const INVALID_GUILD_MESSAGE = 'Invalid guild';
export const INVALID_CHANNEL_MESSAGE = 'Invalid channel';
export const GET_GUILD_TIMED_OUT_MESSAGE = 'Request to get the guild timed out';

export interface GuildCommandsOptions {
  /** The host of icon URLs: READY's `cdn_host` (default cdn.discordapp.com). */
  readonly cdnHost?: string;
  readonly logger?: RpcLogger;
}

export interface GuildCommands {
  /** Sends GUILD_STATUS to the games subscribed to this guild; returns how many got it. */
  guildChanged(guild: SourceGuild): number;
  /** Stops sending GUILD_STATUS on SUBSCRIBE (the command handlers stay installed). */
  dispose(): void;
}

const NOOP_LOGGER: RpcLogger = { debug() {}, info() {}, warn() {}, error() {} };

/** The CDN host each server's guild commands were installed with, for guildChanged(). */
const cdnHosts = new WeakMap<RpcServer, string>();

type Lookup = 'guilds' | 'guild' | 'channels' | 'channel';

const FAILURE_MESSAGES: Readonly<Record<Lookup, string>> = {
  guilds: 'Could not load your guilds: the platform did not answer',
  guild: 'Could not load the guild: the platform did not answer',
  channels: "Could not load the guild's channels: the platform did not answer",
  channel: 'Could not load the channel: the platform did not answer',
};

/**
 * Installs GET_GUILDS, GET_GUILD, GET_CHANNELS and GET_CHANNEL over `source`, and sends
 * GUILD_STATUS to a game right after it subscribes to a guild. The RPC core has already
 * checked authentication and scopes (the command and event specs) before these run.
 */
export function installGuildCommands(server: RpcServer, source: GuildSource, options: GuildCommandsOptions = {}): GuildCommands {
  const cdnHost = options.cdnHost ?? DEFAULT_CDN_HOST;
  const logger = options.logger ?? NOOP_LOGGER;
  cdnHosts.set(server, cdnHost);

  /** Runs one source call: an RpcError passes through, anything else is a 1000 with a clear text. */
  async function ask<T>(what: Lookup, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (error instanceof RpcError) throw error;
      logger.warn({ lookup: what, error: error instanceof Error ? error.name : typeof error }, 'guild source failed');
      throw new RpcError(RpcErrorCode.UnknownError, FAILURE_MESSAGES[what]);
    }
  }

  const getGuilds: CommandHandler = async ({ request }) => {
    parseGetGuildsArgs(request.args);
    const guilds = await ask('guilds', () => source.guilds());
    return { guilds: guilds.map((guild) => guildSummary(cdnHost, guild)) };
  };

  const getGuild: CommandHandler = async ({ request, signal }) => {
    const args = parseGetGuildArgs(request.args);
    const lookup = ask('guild', () => source.guild(args.guild_id));
    const guild = await withTimeout(lookup, args.timeout, signal);
    if (guild === null) throw new RpcError(RpcErrorCode.InvalidGuild, INVALID_GUILD_MESSAGE);
    return rpcGuild(cdnHost, guild);
  };

  const getChannels: CommandHandler = async ({ request }) => {
    const args = parseGetChannelsArgs(request.args);
    const channels = await ask('channels', () => source.channels(args.guild_id));
    if (channels === null) throw new RpcError(RpcErrorCode.InvalidGuild, INVALID_GUILD_MESSAGE);
    return { channels: channels.map(channelSummary) };
  };

  const getChannel: CommandHandler = async ({ request }) => {
    const args = parseGetChannelArgs(request.args);
    const channel = await ask('channel', () => source.channel(args.channel_id));
    if (channel === null) throw new RpcError(RpcErrorCode.InvalidChannel, INVALID_CHANNEL_MESSAGE);
    return rpcChannel(channel);
  };

  server.setCommandHandler('GET_GUILDS', getGuilds);
  server.setCommandHandler('GET_GUILD', getGuild);
  server.setCommandHandler('GET_CHANNELS', getChannels);
  server.setCommandHandler('GET_CHANNEL', getChannel);

  /** The status at once to the game that subscribed, after its SUBSCRIBE reply. */
  async function sendInitialStatus(connection: RpcConnection, guildId: string): Promise<void> {
    let guild: SourceGuild | null;
    try {
      guild = await source.guild(guildId);
    } catch (error) {
      logger.warn({ connection: connection.id, error: error instanceof Error ? error.name : typeof error }, 'GUILD_STATUS: guild source failed');
      return;
    }
    if (guild === null) {
      logger.debug({ connection: connection.id }, 'GUILD_STATUS: subscribed to an unknown guild; no status sent');
      return;
    }
    // dispatch() sends only while the connection is still subscribed with this guild id.
    server.dispatch(GUILD_STATUS, guildStatus(cdnHost, guild), { args: { guild_id: guildId }, to: (c) => c === connection });
  }

  const onSubscribe = (connection: RpcConnection, subscription: Subscription): void => {
    if (subscription.evt !== GUILD_STATUS) return;
    const guildId = subscription.args['guild_id'];
    if (typeof guildId !== 'string') return;
    // The event is emitted before the SUBSCRIBE reply is queued: wait for it.
    setImmediate(() => void sendInitialStatus(connection, guildId));
  };
  server.on('subscribe', onSubscribe);

  return {
    guildChanged: (guild) => guildChanged(server, guild),
    dispose: () => {
      server.off('subscribe', onSubscribe);
    },
  };
}

/**
 * Sends GUILD_STATUS `{guild, online: 0}` to every game subscribed with this guild's id (call
 * it on the gateway's GUILD_UPDATE); returns how many got it. Icon URLs use the CDN host the
 * server's guild commands were installed with.
 */
export function guildChanged(server: RpcServer, guild: SourceGuild): number {
  const cdnHost = cdnHosts.get(server) ?? DEFAULT_CDN_HOST;
  return server.dispatch(GUILD_STATUS, guildStatus(cdnHost, guild), { args: { guild_id: guild.id } });
}

/**
 * GET_GUILD's `timeout` (seconds): how long the game lets us look the guild up before 5002.
 * Absent or 0: no limit of ours (the source's own applies). A game that leaves stops the wait.
 */
function withTimeout<T>(lookup: Promise<T>, timeoutS: number | undefined, signal: AbortSignal): Promise<T> {
  if (timeoutS === undefined || timeoutS === 0) return lookup;
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      reject(new RpcError(RpcErrorCode.GetGuildTimedOut, GET_GUILD_TIMED_OUT_MESSAGE));
    }, timeoutS * 1000);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new RpcError(RpcErrorCode.UnknownError, 'The client disconnected'));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    lookup.then(
      (value) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        reject(error as Error);
      },
    );
  });
}
