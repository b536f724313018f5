import { randomBytes } from 'node:crypto';
import type { WireParticipant } from '../../../common/src/voice/voice-wire.js';
import { LobbyError } from '../lobbies/lobby-error.js';
import type { PlatformLogger } from '../support/logger.js';

/** What the call service needs of the lobbies. */
export interface CallLobbies {
  /** The lobby's application, or undefined for an unknown lobby. */
  applicationOf(lobbyId: string): string | undefined;
  isMember(lobbyId: string, userId: string): boolean;
  /** The members' ids (whose sessions hear of the call's voice states). */
  memberIds(lobbyId: string): readonly string[];
}

export interface CallServiceDeps {
  readonly lobbies: CallLobbies;
  /** A gateway dispatch to the users' sessions that see the lobby's application (as the lobby's own events). */
  readonly dispatch: (userIds: readonly string[], event: string, data: unknown, applicationId: string) => void;
  readonly now: () => number;
  readonly logger: PlatformLogger;
}

/** A participant's self mute and deaf, as the SDK sends them. */
export interface VoiceStateInput {
  readonly self_mute?: boolean | undefined;
  readonly self_deaf?: boolean | undefined;
}

interface Participant {
  readonly userId: string;
  readonly ssrc: number;
  /** What the participant's voice connection identifies with; valid while they are in the call. */
  readonly token: string;
  selfMute: boolean;
  selfDeaf: boolean;
  speaking: boolean;
}

interface CallState {
  readonly lobbyId: string;
  readonly applicationId: string;
  /** Epoch seconds of the first join. */
  readonly startedAt: number;
  readonly participants: Map<string, Participant>;
}

/** A call as the admin listing and the join answer show it. */
export interface WireCall {
  readonly lobby_id: string;
  readonly application_id: string;
  readonly started_at: number;
  readonly participants: WireParticipant[];
}

/** Who is told of a call's changes in-process: the voice server (its connections). */
export interface CallListener {
  participant(lobbyId: string, participant: WireParticipant): void;
  left(lobbyId: string, userId: string): void;
  speaking(lobbyId: string, userId: string, speaking: boolean): void;
}

/** The gateway event of a lobby call's voice state: VOICE_STATE_UPDATE, the lobby standing for guild and channel (CallInfoHandle::GuildId). */
export const CALL_VOICE_STATE_EVENT = 'VOICE_STATE_UPDATE';

/**
 * Calls in lobbies (the Social SDK's StartCall): one call per lobby, its participants lobby
 * members of the lobby's application, each with a voice state (self mute, self deaf; server
 * mute/deaf always false) and whether they speak. Joins, leaves and voice state changes reach
 * the lobby members' sessions as VOICE_STATE_UPDATE (guild_id and channel_id: the lobby's id,
 * plus `lobby_id` **(ours)**); speaking goes over the voice connection only, as on the real
 * platform. Calls live in memory and end with their last participant.
 */
export class CallService {
  private readonly calls = new Map<string, CallState>();
  private readonly byToken = new Map<string, { readonly lobbyId: string; readonly userId: string }>();
  private readonly listeners: CallListener[] = [];
  private nextSsrc = 1;

  constructor(private readonly deps: CallServiceDeps) {}

  listen(listener: CallListener): void {
    this.listeners.push(listener);
  }

  /**
   * Starts or joins the lobby's call as `userId` (a member of the lobby, which the route
   * resolved as one of the caller's application). Joining again keeps the participant (and
   * their token) and applies the voice state given.
   */
  join(lobbyId: string, userId: string, input: VoiceStateInput): { readonly call: WireCall; readonly token: string } {
    const applicationId = this.deps.lobbies.applicationOf(lobbyId);
    if (applicationId === undefined) throw new LobbyError('unknown_lobby', `Unknown Lobby ${lobbyId}`);
    if (!this.deps.lobbies.isMember(lobbyId, userId)) throw new LobbyError('missing_access', 'You are not a member of this lobby');
    let call = this.calls.get(lobbyId);
    if (call === undefined) {
      call = { lobbyId, applicationId, startedAt: Math.floor(this.deps.now() / 1000), participants: new Map() };
      this.calls.set(lobbyId, call);
    }
    let participant = call.participants.get(userId);
    if (participant === undefined) {
      participant = { userId, ssrc: this.nextSsrc++, token: randomBytes(24).toString('base64url'), selfMute: false, selfDeaf: false, speaking: false };
      call.participants.set(userId, participant);
      this.byToken.set(participant.token, { lobbyId, userId });
      this.deps.logger.debug({ lobbyId, userId }, 'call joined');
    }
    this.apply(participant, input);
    this.changed(call, participant);
    return { call: this.view(call), token: participant.token };
  }

  /** Changes the participant's self mute/deaf; refused when they are not in the call. */
  update(lobbyId: string, userId: string, input: VoiceStateInput): WireParticipant {
    const call = this.calls.get(lobbyId);
    const participant = call?.participants.get(userId);
    if (call === undefined || participant === undefined) throw new LobbyError('missing_access', 'You are not in this lobby call');
    this.apply(participant, input);
    this.changed(call, participant);
    return participantView(participant);
  }

  /** Leaves the call; safe when not in it. The last one out ends it. */
  leave(lobbyId: string, userId: string): void {
    const call = this.calls.get(lobbyId);
    const participant = call?.participants.get(userId);
    if (call === undefined || participant === undefined) return;
    call.participants.delete(userId);
    this.byToken.delete(participant.token);
    if (call.participants.size === 0) this.calls.delete(lobbyId);
    this.deps.logger.debug({ lobbyId, userId }, 'call left');
    for (const listener of this.listeners) listener.left(lobbyId, userId);
    this.publish(call, this.gatewayState(call, participant, null));
  }

  /** A lobby member left (or the lobby went: `userId` null): they leave its call. */
  memberGone(lobbyId: string, userId: string | null): void {
    const call = this.calls.get(lobbyId);
    if (call === undefined) return;
    for (const id of userId === null ? [...call.participants.keys()] : [userId]) this.leave(lobbyId, id);
  }

  /** What a voice connection's token stands for, or undefined. */
  participantOf(token: string): { readonly lobbyId: string; readonly userId: string; readonly ssrc: number } | undefined {
    const found = this.byToken.get(token);
    const participant = found === undefined ? undefined : this.calls.get(found.lobbyId)?.participants.get(found.userId);
    return found === undefined || participant === undefined ? undefined : { ...found, ssrc: participant.ssrc };
  }

  /** The participant's state now (the voice server reads mute and deaf per packet). */
  state(lobbyId: string, userId: string): WireParticipant | undefined {
    const participant = this.calls.get(lobbyId)?.participants.get(userId);
    return participant === undefined ? undefined : participantView(participant);
  }

  /** The participant started or stopped speaking (their voice connection said). */
  setSpeaking(lobbyId: string, userId: string, speaking: boolean): void {
    const participant = this.calls.get(lobbyId)?.participants.get(userId);
    if (participant === undefined || participant.speaking === speaking) return;
    participant.speaking = speaking;
    for (const listener of this.listeners) listener.speaking(lobbyId, userId, speaking);
  }

  call(lobbyId: string): WireCall | undefined {
    const call = this.calls.get(lobbyId);
    return call === undefined ? undefined : this.view(call);
  }

  /** Every call, or an application's (the admin listing). */
  list(applicationId?: string): WireCall[] {
    return [...this.calls.values()].filter((call) => applicationId === undefined || call.applicationId === applicationId).map((call) => this.view(call));
  }

  private apply(participant: Participant, input: VoiceStateInput): void {
    if (input.self_mute !== undefined) participant.selfMute = input.self_mute;
    if (input.self_deaf !== undefined) participant.selfDeaf = input.self_deaf;
  }

  private changed(call: CallState, participant: Participant): void {
    const view = participantView(participant);
    for (const listener of this.listeners) listener.participant(call.lobbyId, view);
    this.publish(call, this.gatewayState(call, participant, call.lobbyId));
  }

  private publish(call: CallState, state: unknown): void {
    this.deps.dispatch(this.deps.lobbies.memberIds(call.lobbyId), CALL_VOICE_STATE_EVENT, state, call.applicationId);
  }

  /** The VOICE_STATE_UPDATE of a lobby call; `channelId` null when the participant left. */
  private gatewayState(call: CallState, participant: Participant, channelId: string | null): Record<string, unknown> {
    return {
      guild_id: call.lobbyId,
      channel_id: channelId,
      lobby_id: call.lobbyId,
      user_id: participant.userId,
      deaf: false,
      mute: false,
      self_deaf: participant.selfDeaf,
      self_mute: participant.selfMute,
      self_stream: false,
      self_video: false,
      suppress: false,
      request_to_speak_timestamp: null,
    };
  }

  private view(call: CallState): WireCall {
    return { lobby_id: call.lobbyId, application_id: call.applicationId, started_at: call.startedAt, participants: [...call.participants.values()].map(participantView) };
  }
}

function participantView(participant: Participant): WireParticipant {
  return { user_id: participant.userId, ssrc: participant.ssrc, self_mute: participant.selfMute, self_deaf: participant.selfDeaf, mute: false, deaf: false, speaking: participant.speaking };
}
