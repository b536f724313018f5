import { ToneSource } from '../../../common/src/voice/tone.js';
import { VOICE_FRAME_MS } from '../../../common/src/voice/voice-wire.js';
import type { CallService } from '../calls/call-service.js';
import type { VoiceServer } from '../calls/voice-server.js';
import type { LocalLink } from '../calls/voice-link.js';
import { CountedFrames, FriendCallPlayer, type FrameSource } from './friend-call-player.js';

export interface FriendToneOptions {
  readonly frequencyHz?: number;
  readonly durationMs?: number;
  /** 0..1 of full scale (default 0.3). */
  readonly amplitude?: number;
}

/** The friend's voice connection to one call and what plays into it. */
interface FriendSeat {
  readonly link: LocalLink;
  readonly player: FriendCallPlayer;
}

/** A tone of `options` as frames. */
export function toneFrames(options: FriendToneOptions = {}): FrameSource {
  const tone = new ToneSource(options.frequencyHz ?? 440, options.amplitude ?? 0.3);
  return new CountedFrames(() => tone.next(), Math.round((options.durationMs ?? 1000) / VOICE_FRAME_MS));
}

/**
 * The simulated friend in a lobby call: joins it through the same call service as an SDK game
 * (so the other participants see the join and voice state), connects in-process to the voice
 * server, and "speaks": a tone or samples (a WAV file's) in 20 ms packets, speaking set while
 * they play. The friend must be a member of the lobby (add it with the server API first).
 */
export class FriendCall {
  private readonly seats = new Map<string, FriendSeat>();

  constructor(private readonly deps: { readonly calls: CallService; readonly voice: VoiceServer }) {}

  /** Joins the lobby's call (self mute and deaf as given); refused like a game's join when not a member. */
  join(userId: string, lobbyId: string, state: { readonly selfMute?: boolean; readonly selfDeaf?: boolean } = {}): void {
    const current = this.deps.calls.state(lobbyId, userId);
    this.deps.calls.join(lobbyId, userId, { self_mute: state.selfMute ?? current?.self_mute ?? false, self_deaf: state.selfDeaf ?? current?.self_deaf ?? false });
    const key = seatKey(lobbyId, userId);
    const seat = this.seats.get(key);
    if (seat !== undefined && !seat.link.closed) return;
    const link = this.deps.voice.attachLocal(lobbyId, userId);
    if (link !== undefined) this.seats.set(key, { link, player: this.player(link) });
  }

  /** Whether the friend holds a voice connection to the lobby's call. */
  inCall(userId: string, lobbyId: string): boolean {
    const seat = this.seats.get(seatKey(lobbyId, userId));
    return seat !== undefined && !seat.link.closed && this.deps.calls.state(lobbyId, userId) !== undefined;
  }

  /** Plays a tone into the call (speaking while it plays); resolves when it ends. Joins first when needed. */
  async playTone(userId: string, lobbyId: string, options: FriendToneOptions = {}): Promise<void> {
    this.join(userId, lobbyId);
    await this.play(userId, lobbyId, toneFrames(options));
  }

  /** Queues audio after what the friend is playing in that call (resolves when it has played); nothing when not connected. */
  play(userId: string, lobbyId: string, source: FrameSource): Promise<void> {
    return this.seats.get(seatKey(lobbyId, userId))?.player.play(source) ?? Promise.resolve();
  }

  /** Stops what the friend plays in that call (speaking ends). */
  quiet(userId: string, lobbyId: string): void {
    this.seats.get(seatKey(lobbyId, userId))?.player.stop();
  }

  /** Whether the friend is playing audio into that call, and for how many ms more. */
  speaking(userId: string, lobbyId: string): { readonly speaking: boolean; readonly remainingMs: number } {
    const player = this.seats.get(seatKey(lobbyId, userId))?.player;
    return { speaking: player?.playing ?? false, remainingMs: player?.remainingMs ?? 0 };
  }

  /** Sets the friend's self mute/deaf in the call (muting or deafening stops what plays). */
  setVoiceState(userId: string, lobbyId: string, state: { readonly selfMute?: boolean; readonly selfDeaf?: boolean }): void {
    this.deps.calls.update(lobbyId, userId, { self_mute: state.selfMute, self_deaf: state.selfDeaf });
    if (state.selfMute === true || state.selfDeaf === true) this.quiet(userId, lobbyId);
  }

  leave(userId: string, lobbyId: string): void {
    const key = seatKey(lobbyId, userId);
    const seat = this.seats.get(key);
    seat?.player.stop();
    seat?.link.close();
    this.seats.delete(key);
    this.deps.calls.leave(lobbyId, userId);
  }

  private player(link: LocalLink): FriendCallPlayer {
    const { calls, voice } = this.deps;
    return new FriendCallPlayer({
      send: (packet) => {
        if (link.closed) return false;
        voice.relay(link, packet);
        return true;
      },
      speaking: (on) => {
        if (!link.closed && calls.state(link.lobbyId, link.userId) !== undefined) calls.setSpeaking(link.lobbyId, link.userId, on);
      },
    });
  }
}

function seatKey(lobbyId: string, userId: string): string {
  return `${lobbyId}\u0000${userId}`;
}
