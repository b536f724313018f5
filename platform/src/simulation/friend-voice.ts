import type { Session } from '../gateway/session.js';
import type { SessionRegistry } from '../gateway/sessions.js';
import type { UserRecord } from '../state/model.js';
import { StateError, type Store } from '../state/store.js';
import type { PlatformLogger } from '../support/logger.js';
import type { ListedVoiceState, VoiceService } from '../voice/voice-service.js';

/** What the simulated friend does in a server voice channel. */
export type FriendVoiceAction = 'join' | 'speak' | 'quiet' | 'mute' | 'unmute' | 'deaf' | 'undeaf' | 'leave';

export interface FriendVoiceRequest {
  readonly as: string;
  readonly action: FriendVoiceAction;
  /** `join`: the voice channel (id, or name within the friend's guilds). */
  readonly channel?: string;
  /** `speak`: how long the friend speaks (the tone's or the WAV file's length), in ms. */
  readonly durationMs?: number;
}

/** The friend's voice state after the action (null: not connected) and whether they speak. */
export interface FriendVoiceOutcome {
  readonly user_id: string;
  readonly voice_state: ListedVoiceState | null;
  readonly speaking: boolean;
  /** `speak`: when the friend stops by themselves (epoch ms). */
  readonly speaking_until?: number;
}

export interface FriendVoiceDeps {
  readonly store: Store;
  readonly sessions: SessionRegistry;
  readonly voice: VoiceService;
  readonly now: () => number;
  readonly logger: PlatformLogger;
}

/** The longest a `speak` lasts (a WAV file of ten minutes) **(ours)**. */
export const FRIEND_SPEAK_MAX_MS = 600_000;
const DEFAULT_SPEAK_MS = 1000;

/**
 * The simulated friend in server voice channels (QA, issue 29 §1): joins with op 4 from a
 * gateway session of their own that no socket holds, mutes, deafens, leaves, and "speaks" for a
 * while. A server channel carries no audio in the emulator, so speaking is the speaking state
 * (VOICE_SPEAKING_UPDATE, ours) for as long as the tone or file would play.
 */
export class FriendVoice {
  private readonly voiceSessions = new Map<string, Session>();
  private readonly speakTimers = new Map<string, ReturnType<typeof setTimeout>>();

  constructor(private readonly deps: FriendVoiceDeps) {}

  act(request: FriendVoiceRequest): FriendVoiceOutcome {
    const user = this.user(request.as);
    switch (request.action) {
      case 'join':
        this.join(user, request.channel);
        break;
      case 'speak':
        return this.speak(user, request.durationMs ?? DEFAULT_SPEAK_MS);
      case 'quiet':
        this.quiet(user.id);
        break;
      case 'mute':
      case 'unmute':
      case 'deaf':
      case 'undeaf':
        this.setSelf(user, request.action);
        break;
      case 'leave':
        this.leave(user.id);
        break;
    }
    return this.outcome(user.id);
  }

  /** Ends every simulated voice session (the emulator is closing). */
  close(): void {
    for (const userId of [...this.voiceSessions.keys()]) this.leave(userId);
  }

  private join(user: UserRecord, channelRef: string | undefined): void {
    if (channelRef === undefined || channelRef === '') throw new StateError('invalid', 'join needs the voice channel (its id or name)', 'channel');
    const channel = this.voiceChannel(user, channelRef);
    const current = this.deps.voice.stateOf(channel.guildId, user.id);
    this.deps.voice.update(this.session(user.id), {
      guild_id: channel.guildId,
      channel_id: channel.id,
      self_mute: current?.self_mute ?? false,
      self_deaf: current?.self_deaf ?? false,
    });
    this.deps.logger.info({ userId: user.id, channelId: channel.id }, 'simulated friend joined a voice channel');
  }

  private speak(user: UserRecord, durationMs: number): FriendVoiceOutcome {
    const state = this.connected(user);
    if (state.self_mute || state.self_deaf) throw new StateError('invalid', `${user.username} is muted or deafened: unmute first (a muted user sends no voice)`, 'as');
    this.deps.voice.setSpeaking(user.id, true);
    this.clearTimer(user.id);
    const duration = Math.min(Math.max(durationMs, 1), FRIEND_SPEAK_MAX_MS);
    const timer = setTimeout(() => this.quiet(user.id), duration);
    timer.unref();
    this.speakTimers.set(user.id, timer);
    this.deps.logger.info({ userId: user.id, durationMs: duration }, 'simulated friend speaks');
    return { ...this.outcome(user.id), speaking_until: this.deps.now() + duration };
  }

  private quiet(userId: string): void {
    this.clearTimer(userId);
    this.deps.voice.setSpeaking(userId, false);
  }

  private setSelf(user: UserRecord, action: 'mute' | 'unmute' | 'deaf' | 'undeaf'): void {
    const state = this.connected(user);
    const selfMute = action === 'mute' ? true : action === 'unmute' ? false : state.self_mute;
    const selfDeaf = action === 'deaf' ? true : action === 'undeaf' ? false : state.self_deaf;
    if (selfMute || selfDeaf) this.clearTimer(user.id);
    this.deps.voice.update(this.session(user.id), { guild_id: state.guild_id, channel_id: state.channel_id, self_mute: selfMute, self_deaf: selfDeaf });
  }

  private leave(userId: string): void {
    this.clearTimer(userId);
    const session = this.voiceSessions.get(userId);
    this.voiceSessions.delete(userId);
    if (session === undefined || session.ended) return;
    this.deps.voice.sessionEnded(session);
    this.deps.sessions.remove(session);
    this.deps.logger.info({ userId }, 'simulated friend left voice');
  }

  private clearTimer(userId: string): void {
    const timer = this.speakTimers.get(userId);
    if (timer !== undefined) clearTimeout(timer);
    this.speakTimers.delete(userId);
  }

  /** The friend's voice state, held by their simulated voice session; else a clear error. */
  private connected(user: UserRecord): ListedVoiceState & { readonly channel_id: string } {
    const state = this.deps.voice.list({}).find((candidate) => candidate.user_id === user.id);
    const session = this.voiceSessions.get(user.id);
    if (state === undefined || state.channel_id === null || session === undefined || state.session_id !== session.id) {
      throw new StateError('invalid', `${user.username} is not in a voice channel as the simulated friend: join one first`, 'as');
    }
    return state as ListedVoiceState & { readonly channel_id: string };
  }

  private outcome(userId: string): FriendVoiceOutcome {
    const state = this.deps.voice.list({}).find((candidate) => candidate.user_id === userId) ?? null;
    return { user_id: userId, voice_state: state, speaking: this.deps.voice.speaking(userId) };
  }

  private session(userId: string): Session {
    const existing = this.voiceSessions.get(userId);
    if (existing !== undefined && !existing.ended) return existing;
    const session = this.deps.sessions.create(userId);
    this.voiceSessions.set(userId, session);
    return session;
  }

  /** A voice channel (type 2) of a guild the friend is in, by id or by name. */
  private voiceChannel(user: UserRecord, ref: string): { readonly id: string; readonly guildId: string } {
    const { store } = this.deps;
    const candidates = store.voiceChannels().filter((channel) => channel.guild_id !== undefined && store.isMember(channel.guild_id, user.id));
    const found = candidates.find((channel) => channel.id === ref) ?? candidates.find((channel) => channel.name?.toLowerCase() === ref.toLowerCase());
    if (found?.guild_id === undefined) throw new StateError('not_found', `No voice channel '${ref}' in ${user.username}'s servers`, 'channel');
    return { id: found.id, guildId: found.guild_id };
  }

  private user(idOrName: string): UserRecord {
    const user = this.deps.store.user(idOrName) ?? this.deps.store.userByName(idOrName);
    if (user === undefined) throw new StateError('not_found', `Unknown user '${idOrName}'`, 'as');
    return user;
  }
}
