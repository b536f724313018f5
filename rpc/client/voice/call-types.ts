/** Call::Status of the Social SDK, with its numbers. */
export const CallStatus = { Disconnected: 0, Joining: 1, Connecting: 2, SignalingConnected: 3, Connected: 4, Reconnecting: 5, Disconnecting: 6 } as const;
export type CallStatus = (typeof CallStatus)[keyof typeof CallStatus];

/** Call::Error of the Social SDK. */
export const CallError = { None: 0, SignalingConnectionFailed: 1, SignalingUnexpectedClose: 2, VoiceConnectionFailed: 3, JoinTimeout: 4, Forbidden: 5 } as const;
export type CallError = (typeof CallError)[keyof typeof CallError];

/** AudioModeType of the Social SDK: voice activity detection or push to talk. */
export const AudioModeType = { Uninit: 0, VAD: 1, PTT: 2 } as const;
export type AudioModeType = (typeof AudioModeType)[keyof typeof AudioModeType];

export function callStatusName(status: CallStatus): string {
  return (Object.keys(CallStatus) as (keyof typeof CallStatus)[]).find((key) => CallStatus[key] === status) ?? String(status);
}

/** Call::OnStatusChanged: the status, the error that caused it (None when asked for) and a detail (the close code). */
export type CallStatusChangedCallback = (status: CallStatus, error: CallError, errorDetail: number) => void;
/** Call::OnParticipantChanged: a participant joined (`added`) or left. */
export type CallParticipantChangedCallback = (userId: string, added: boolean) => void;
/** Call::OnSpeakingStatusChanged: whether the user is now playing sound (speaking). */
export type CallSpeakingChangedCallback = (userId: string, isPlayingSound: boolean) => void;
/** Call::OnVoiceStateChanged: the user's voice state (self mute, self deaf) changed. */
export type CallVoiceStateChangedCallback = (userId: string) => void;

/**
 * Client::UserAudioReceivedCallback: one participant's 20 ms of 16-bit PCM about to be played
 * (after their volume), `samplesPerChannel` per channel at `sampleRate`. The samples may be
 * changed in place; answering `true` mutes them (the Social SDK's outShouldMute).
 */
export type UserAudioReceivedCallback = (userId: string, data: Int16Array, samplesPerChannel: number, sampleRate: number, channels: number) => boolean | void;
/** Client::UserAudioCapturedCallback: the 20 ms of input about to be sent (changeable in place). */
export type UserAudioCapturedCallback = (data: Int16Array, samplesPerChannel: number, sampleRate: number, channels: number) => void;

/** VoiceStateHandle: a participant's self mute and self deaf (a live view: it follows the changes). */
export interface VoiceStateHandle {
  selfMute(): boolean;
  selfDeaf(): boolean;
}

/** Client::VoiceParticipantChangedCallback: a participant joined or left a call of the game. */
export type VoiceParticipantChangedCallback = (lobbyId: string, memberId: string, added: boolean) => void;
