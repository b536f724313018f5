/** Where one user is connected: one voice state per user, across every guild. */
export interface VoiceStateRecord {
  readonly guildId: string;
  readonly channelId: string;
  readonly userId: string;
  /** The gateway session that holds the state (the newest to send op 4 for it). */
  readonly sessionId: string;
  readonly selfMute: boolean;
  readonly selfDeaf: boolean;
}

/** The voice states in memory (they end with the emulator, as connections do), by user. */
export class VoiceBook {
  private readonly byUser = new Map<string, VoiceStateRecord>();

  of(userId: string): VoiceStateRecord | undefined {
    return this.byUser.get(userId);
  }

  /** The states of a guild (or of one of its channels), in joining order. */
  inGuild(guildId: string, channelId?: string): VoiceStateRecord[] {
    return [...this.byUser.values()].filter((state) => state.guildId === guildId && (channelId === undefined || state.channelId === channelId));
  }

  all(): VoiceStateRecord[] {
    return [...this.byUser.values()];
  }

  /** Whether anyone is connected to the channel. */
  occupied(channelId: string): boolean {
    for (const state of this.byUser.values()) if (state.channelId === channelId) return true;
    return false;
  }

  /** Sets the user's state; a move keeps its place in joining order only when the channel stays. */
  set(state: VoiceStateRecord): void {
    const previous = this.byUser.get(state.userId);
    if (previous !== undefined && previous.channelId !== state.channelId) this.byUser.delete(state.userId);
    this.byUser.set(state.userId, state);
  }

  remove(userId: string): VoiceStateRecord | undefined {
    const state = this.byUser.get(userId);
    this.byUser.delete(userId);
    return state;
  }
}
