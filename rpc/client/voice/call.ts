import { VOICE_CHANNELS, VOICE_FRAME_MS, VOICE_FRAME_SAMPLES, VOICE_SAMPLE_RATE, type AudioPacket, type WireParticipant } from '../../../common/src/voice/voice-wire.js';
import { CallSender } from './call-sender.js';
import {
  AudioModeType,
  CallError,
  CallStatus,
  callStatusName,
  type CallParticipantChangedCallback,
  type CallSpeakingChangedCallback,
  type CallStatusChangedCallback,
  type CallVoiceStateChangedCallback,
  type UserAudioCapturedCallback,
  type UserAudioReceivedCallback,
  type VoiceStateHandle,
} from './call-types.js';
import type { VoiceCodec } from './codec.js';
import { JitterBuffer, type BufferStats } from './jitter-buffer.js';
import { mixInto, scaled } from './pcm.js';
import { VoiceConnection, type VoiceServerEvent } from './voice-connection.js';

/** What a call needs of the SDK around it. */
export interface CallContext {
  /** Joins the lobby's call on the platform: the voice server's endpoint and the participant's token. */
  join(lobbyId: string, selfMute: boolean, selfDeaf: boolean): Promise<{ readonly endpoint: string; readonly token: string }>;
  /** Sends the player's self mute/deaf to the platform. */
  updateVoiceState(lobbyId: string, selfMute: boolean, selfDeaf: boolean): Promise<void>;
  leave(lobbyId: string): Promise<void>;
  readonly codec: VoiceCodec;
  readonly receivedCallback: UserAudioReceivedCallback | undefined;
  readonly capturedCallback: UserAudioCapturedCallback | undefined;
  participantChanged(lobbyId: string, userId: string, added: boolean): void;
  log(message: string, severity: 'verbose' | 'info' | 'warning' | 'error'): void;
  /** A callback of the game threw. */
  callbackFailed(callback: string, error: unknown): void;
}

interface Remote {
  state: WireParticipant;
  readonly buffer: JitterBuffer;
  volume: number;
  localMute: boolean;
}

/**
 * discordpp::Call: the player in one lobby's call. Its status goes Joining → Connecting →
 * SignalingConnected → Connected, Reconnecting (and back to Connected) when the voice
 * connection drops, Disconnecting → Disconnected when it ends. Each 20 ms the Client's audio
 * clock hands it the captured frame (`capture`) and takes its participants' frames (`playout`).
 */
export class Call {
  private status: CallStatus = CallStatus.Joining;
  private connection: VoiceConnection | undefined;
  private userId: string | undefined;
  private ssrc = 0;
  private selfMute: boolean;
  private selfDeaf: boolean;
  private readonly remotes = new Map<string, Remote>();
  private readonly bySsrc = new Map<number, string>();
  private readonly sender: CallSender;
  private statusCallback: CallStatusChangedCallback | undefined;
  private participantCallback: CallParticipantChangedCallback | undefined;
  private speakingCallback: CallSpeakingChangedCallback | undefined;
  private voiceStateCallback: CallVoiceStateChangedCallback | undefined;
  private readonly waiters = new Set<() => void>();

  constructor(
    readonly lobbyId: string,
    private readonly context: CallContext,
    initial: { readonly selfMute: boolean; readonly selfDeaf: boolean },
  ) {
    this.selfMute = initial.selfMute;
    this.selfDeaf = initial.selfDeaf;
    this.sender = new CallSender(context.codec);
  }

  /** Joins on the platform, then connects to the voice server. */
  async start(): Promise<void> {
    let joined: Awaited<ReturnType<CallContext['join']>>;
    try {
      joined = await this.context.join(this.lobbyId, this.selfMute, this.selfDeaf);
    } catch (error) {
      const status = (error as { result?: { status?: number } }).result?.status ?? 0;
      this.context.log(`joining the call of lobby ${this.lobbyId} failed: ${(error as Error).message}`, 'warning');
      this.setStatus(CallStatus.Disconnected, status === 403 || status === 404 ? CallError.Forbidden : CallError.SignalingConnectionFailed, status);
      return;
    }
    if (this.status === CallStatus.Disconnecting || this.status === CallStatus.Disconnected) return;
    this.setStatus(CallStatus.Connecting);
    this.connection = new VoiceConnection(joined.endpoint, joined.token, {
      opened: () => {
        if (this.status === CallStatus.Connecting) this.setStatus(CallStatus.SignalingConnected);
      },
      message: (message) => this.onMessage(message),
      audio: (packet, arrivalMs) => this.onAudio(packet, arrivalMs),
      reconnecting: (code) => this.setStatus(CallStatus.Reconnecting, CallError.SignalingUnexpectedClose, code),
      closed: (fatal) => this.onClosed(fatal),
      log: (message, severity) => this.context.log(message, severity),
    });
    this.connection.open();
  }

  /** Leaves the call (endCall). */
  async end(): Promise<void> {
    if (this.status === CallStatus.Disconnected) return;
    this.setStatus(CallStatus.Disconnecting);
    this.connection?.close();
    try {
      await this.context.leave(this.lobbyId);
    } catch (error) {
      this.context.log(`leaving the call of lobby ${this.lobbyId} failed: ${(error as Error).message}`, 'warning');
    }
    this.finish(CallError.None, 0);
  }

  // ---- the Social SDK's Call

  getStatus(): CallStatus {
    return this.status;
  }

  getChannelId(): string {
    return this.lobbyId;
  }

  getGuildId(): string {
    return this.lobbyId;
  }

  /** Everyone in the call, the player included. */
  getParticipants(): string[] {
    return [...(this.userId === undefined || this.status !== CallStatus.Connected ? [] : [this.userId]), ...this.remotes.keys()];
  }

  getVoiceStateHandle(userId: string): VoiceStateHandle | undefined {
    if (userId === this.userId) return { selfMute: () => this.selfMute, selfDeaf: () => this.selfDeaf };
    if (!this.remotes.has(userId)) return undefined;
    return { selfMute: () => this.remotes.get(userId)?.state.self_mute ?? false, selfDeaf: () => this.remotes.get(userId)?.state.self_deaf ?? false };
  }

  getSelfMute(): boolean {
    return this.selfMute;
  }

  getSelfDeaf(): boolean {
    return this.selfDeaf;
  }

  /** Mutes the player: nothing is sent while muted. */
  setSelfMute(mute: boolean): void {
    if (this.selfMute === mute) return;
    this.selfMute = mute;
    this.voiceStateChanged();
  }

  /** Deafens the player: nothing is played (nor sent) while deafened; the voice server stops relaying to them. */
  setSelfDeaf(deaf: boolean): void {
    if (this.selfDeaf === deaf) return;
    this.selfDeaf = deaf;
    if (deaf) for (const remote of this.remotes.values()) remote.buffer.reset();
    this.voiceStateChanged();
  }

  getLocalMute(userId: string): boolean {
    return this.remotes.get(userId)?.localMute ?? false;
  }

  /** Mutes one participant for the player only. */
  setLocalMute(userId: string, mute: boolean): void {
    const remote = this.remotes.get(userId);
    if (remote !== undefined) remote.localMute = mute;
  }

  getParticipantVolume(userId: string): number {
    return this.remotes.get(userId)?.volume ?? 100;
  }

  /** Volume of one participant for the player: 0 to 200 (100 plays them as they came). */
  setParticipantVolume(userId: string, volume: number): void {
    if (!Number.isFinite(volume) || volume < 0 || volume > 200) throw new RangeError('volume must be between 0 and 200');
    const remote = this.remotes.get(userId);
    if (remote !== undefined) remote.volume = volume;
  }

  getAudioMode(): AudioModeType {
    return this.sender.audioMode;
  }

  setAudioMode(mode: AudioModeType): void {
    if (mode !== AudioModeType.VAD && mode !== AudioModeType.PTT) throw new RangeError('mode must be AudioModeType.VAD or AudioModeType.PTT');
    this.sender.audioMode = mode;
  }

  getPTTActive(): boolean {
    return this.sender.pttActive;
  }

  /** Push to talk pressed (true) or released: in PTT mode the player speaks while it is. */
  setPTTActive(active: boolean): void {
    this.sender.setPTTActive(active, performance.now());
  }

  getPTTReleaseDelay(): number {
    return this.sender.pttReleaseDelayMs;
  }

  setPTTReleaseDelay(releaseDelayMs: number): void {
    this.sender.pttReleaseDelayMs = Math.max(0, Math.min(2000, releaseDelayMs));
  }

  getVADThreshold(): { readonly automatic: boolean; readonly threshold: number } {
    return { automatic: this.sender.vadAutomatic, threshold: this.sender.vadThresholdDb };
  }

  /** Voice activity detection: automatic, or speech above `threshold` dBFS (-100 to 0). */
  setVADThreshold(automatic: boolean, threshold: number): void {
    if (!Number.isFinite(threshold) || threshold < -100 || threshold > 0) throw new RangeError('threshold must be between -100 and 0 (dBFS)');
    this.sender.vadAutomatic = automatic;
    this.sender.vadThresholdDb = threshold;
  }

  setStatusChangedCallback(callback: CallStatusChangedCallback | undefined): void {
    this.statusCallback = callback;
  }

  setParticipantChangedCallback(callback: CallParticipantChangedCallback | undefined): void {
    this.participantCallback = callback;
  }

  setSpeakingStatusChangedCallback(callback: CallSpeakingChangedCallback | undefined): void {
    this.speakingCallback = callback;
  }

  setOnVoiceStateChangedCallback(callback: CallVoiceStateChangedCallback | undefined): void {
    this.voiceStateCallback = callback;
  }

  /** **(ours)** Resolves once the call is Connected (true), or false when it ends first or `timeoutMs` passes. */
  waitConnected(timeoutMs = 10_000): Promise<boolean> {
    if (this.status === CallStatus.Connected) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => done(false), timeoutMs);
      const done = (value: boolean): void => {
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve(value);
      };
      const check = (): void => {
        if (this.status === CallStatus.Connected) done(true);
        else if (this.status === CallStatus.Disconnected) done(false);
      };
      this.waiters.add(check);
    });
  }

  /** **(ours)** The receiving jitter buffers' counts, per participant. */
  receiveStats(): Record<string, BufferStats & { readonly target: number; readonly jitterMs: number }> {
    const out: Record<string, BufferStats & { target: number; jitterMs: number }> = {};
    for (const [userId, remote] of this.remotes) out[userId] = { ...remote.buffer.stats, target: remote.buffer.target, jitterMs: remote.buffer.jitter };
    return out;
  }

  // ---- the audio clock

  /** The captured frame (after the input volume): the captured-audio callback, then VAD/PTT and sending. */
  capture(frame: Int16Array, nowMs: number): void {
    if (this.status !== CallStatus.Connected) return;
    const canSend = !this.selfMute && !this.selfDeaf;
    if (canSend && this.context.capturedCallback !== undefined) this.guard('userAudioCaptured', () => this.context.capturedCallback?.(frame, VOICE_FRAME_SAMPLES, VOICE_SAMPLE_RATE, VOICE_CHANNELS));
    const wasSpeaking = this.sender.speaking;
    const { speaking, packet } = this.sender.frame(frame, this.ssrc, canSend, nowMs);
    if (packet !== undefined) this.connection?.sendAudio(packet);
    if (speaking !== wasSpeaking) {
      this.connection?.sendSpeaking(speaking);
      if (this.userId !== undefined) this.speakingChanged(this.userId, speaking);
    }
  }

  /** Adds this call's participants' frames (after the received-audio callback and their volume) into the mix bus. */
  playout(bus: Int32Array, nowMs: number): void {
    for (const [userId, remote] of this.remotes) {
      const played = remote.buffer.pop(nowMs);
      if (played.kind === 'silence' || this.selfDeaf || remote.localMute) continue;
      const samples = remote.volume === 100 ? played.samples : scaled(played.samples, remote.volume / 100);
      let muted = false;
      if (this.context.receivedCallback !== undefined) this.guard('userAudioReceived', () => (muted = this.context.receivedCallback?.(userId, samples, VOICE_FRAME_SAMPLES, VOICE_SAMPLE_RATE, VOICE_CHANNELS) === true));
      if (!muted) mixInto(bus, samples);
    }
  }

  // ---- inside

  private onMessage(message: VoiceServerEvent): void {
    switch (message.op) {
      case 'ready':
        this.ssrc = message.ssrc;
        this.userId = message.user_id;
        this.connection?.established();
        // After a reconnect the server has the player silent: say it again if they still speak.
        if (this.sender.speaking) this.connection?.sendSpeaking(true);
        for (const participant of message.participants) if (participant.user_id !== this.userId) this.upsert(participant);
        for (const userId of [...this.remotes.keys()]) if (!message.participants.some((participant) => participant.user_id === userId)) this.remove(userId);
        this.setStatus(CallStatus.Connected);
        return;
      case 'participant':
        if (message.participant.user_id !== this.userId) this.upsert(message.participant);
        return;
      case 'left':
        this.remove(message.user_id);
        return;
      case 'speaking':
        this.onRemoteSpeaking(message.user_id, message.speaking);
    }
  }

  private onAudio(packet: AudioPacket, arrivalMs: number): void {
    const userId = this.bySsrc.get(packet.ssrc);
    const remote = userId === undefined ? undefined : this.remotes.get(userId);
    if (remote === undefined || this.selfDeaf) return;
    const samples = this.context.codec.decode(packet.payload);
    if (samples !== undefined) remote.buffer.push(packet.sequence, packet.timestamp, samples, arrivalMs);
  }

  private onRemoteSpeaking(userId: string, speaking: boolean): void {
    const remote = this.remotes.get(userId);
    if (remote === undefined || remote.state.speaking === speaking) return;
    remote.state = { ...remote.state, speaking };
    this.speakingChanged(userId, speaking);
  }

  private upsert(participant: WireParticipant): void {
    const remote = this.remotes.get(participant.user_id);
    if (remote === undefined) {
      this.remotes.set(participant.user_id, { state: participant, buffer: new JitterBuffer(VOICE_FRAME_MS, VOICE_SAMPLE_RATE), volume: 100, localMute: false });
      this.bySsrc.set(participant.ssrc, participant.user_id);
      this.guard('participantChanged', () => this.participantCallback?.(participant.user_id, true));
      this.context.participantChanged(this.lobbyId, participant.user_id, true);
      if (participant.speaking) this.speakingChanged(participant.user_id, true);
      return;
    }
    const before = remote.state;
    remote.state = participant;
    if (before.self_mute !== participant.self_mute || before.self_deaf !== participant.self_deaf) this.guard('voiceStateChanged', () => this.voiceStateCallback?.(participant.user_id));
    if (before.speaking !== participant.speaking) this.speakingChanged(participant.user_id, participant.speaking);
  }

  private remove(userId: string): void {
    const remote = this.remotes.get(userId);
    if (remote === undefined) return;
    this.remotes.delete(userId);
    this.bySsrc.delete(remote.state.ssrc);
    if (remote.state.speaking) this.speakingChanged(userId, false);
    this.guard('participantChanged', () => this.participantCallback?.(userId, false));
    this.context.participantChanged(this.lobbyId, userId, false);
  }

  private speakingChanged(userId: string, speaking: boolean): void {
    this.guard('speakingStatusChanged', () => this.speakingCallback?.(userId, speaking));
  }

  private voiceStateChanged(): void {
    if (this.userId !== undefined) {
      const userId = this.userId;
      this.guard('voiceStateChanged', () => this.voiceStateCallback?.(userId));
    }
    if (this.status === CallStatus.Disconnected || this.status === CallStatus.Disconnecting || this.status === CallStatus.Joining) return;
    this.context.updateVoiceState(this.lobbyId, this.selfMute, this.selfDeaf).catch((error: unknown) => this.context.log(`the voice state could not be sent: ${(error as Error).message}`, 'warning'));
  }

  private onClosed(fatal: { readonly code: number; readonly reason: string } | null): void {
    if (fatal === null) return;
    this.context.log(`the voice connection ended: ${fatal.code} ${fatal.reason}`, 'warning');
    this.finish(fatal.code === 4004 || fatal.code === 4006 ? CallError.Forbidden : CallError.VoiceConnectionFailed, fatal.code);
  }

  private finish(error: CallError, detail: number): void {
    for (const userId of [...this.remotes.keys()]) this.remove(userId);
    this.setStatus(CallStatus.Disconnected, error, detail);
  }

  private setStatus(status: CallStatus, error: CallError = CallError.None, detail = 0): void {
    if (this.status === status) return;
    this.status = status;
    this.context.log(`call ${this.lobbyId}: ${callStatusName(status)}`, 'info');
    this.guard('statusChanged', () => this.statusCallback?.(status, error, detail));
    for (const waiter of [...this.waiters]) waiter();
  }

  private guard(callback: string, run: () => void): void {
    try {
      run();
    } catch (error) {
      this.context.callbackFailed(callback, error);
    }
  }
}
