import type { DetectionPatch, DetectionView, DeviceCodePreviewView, DoctorView, RunningProgramView, InspectorCatchUp, PresencePatch, PresenceSettingsView, RecordingView, RelationshipAction, SettingsView, Snapshot, StatusView, VoiceView } from './views.js';

/**
 * The UI's calls (`invoke`): request/response, `args` in, `result` out (or an error with a
 * message). Every channel starts with `companion:`.
 *
 * Adding an action (e.g. `companion:set-recording`) touches the contract, one handler and the UI:
 *   1. here: its entry in `InvokeChannels` (args and result) and in `ACTION_NAMES`;
 *   2. preload/src/contract/schemas.ts: its argument schema in `CHANNEL_SCHEMAS`;
 *   3. main/src/host/ui-bridge/ui-actions.ts: its handler in `UI_ACTIONS`;
 *   4. renderer/src/store/app-store.ts: the store action, and the screen that calls it.
 * The compiler asks for 2 and 3 once 1 is written (each table must name every channel). The
 * Electron IPC guard, the web bridge and the preload pick the channel up from these tables.
 */
export interface InvokeChannels {
  /** The UI is ready: answers the current snapshot; pushes after it carry only what changed since. */
  'companion:ready': { args: []; result: Snapshot };
  'companion:decide-consent': { args: [id: string, decision: 'approve' | 'deny' | 'dismiss']; result: null };
  'companion:accept-join-request': { args: [id: string]; result: null };
  'companion:decline-join-request': { args: [id: string]; result: null };
  'companion:accept-invite': { args: [id: string]; result: { secret_delivered: boolean } };
  /** Forgets an invite: the protocol has no answer for declining one, so the sender is not told. */
  'companion:decline-invite': { args: [id: string]; result: null };
  'companion:request-to-join': { args: [userId: string, applicationId: string | null]; result: { joined: boolean } };
  'companion:send-invite': { args: [userId: string, applicationId: string | null]; result: { message_id: string } };
  /** A direct message to a friend, written in Companion. */
  'companion:send-dm': { args: [userId: string, content: string]; result: { message_id: string } };
  /**
   * The conversation with a friend is on screen (`showing`: open, the page visible and focused),
   * or has just left it: either way it is read up to its newest message (its `unread` becomes
   * 0). While showing, messages that arrive are read as they arrive (never counted or
   * announced) for READING_LEASE_MS; the UI calls again every READING_RENEW_MS while it shows it.
   */
  'companion:read-conversation': { args: [userId: string, showing: boolean]; result: null };
  /**
   * Changes a relationship on the platform (RelationshipAction): the host checks that there is
   * one to change (a request from them to accept or ignore, one to them to cancel, a friend to
   * remove, a blocked user to unblock) and refuses with a message naming the problem otherwise.
   */
  'companion:change-relationship': { args: [userId: string, action: RelationshipAction]; result: null };
  /**
   * A friend request by username (the platform's unique username, any case, an `@` before it
   * allowed). `accepted`: that user had asked the player first, so they are friends now.
   */
  'companion:send-friend-request': { args: [username: string]; result: { accepted: boolean } };
  'companion:revoke-grant': { args: [applicationId: string]; result: null };
  'companion:send-authorize-request': { args: [applicationId: string]; result: { delivered: number } };
  'companion:login': { args: [username: string]; result: StatusView };
  'companion:logout': { args: []; result: StatusView };
  'companion:update-settings': { args: [settings: Partial<SettingsView>]; result: SettingsView };
  /** Lets a web origin use the RPC WebSocket for that app, or refuses it. */
  'companion:decide-origin': { args: [id: string, decision: 'approve' | 'deny']; result: null };
  /** Forgets an origin answer: that page asks again next time. */
  'companion:forget-origin': { args: [id: string]; result: null };
  /** Runs `companion doctor` in the host's environment. */
  'companion:doctor': { args: []; result: DoctorView };
  /** Changes the presence settings (policy, pin, hide everything, per-app rules). */
  'companion:update-presence': { args: [patch: PresencePatch]; result: PresenceSettingsView };
  /**
   * Starts recording every frame to a new file the host names in its data directory (secrets
   * redacted), or stops. The UI never chooses the path.
   */
  'companion:set-recording': { args: [on: boolean]; result: RecordingView };
  /** The player mutes or deafens (either may be absent): the voice settings change, games subscribed to VOICE_SETTINGS_UPDATE hear it. */
  'companion:set-voice': { args: [patch: { readonly mute?: boolean | undefined; readonly deaf?: boolean | undefined }]; result: VoiceView };
  /**
   * The inspector is on screen: answers the frames still in the host's ring whose seq is above
   * `since` and the relay's recent outcomes (the UI replaces its own), and has frames and
   * outcomes pushed for INSPECTOR_LEASE_MS from now. The inspector calls it when it opens and
   * every INSPECTOR_RENEW_MS while it stays open.
   */
  'companion:watch-inspector': { args: [since: number]; result: InspectorCatchUp };
  /**
   * What a device flow's user code (typed or given by a game; case and the dash do not matter)
   * asks of the signed-in player. An unknown, expired or answered code is an error saying so.
   */
  'companion:preview-device-code': { args: [userCode: string]; result: DeviceCodePreviewView };
  /** Approves (`authorize`) or denies a device flow's user code with the signed-in player's account. */
  'companion:decide-device-code': { args: [userCode: string, authorize: boolean]; result: { approved: boolean } };
  /**
   * The window closed the "Link a device" screen a game opened (`companion:open-view`'s
   * `screen_id`): the player closed it, approved or denied. The host tells that game
   * (AUTHORIZE_DEVICE_SCREEN_CLOSED) and the other windows (`close-authorize-device`); a
   * screen already closed is nothing to do.
   */
  'companion:close-device-screen': { args: [screenId: string]; result: null };
  /** Game detection: the global switch, or one game shown to friends or not (kept in the host's `detection.json`). */
  'companion:update-detection': { args: [patch: DetectionPatch]; result: DetectionView };
  /** The running programs that are no known game (for "Add it"). */
  'companion:running-programs': { args: []; result: readonly RunningProgramView[] };
  /** Names a running program's executable as a game (a detectable entry kept on this machine). */
  'companion:add-game': { args: [executable: string, name: string]; result: DetectionView };
  /** Forgets a game the player added. */
  'companion:remove-game': { args: [id: string]; result: DetectionView };
}

export type InvokeChannel = keyof InvokeChannels;

/** One entry per channel: the compiler refuses a channel missing here. */
const ACTION_NAMES: { readonly [C in InvokeChannel]: true } = {
  'companion:ready': true,
  'companion:decide-consent': true,
  'companion:accept-join-request': true,
  'companion:decline-join-request': true,
  'companion:accept-invite': true,
  'companion:decline-invite': true,
  'companion:request-to-join': true,
  'companion:send-invite': true,
  'companion:send-dm': true,
  'companion:read-conversation': true,
  'companion:change-relationship': true,
  'companion:send-friend-request': true,
  'companion:revoke-grant': true,
  'companion:send-authorize-request': true,
  'companion:login': true,
  'companion:logout': true,
  'companion:update-settings': true,
  'companion:decide-origin': true,
  'companion:forget-origin': true,
  'companion:doctor': true,
  'companion:update-presence': true,
  'companion:set-recording': true,
  'companion:set-voice': true,
  'companion:watch-inspector': true,
  'companion:preview-device-code': true,
  'companion:decide-device-code': true,
  'companion:close-device-screen': true,
  'companion:update-detection': true,
  'companion:running-programs': true,
  'companion:add-game': true,
  'companion:remove-game': true,
};

export const INVOKE_CHANNELS = Object.keys(ACTION_NAMES) as readonly InvokeChannel[];

/** A call with its channel and arguments together (what the host dispatches on). */
export type InvokeCall = { readonly [C in InvokeChannel]: { readonly channel: C; readonly args: InvokeChannels[C]['args'] } }[InvokeChannel];
