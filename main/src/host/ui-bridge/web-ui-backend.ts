import type {
  DetectionPatch,
  DetectionView,
  RunningProgramView,
  ConversationView,
  DeviceScreenView,
  DoctorView,
  OriginDecisionView,
  OriginRequestView,
  PresencePatch,
  PresenceSettingsView,
  PresenceView,
  RecordingView,
  RelationshipAction,
  VoiceView,
} from '../../../../preload/src/contract.js';
import type { DeviceVerifyPreview } from '../../../../platform/src/wire/index.js';
import type { ControlBackend } from '../control/control-backend.js';

/** The control backend plus what only the UI does (the host implements it; the UI bridge maps the contract onto it). */
export interface WebUiBackend extends ControlBackend {
  /**
   * Dismisses a pending consent request (the player closed the prompt): the game gets the
   * cancellation error. Throws a ControlError 404 when no pending request has that id.
   */
  dismissConsent(id: string): Promise<void>;
  /** Web pages waiting for the player's answer before they may use the RPC WebSocket. */
  originRequests(): readonly OriginRequestView[];
  /** The answers given (approved ones are remembered across runs). */
  originDecisions(): readonly OriginDecisionView[];
  /** Answers an origin request; ControlError 404 when no pending request has that id. */
  decideOrigin(id: string, decision: 'approve' | 'deny'): Promise<void>;
  /** Forgets an answer, so that origin asks again; ControlError 404 when unknown. */
  forgetOrigin(id: string): Promise<void>;
  /** `companion doctor` in the host's environment. */
  doctor(): Promise<DoctorView>;
  /**
   * Arbitration, privacy and relay outcomes (the last `recentOutcomes` of them, by default the
   * snapshot's count); null when the host has no presence service.
   */
  presence(recentOutcomes?: number): PresenceView | null;
  /** Applies a presence patch; a ControlError 400 names a field it cannot apply. */
  updatePresence(patch: PresencePatch): Promise<PresenceSettingsView>;
  /** The recorder's state; null when the host has none. */
  recording(): RecordingView | null;
  /** Starts a recording in the host's recordings directory, or stops it. */
  setRecording(on: boolean): Promise<RecordingView>;
  /** Direct messages with friends, the most recent conversation first, each with its unread count. */
  conversations(): readonly ConversationView[];
  /** A UI shows the conversation with that user (`showing`) or stopped showing it: read up to its newest message (DmReadState). */
  readConversation(userId: string, showing: boolean): void;
  /** Sends a friend a direct message written in Companion; ControlError 404 for someone who is not a friend. */
  sendDm(userId: string, content: string): Promise<{ message_id: string }>;
  /**
   * Changes a relationship on the platform; an error with a status (404: nothing of that kind
   * to change, 400: the player themselves, 503: signed out or the platform unreachable) and a
   * message naming the problem otherwise.
   */
  changeRelationship(userId: string, action: RelationshipAction): Promise<void>;
  /** A friend request by username; `accepted`: they had asked first (friends now). Errors as changeRelationship (404: no user of that name). */
  sendFriendRequest(username: string): Promise<{ accepted: boolean }>;
  /** What a device flow's user code asks of the signed-in player; ControlError 404 `unknown_code` when unknown, expired or answered, 409 when signed out. */
  previewDeviceCode(userCode: string): Promise<DeviceVerifyPreview>;
  /** Approves or denies a device flow's user code with the signed-in player's account (errors as previewDeviceCode). */
  decideDeviceCode(userCode: string, authorize: boolean): Promise<{ approved: boolean }>;
  /** The window closed the "Link a device" screen a game opened (its `screen_id`): that game is told. */
  closeDeviceScreen(screenId: string): void;
  /** The "Link a device" screen a game has open now, null when none is (a window that opens later shows it). */
  deviceScreen(): DeviceScreenView | null;
  /** Game detection for the Settings screen; absent on a host without it. */
  detection?(): DetectionView | null;
  /** The global switch or one game's; a ControlError 400 names what it cannot apply. */
  updateDetection?(patch: DetectionPatch): Promise<DetectionView>;
  /** Running programs that are no known game ("Add it"). */
  runningPrograms?(): Promise<readonly RunningProgramView[]>;
  /** Names a program as a game (a detectable entry kept on this machine). */
  addGame?(executable: string, name: string): Promise<DetectionView>;
  /** Forgets a game the player added. */
  removeGame?(id: string): Promise<DetectionView>;
  /** The player's voice channel and mute/deafen; absent or null when the host has no voice side. */
  voice?(): VoiceView | null;
  /** The player mutes or deafens (the voice settings); answers the voice view after it. ControlError 409 without a voice side. */
  setVoice?(patch: { readonly mute?: boolean | undefined; readonly deaf?: boolean | undefined }): VoiceView;
}
