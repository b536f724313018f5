import { ToneSource, pcmBytes } from '../../../common/src/voice/tone.js';
import { encodeAudioPacket, VOICE_FRAME_MS, VOICE_FRAME_SAMPLES } from '../../../common/src/voice/voice-wire.js';
import type { CallService } from '../calls/call-service.js';
import type { VoiceServer } from '../calls/voice-server.js';
import type { LocalLink } from '../calls/voice-link.js';

export interface FriendToneOptions {
  readonly frequencyHz?: number;
  readonly durationMs?: number;
  /** 0..1 of full scale (default 0.3). */
  readonly amplitude?: number;
}

/**
 * The simulated friend in a lobby call: joins it through the same call service as an SDK game
 * (so the other participants see the join and voice state), connects in-process to the voice
 * server, and "speaks": a tone in 20 ms packets, speaking set while it plays. The friend must be
 * a member of the lobby (add it with the server API first).
 */
export class FriendCall {
  private readonly links = new Map<string, LocalLink>();

  constructor(private readonly deps: { readonly calls: CallService; readonly voice: VoiceServer }) {}

  /** Joins the lobby's call (self mute and deaf as given); refused like a game's join when not a member. */
  join(userId: string, lobbyId: string, state: { readonly selfMute?: boolean; readonly selfDeaf?: boolean } = {}): void {
    this.deps.calls.join(lobbyId, userId, { self_mute: state.selfMute ?? false, self_deaf: state.selfDeaf ?? false });
    const key = `${lobbyId}\u0000${userId}`;
    if (this.links.has(key)) return;
    const link = this.deps.voice.attachLocal(lobbyId, userId);
    if (link !== undefined) this.links.set(key, link);
  }

  /** Plays a tone into the call (speaking while it plays); resolves when it ends. Joins first when needed. */
  async playTone(userId: string, lobbyId: string, options: FriendToneOptions = {}): Promise<void> {
    this.join(userId, lobbyId);
    const link = this.links.get(`${lobbyId}\u0000${userId}`);
    if (link === undefined) return;
    const tone = new ToneSource(options.frequencyHz ?? 440, options.amplitude ?? 0.3);
    const frames = Math.max(1, Math.round((options.durationMs ?? 1000) / VOICE_FRAME_MS));
    const start = performance.now();
    this.deps.calls.setSpeaking(lobbyId, userId, true);
    for (let sequence = 0; sequence < frames && !link.closed; sequence += 1) {
      this.deps.voice.relay(link, encodeAudioPacket({ ssrc: link.ssrc, sequence, timestamp: sequence * VOICE_FRAME_SAMPLES, payload: pcmBytes(tone.next()) }));
      const wait = start + (sequence + 1) * VOICE_FRAME_MS - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
    this.deps.calls.setSpeaking(lobbyId, userId, false);
  }

  /** Sets the friend's self mute/deaf in the call. */
  setVoiceState(userId: string, lobbyId: string, state: { readonly selfMute?: boolean; readonly selfDeaf?: boolean }): void {
    this.deps.calls.update(lobbyId, userId, { self_mute: state.selfMute, self_deaf: state.selfDeaf });
  }

  leave(userId: string, lobbyId: string): void {
    const key = `${lobbyId}\u0000${userId}`;
    this.links.get(key)?.close();
    this.links.delete(key);
    this.deps.calls.leave(lobbyId, userId);
  }
}
