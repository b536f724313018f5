import type { Dispatcher } from '../gateway/sessions.js';
import type { ChannelRecord } from '../state/model.js';
import { toPlatformUser, type Store } from '../state/store.js';
import type { PlatformLogger } from '../support/logger.js';
import { GatewayEvent, type VoiceSpeakingEvent, type VoiceState } from '../wire/index.js';
import { VoiceBook, type VoiceStateRecord } from './voice-book.js';

/** Op 4's payload, as the gateway validated it. */
export interface VoiceStateRequest {
  readonly guild_id: string | null;
  readonly channel_id: string | null;
  readonly self_mute: boolean;
  readonly self_deaf: boolean;
}

export interface VoiceServiceDeps {
  readonly store: Store;
  readonly dispatcher: Dispatcher;
  readonly now: () => number;
  readonly logger: PlatformLogger;
}

/** What the admin listing says of a voice state: the wire's, and whether the user speaks **(ours)**. */
export type ListedVoiceState = VoiceState & { readonly speaking: boolean };

/**
 * Voice channels of servers: who is connected where (one voice state per user), the
 * VOICE_STATE_UPDATE each change sends to the guild's members, the start time of each channel's
 * current call, the channel's status text, and who speaks (VOICE_SPEAKING_UPDATE, ours). No
 * audio in server channels: speaking is a state the simulated friend sets.
 */
export class VoiceService {
  private readonly book = new VoiceBook();
  /** Users speaking now, each in the channel of their voice state. */
  private readonly speakers = new Set<string>();

  constructor(private readonly deps: VoiceServiceDeps) {
    // Nobody is connected when the emulator starts: a call left over from the last run is over.
    for (const channel of deps.store.voiceChannels()) {
      if (channel.voice_start_time !== null) deps.store.setVoiceChannelInfo(channel.id, { voice_start_time: null });
    }
  }

  /**
   * Op 4 from a session: join, move (within or across guilds), change self mute/deaf, or leave
   * (channel_id null). Ignored for a guild the user is not in or a channel that is not one of
   * its voice channels **(ours)**, and for DM calls (guild_id null with a channel: not in this step).
   */
  update(session: { readonly id: string; readonly userId: string }, request: VoiceStateRequest): void {
    const current = this.book.of(session.userId);
    if (request.channel_id === null) {
      if (current !== undefined && (request.guild_id === null || request.guild_id === current.guildId)) this.leave(current);
      return;
    }
    if (request.guild_id === null || !this.deps.store.isMember(request.guild_id, session.userId)) return;
    const channel = this.deps.store.channel(request.channel_id);
    if (channel === undefined || channel.type !== 2 || channel.guild_id !== request.guild_id) return;
    if (current !== undefined && current.guildId !== request.guild_id) this.leave(current);
    else if (current !== undefined && (current.channelId !== channel.id || request.self_mute || request.self_deaf)) this.stopSpeaking(current);
    const wasOccupied = this.book.occupied(channel.id);
    const next: VoiceStateRecord = {
      guildId: request.guild_id,
      channelId: channel.id,
      userId: session.userId,
      sessionId: session.id,
      selfMute: request.self_mute,
      selfDeaf: request.self_deaf,
    };
    this.book.set(next);
    if (current !== undefined && current.guildId === next.guildId && current.channelId !== next.channelId) this.channelLeft(current.guildId, current.channelId);
    if (!wasOccupied) this.setStartTime(channel, Math.floor(this.deps.now() / 1000));
    this.publish(next.guildId, this.view(next, next.channelId));
  }

  /** A gateway session ended: the voice state it holds (not one another session took over) ends. */
  sessionEnded(session: { readonly id: string; readonly userId: string }): void {
    const current = this.book.of(session.userId);
    if (current !== undefined && current.sessionId === session.id) this.leave(current);
  }

  /**
   * The user starts or stops speaking in the channel they are connected to **(ours)**:
   * VOICE_SPEAKING_UPDATE to the users connected to that channel. Returns false when the user is
   * not connected, or muted or deafened (a muted user sends no voice), or nothing changes.
   */
  setSpeaking(userId: string, speaking: boolean): boolean {
    const state = this.book.of(userId);
    if (state === undefined) return false;
    if (!speaking) return this.stopSpeaking(state);
    if (state.selfMute || state.selfDeaf || this.speakers.has(userId)) return false;
    this.speakers.add(userId);
    this.publishSpeaking(state, true);
    return true;
  }

  /** Whether the user speaks now. */
  speaking(userId: string): boolean {
    return this.speakers.has(userId);
  }

  /** The user's voice state in the guild (Get User Voice State), or undefined. */
  stateOf(guildId: string, userId: string): VoiceState | undefined {
    const state = this.book.of(userId);
    return state === undefined || state.guildId !== guildId ? undefined : this.view(state, state.channelId);
  }

  /** Whether the user is connected to the channel. */
  connectedTo(userId: string, channelId: string): boolean {
    return this.book.of(userId)?.channelId === channelId;
  }

  /** READY's `voice_states` of a guild: partial states, without `guild_id` and `member`. */
  guildStates(guildId: string): Omit<VoiceState, 'guild_id' | 'member'>[] {
    return this.book.inGuild(guildId).map((state) => {
      // eslint-disable-next-line @typescript-eslint/no-unused-vars
      const { guild_id, member, ...partial } = this.view(state, state.channelId);
      return partial;
    });
  }

  /** Every voice state, or a guild's, or a channel's (the admin listing). */
  list(filter: { readonly guildId?: string; readonly channelId?: string }): ListedVoiceState[] {
    return this.book
      .all()
      .filter((state) => (filter.guildId === undefined || state.guildId === filter.guildId) && (filter.channelId === undefined || state.channelId === filter.channelId))
      .map((state) => ({ ...this.view(state, state.channelId), speaking: this.speakers.has(state.userId) }));
  }

  /** Sets (or, null, clears) a voice channel's status and tells the guild (VOICE_CHANNEL_STATUS_UPDATE). */
  setStatus(channel: ChannelRecord, status: string | null): void {
    const guildId = channel.guild_id;
    if (guildId === undefined) return;
    this.deps.store.setVoiceChannelInfo(channel.id, { status });
    this.publishTo(guildId, GatewayEvent.VoiceChannelStatusUpdate, { id: channel.id, guild_id: guildId, status });
  }

  private leave(state: VoiceStateRecord): void {
    this.stopSpeaking(state);
    this.book.remove(state.userId);
    this.publish(state.guildId, this.view(state, null));
    this.channelLeft(state.guildId, state.channelId);
  }

  /** The last one out ends the channel's call: no start time, and its status is cleared **(ours)**. */
  private channelLeft(guildId: string, channelId: string): void {
    if (this.book.occupied(channelId)) return;
    const channel = this.deps.store.channel(channelId);
    if (channel === undefined || channel.type !== 2) return;
    this.setStartTime(channel, null);
    if (channel.status !== null) this.setStatus(channel, null);
    this.deps.logger.debug({ guildId, channelId }, 'voice channel emptied');
  }

  private stopSpeaking(state: VoiceStateRecord): boolean {
    if (!this.speakers.delete(state.userId)) return false;
    this.publishSpeaking(state, false);
    return true;
  }

  /** Speaking goes to the users connected to the channel (the speaker's own sessions too), as a voice server tells its participants. */
  private publishSpeaking(state: VoiceStateRecord, speaking: boolean): void {
    const event: VoiceSpeakingEvent = { guild_id: state.guildId, channel_id: state.channelId, user_id: state.userId, speaking };
    for (const listener of this.book.inGuild(state.guildId, state.channelId)) this.deps.dispatcher.dispatchToUser(listener.userId, GatewayEvent.VoiceSpeakingUpdate, event);
  }

  private setStartTime(channel: ChannelRecord, time: number | null): void {
    const guildId = channel.guild_id;
    if (guildId === undefined || channel.voice_start_time === time) return;
    this.deps.store.setVoiceChannelInfo(channel.id, { voice_start_time: time });
    this.publishTo(guildId, GatewayEvent.VoiceChannelStartTimeUpdate, { id: channel.id, guild_id: guildId, voice_start_time: time });
  }

  private publish(guildId: string, state: VoiceState): void {
    this.publishTo(guildId, GatewayEvent.VoiceStateUpdate, state);
  }

  /**
   * A guild's event to every session of its members: every member sees every channel in the
   * emulator (no permission overwrites), and nobody outside the guild hears of it.
   */
  private publishTo(guildId: string, t: string, d: unknown): void {
    const guild = this.deps.store.guild(guildId);
    if (guild === undefined) return;
    for (const member of guild.members) this.deps.dispatcher.dispatchToUser(member.user_id, t, d);
  }

  /** The wire's voice state; `channelId` null for the dispatch that says the user left. */
  private view(state: VoiceStateRecord, channelId: string | null): VoiceState {
    const guild = this.deps.store.guild(state.guildId);
    const user = this.deps.store.user(state.userId);
    const joinedAt = guild?.members.find((member) => member.user_id === state.userId)?.joined_at;
    return {
      guild_id: state.guildId,
      channel_id: channelId,
      user_id: state.userId,
      ...(user !== undefined && joinedAt !== undefined ? { member: { user: toPlatformUser(user), roles: [], joined_at: joinedAt, deaf: false, mute: false } } : {}),
      session_id: state.sessionId,
      deaf: false,
      mute: false,
      self_deaf: state.selfDeaf,
      self_mute: state.selfMute,
      self_stream: false,
      self_video: false,
      suppress: false,
      request_to_speak_timestamp: null,
    };
  }
}
