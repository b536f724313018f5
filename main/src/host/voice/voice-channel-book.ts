import { EventEmitter } from 'node:events';
import { GatewayEvent, type PlatformUser, type ReadyEvent, type VoiceSpeakingEvent, type VoiceState } from '../../../../platform/src/wire/index.js';

/** A voice state the host knows, with `channel_id` set (a user in a channel). */
export type ChannelVoiceState = VoiceState & { readonly channel_id: string };

/** One change in a voice channel, as the RPC events and the UI need it. */
export type VoiceChannelChange =
  | { readonly kind: 'create' | 'update' | 'delete'; readonly channelId: string; readonly state: ChannelVoiceState }
  | { readonly kind: 'speaking'; readonly channelId: string; readonly userId: string; readonly speaking: boolean };

export interface VoiceChannelBookEvents {
  change: [VoiceChannelChange];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function asVoiceState(value: unknown): VoiceState | undefined {
  if (!isRecord(value)) return undefined;
  const { guild_id: guildId, channel_id: channelId, user_id: userId } = value;
  if (typeof guildId !== 'string' || typeof userId !== 'string' || (channelId !== null && typeof channelId !== 'string')) return undefined;
  return value as unknown as VoiceState;
}

function asSpeaking(value: unknown): VoiceSpeakingEvent | undefined {
  if (!isRecord(value)) return undefined;
  const { channel_id: channelId, user_id: userId, speaking } = value;
  return typeof channelId === 'string' && typeof userId === 'string' && typeof speaking === 'boolean' ? (value as unknown as VoiceSpeakingEvent) : undefined;
}

/**
 * Who is in which voice channel of the player's servers, and who speaks, as the host's gateway
 * session tells it (READY's `guilds[].voice_states`, VOICE_STATE_UPDATE, and the emulator's
 * VOICE_SPEAKING_UPDATE). Only guilds the player is in reach the session, so only channels the
 * player can see are here. Emits each change as create / update / delete per channel.
 */
export class VoiceChannelBook extends EventEmitter<VoiceChannelBookEvents> {
  /** One state per user (a user is in one voice channel at a time), in joining order. */
  private readonly states = new Map<string, ChannelVoiceState>();
  private readonly speakers = new Set<string>();
  /** Users the voice states named (their member object), for the partial states READY gives. */
  private readonly users = new Map<string, PlatformUser>();
  /** The names of the voice channels READY listed. */
  private readonly channelNames = new Map<string, string>();

  constructor(private readonly knownUser: (id: string) => PlatformUser | undefined = () => undefined) {
    super();
  }

  /** Feeds one gateway dispatch. */
  dispatch(type: string, data: unknown): void {
    if (type === GatewayEvent.Ready) this.ready(data as ReadyEvent);
    else if (type === GatewayEvent.VoiceStateUpdate) {
      const state = asVoiceState(data);
      if (state !== undefined) this.apply(state);
    } else if (type === GatewayEvent.VoiceSpeakingUpdate) {
      const speaking = asSpeaking(data);
      if (speaking !== undefined) this.speakingChanged(speaking);
    }
  }

  /** The user's state, when they are in a voice channel the player can see. */
  stateOf(userId: string): ChannelVoiceState | undefined {
    return this.states.get(userId);
  }

  /** The states of one channel, in joining order. */
  inChannel(channelId: string): ChannelVoiceState[] {
    return [...this.states.values()].filter((state) => state.channel_id === channelId);
  }

  /** A voice channel's name, as READY listed it; null when unknown. */
  channelName(channelId: string): string | null {
    return this.channelNames.get(channelId) ?? null;
  }

  speaking(userId: string): boolean {
    return this.speakers.has(userId);
  }

  /** The user of a state: its member's, else one the session told of, else a bare one. */
  userOf(userId: string): PlatformUser | undefined {
    return this.users.get(userId) ?? this.knownUser(userId);
  }

  /** Another account: nothing of the previous one's servers is kept (no events: its games are disconnected). */
  clear(): void {
    this.states.clear();
    this.speakers.clear();
    this.users.clear();
    this.channelNames.clear();
  }

  /** A (new) session's READY: the voice states it lists replace what was known, each change announced. */
  private ready(ready: ReadyEvent): void {
    const listed = new Map<string, ChannelVoiceState>();
    for (const guild of Array.isArray(ready.guilds) ? ready.guilds : []) {
      for (const channel of guild.channels) if (channel.type === 2 && channel.name !== undefined) this.channelNames.set(channel.id, channel.name);
      for (const partial of guild.voice_states ?? []) {
        if (typeof partial.channel_id === 'string') listed.set(partial.user_id, { ...partial, guild_id: guild.id, channel_id: partial.channel_id });
      }
    }
    for (const state of [...this.states.values()]) {
      if (!listed.has(state.user_id)) this.apply({ ...state, channel_id: null });
    }
    for (const state of listed.values()) this.apply(state);
  }

  private apply(state: VoiceState): void {
    if (state.member?.user !== undefined) this.users.set(state.user_id, state.member.user);
    const previous = this.states.get(state.user_id);
    if (previous !== undefined && previous.channel_id !== state.channel_id) {
      this.stopSpeaking(previous);
      this.states.delete(state.user_id);
      this.emit('change', { kind: 'delete', channelId: previous.channel_id, state: previous });
    }
    if (state.channel_id === null) {
      this.users.delete(state.user_id);
      return;
    }
    const next = { ...state, channel_id: state.channel_id } as ChannelVoiceState;
    const same = previous?.channel_id === next.channel_id;
    if (same && (next.self_mute || next.self_deaf)) this.stopSpeaking(previous);
    this.states.set(state.user_id, next);
    this.emit('change', { kind: same ? 'update' : 'create', channelId: next.channel_id, state: next });
  }

  private speakingChanged(event: VoiceSpeakingEvent): void {
    const state = this.states.get(event.user_id);
    if (state === undefined || state.channel_id !== event.channel_id) return;
    if (event.speaking === this.speakers.has(event.user_id)) return;
    if (event.speaking) this.speakers.add(event.user_id);
    else this.speakers.delete(event.user_id);
    this.emit('change', { kind: 'speaking', channelId: event.channel_id, userId: event.user_id, speaking: event.speaking });
  }

  private stopSpeaking(state: ChannelVoiceState): void {
    if (!this.speakers.delete(state.user_id)) return;
    this.emit('change', { kind: 'speaking', channelId: state.channel_id, userId: state.user_id, speaking: false });
  }
}
