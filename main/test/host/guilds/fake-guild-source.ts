import type { GuildSource, SourceChannel, SourceGuild } from '../../../src/host/guilds/index.js';

/** An in-memory GuildSource; `failing` makes every call reject as a platform outage would. */
export class FakeGuildSource implements GuildSource {
  readonly guildsById = new Map<string, SourceGuild>();
  readonly channelsById = new Map<string, SourceChannel>();
  failing = false;
  /** When set, guild() waits for this promise first (a slow platform). */
  stall: Promise<void> | undefined;
  readonly calls: string[] = [];

  addGuild(guild: SourceGuild, channels: readonly SourceChannel[] = []): void {
    this.guildsById.set(guild.id, guild);
    for (const channel of channels) this.channelsById.set(channel.id, { ...channel, guild_id: guild.id });
  }

  async guilds(): Promise<readonly SourceGuild[]> {
    this.check('guilds');
    return [...this.guildsById.values()];
  }

  async guild(id: string): Promise<SourceGuild | null> {
    this.check(`guild ${id}`);
    if (this.stall !== undefined) await this.stall;
    return this.guildsById.get(id) ?? null;
  }

  async channels(guildId: string): Promise<readonly SourceChannel[] | null> {
    this.check(`channels ${guildId}`);
    if (!this.guildsById.has(guildId)) return null;
    return [...this.channelsById.values()].filter((channel) => channel.guild_id === guildId);
  }

  async channel(id: string): Promise<SourceChannel | null> {
    this.check(`channel ${id}`);
    return this.channelsById.get(id) ?? null;
  }

  private check(call: string): void {
    this.calls.push(call);
    if (this.failing) throw new Error('connect ECONNREFUSED 127.0.0.1:1 (secret-looking detail)');
  }
}
