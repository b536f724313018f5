import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { RpcServer } from '../../../../rpc/src/index.js';
import type { DoctorView } from '../../../../preload/src/contract.js';
import type { OAuthGrant } from '../../../../platform/src/wire/index.js';
import type { ConsentBroker } from '../auth/consent-broker.js';
import type { DetectionService } from '../detection/detection-service.js';
import type { OriginApprovals } from '../auth/origin-approvals.js';
import { ControlError, type LoginInput } from '../control/control-backend.js';
import { toConsentPromptView } from '../control/consent-views.js';
import type { FriendPresences } from '../presence/friend-presences.js';
import { PresenceSettingsError, type PresenceService, type PresenceSettingsPatch } from '../presence/presence-service.js';
import { RecorderBusyError, type HostRecorder } from '../record/host-recorder.js';
import type { PlatformSession } from '../session/platform-session.js';
import type { RelationshipActions } from '../social/relationship-actions.js';
import type { RelationshipBook } from '../social/relationship-book.js';
import type { DmReadState } from '../social/dm-read-state.js';
import type { SocialService } from '../social/social-service.js';
import { presenceSettingsView, presenceView, SNAPSHOT_OUTCOMES } from '../ui-bridge/presence-view.js';
import { recordingView } from '../ui-bridge/recording-view.js';
import type { WebUiBackend } from '../ui-bridge/web-ui-backend.js';
import { mapped } from './control-views.js';

/*
 * The control API's backend by concern: each function below gives the members of WebUiBackend
 * for one part of the host; startHostControl puts them together.
 */

type Members<K extends keyof WebUiBackend> = Pick<WebUiBackend, K>;

/** Friends, join requests and invites (the social service), and the account. */
export function socialActions(
  session: PlatformSession,
  friends: FriendPresences,
  social: SocialService,
  reads: DmReadState | undefined,
): Members<'friends' | 'joinRequests' | 'acceptJoinRequest' | 'declineJoinRequest' | 'invites' | 'acceptInvite' | 'declineInvite' | 'sendInvite' | 'requestToJoin' | 'conversations' | 'readConversation' | 'sendDm' | 'login' | 'logout'> {
  return {
    friends: () => friends.list().map((entry) => ({ user: entry.user, presence: { status: entry.presence.status, activities: entry.presence.activities } })),
    joinRequests: () =>
      social.joinRequests().map((request) => ({
        id: request.id,
        user: request.user,
        application_id: request.applicationId,
        channel_id: request.channelId,
        message_id: request.messageId,
        received_at: request.receivedAt,
      })),
    acceptJoinRequest: (id) => mapped(social.acceptJoinRequest(id)),
    declineJoinRequest: (id) => mapped(social.declineJoinRequest(id)),
    invites: () =>
      social.invites().map((invite) => ({
        id: invite.id,
        user: invite.user,
        application_id: invite.applicationId,
        activity: invite.activity,
        content: invite.content,
        channel_id: invite.channelId,
        message_id: invite.messageId,
        received_at: invite.receivedAt,
        expires_at: invite.expiresAt,
        valid: invite.valid,
      })),
    acceptInvite: (id) => mapped(social.acceptInvite(id)),
    declineInvite: (id) => mapped(Promise.resolve().then(() => social.declineInvite(id))),
    sendInvite: (input) => mapped(social.sendInvite(input)),
    requestToJoin: (input) => mapped(social.requestToJoin(input)),
    conversations: () =>
      social.conversations().map((conversation) => ({
        user_id: conversation.friendId,
        messages: conversation.messages.map((m) => ({
          id: m.id,
          author_id: m.authorId,
          content: m.content,
          application_id: m.applicationId,
          application_name: m.applicationId === null ? null : social.appNames.name(m.applicationId),
          at: m.at,
          edited_at: m.editedAt,
        })),
        unread: reads?.unread(conversation.friendId, conversation.messages) ?? 0,
      })),
    readConversation: (userId, showing) => reads?.read(userId, showing),
    sendDm: (userId, content) => mapped(social.sendDm(userId, content)),
    login: async (input: LoginInput) => {
      const user = await mapped(session.signIn(input, { retry: false }));
      return { user };
    },
    logout: () => session.signOut(),
  };
}

/** Friend requests and blocks: what the host's session knows of them, and the player's changes. */
export function relationshipActions(book: RelationshipBook, actions: RelationshipActions): Members<'relationships' | 'changeRelationship' | 'sendFriendRequest'> {
  return {
    relationships: () => book.list().map((entry) => ({ user: entry.user, type: entry.kind })),
    changeRelationship: (userId, action) => mapped(actions.change(userId, action)),
    sendFriendRequest: (username) => mapped(actions.sendFriendRequest(username)),
  };
}

/** Consent prompts, and the player's grants. */
export function authorizationActions(
  broker: ConsentBroker,
  server: RpcServer,
  grants: { readonly list: () => OAuthGrant[]; readonly revoke: (applicationId: string) => Promise<void> },
): Members<'consentRequests' | 'approveConsent' | 'denyConsent' | 'dismissConsent' | 'grants' | 'revokeGrant' | 'sendAuthorizeRequest'> {
  const decide = async (id: string, decision: 'approve' | 'deny' | 'dismiss'): Promise<void> => {
    if (!broker.decide(id, decision)) throw new ControlError(404, `No pending consent request ${id}`);
  };
  return {
    consentRequests: () => broker.pending().map(toConsentPromptView),
    approveConsent: (id) => decide(id, 'approve'),
    denyConsent: (id) => decide(id, 'deny'),
    dismissConsent: (id) => decide(id, 'dismiss'),
    grants: async () => grants.list(),
    revokeGrant: (applicationId) => mapped(grants.revoke(applicationId)),
    sendAuthorizeRequest: async (applicationId) => ({
      delivered: server.dispatch('AUTHORIZE_REQUEST', null, { to: (connection) => connection.clientId === applicationId }),
    }),
  };
}

/** Web origins of the RPC WebSocket and the player's answers. */
export function originActions(origins: OriginApprovals | undefined): Members<'originRequests' | 'originDecisions' | 'decideOrigin' | 'forgetOrigin'> {
  return {
    originRequests: () => origins?.pending() ?? [],
    originDecisions: () => origins?.decisions() ?? [],
    decideOrigin: async (id, decision) => {
      const found = origins === undefined ? false : decision === 'approve' ? await origins.approve(id) : origins.deny(id);
      if (!found) throw new ControlError(404, `No pending origin request ${id}`);
    },
    forgetOrigin: async (id) => {
      if (origins === undefined || !(await origins.forget(id))) throw new ControlError(404, `No origin decision ${id}`);
    },
  };
}

/** The recorder, started from the UI into `dir` (`<data dir>/recordings`). */
export function recordingActions(target: { readonly recorder: HostRecorder; readonly dir: string } | undefined): Members<'recording' | 'setRecording'> {
  return {
    recording: () => (target === undefined ? null : recordingView(target.recorder.status())),
    setRecording: async (on) => {
      if (target === undefined) throw new ControlError(409, 'this host has no recorder');
      if (!on) return recordingView(await target.recorder.stop());
      await mkdir(target.dir, { recursive: true, mode: 0o700 });
      const file = join(target.dir, `recording-${new Date().toISOString().replace(/[:.]/g, '-')}.rec`);
      try {
        return recordingView(await target.recorder.start(file, { secrets: false }));
      } catch (error) {
        if (error instanceof RecorderBusyError) throw new ControlError(409, error.message);
        throw error;
      }
    },
  };
}

/** Presence arbitration and privacy settings. */
export function presenceActions(presence: PresenceService | undefined): Members<'presence' | 'updatePresence'> {
  return {
    presence: (recentOutcomes = SNAPSHOT_OUTCOMES) => (presence === undefined ? null : presenceView(presence.view(recentOutcomes))),
    updatePresence: async (patch) => {
      if (presence === undefined) throw new ControlError(409, 'this host has no presence settings');
      try {
        return presenceSettingsView(await presence.updateSettings(patch as PresenceSettingsPatch));
      } catch (error) {
        if (error instanceof PresenceSettingsError) throw new ControlError(400, error.message);
        throw error;
      }
    },
  };
}

/** `companion doctor` in the host's environment (the UI's Settings panel). */
export function doctorAction(doctor: (() => Promise<DoctorView>) | undefined): Members<'doctor'> {
  return {
    doctor: async () => {
      if (doctor === undefined) throw new ControlError(409, 'this host does not run the doctor');
      return doctor();
    },
  };
}

/** Game detection: the games found running (control API), the Settings screen's list and its changes. */
export function detectionActions(detection: DetectionService | undefined): Partial<Pick<WebUiBackend, 'detectedGames' | 'detectionDiagnosis' | 'detection' | 'updateDetection' | 'runningPrograms' | 'addGame' | 'removeGame'>> {
  if (detection === undefined) return {};
  return {
    detectedGames: () => detection.running(),
    detectionDiagnosis: () => detection.diagnose(),
    detection: () => detection.view(),
    updateDetection: (patch) => detection.update(patch),
    runningPrograms: () => detection.runningPrograms(),
    addGame: (executable, name) => detection.addGame(executable, name),
    removeGame: (id) => detection.removeGame(id),
  };
}
