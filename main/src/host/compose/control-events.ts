import type { RpcServer } from '../../../../rpc/src/index.js';
import { OAuthGatewayEvent } from '../../../../platform/src/wire/index.js';
import type { ConsentBroker } from '../auth/consent-broker.js';
import type { GrantCache } from '../auth/grant-cache.js';
import type { OriginApprovals } from '../auth/origin-approvals.js';
import type { ControlEvent } from '../control/control-backend.js';
import type { DetectionService } from '../detection/detection-service.js';
import type { DetectedGame } from '../detection/game-detector.js';
import { consentControlEvents } from '../control/consent-views.js';
import { originControlEvents } from '../control/origin-routes.js';
import { presenceControlEvents } from '../control/presence-routes.js';
import type { FriendPresences } from '../presence/friend-presences.js';
import type { PresenceService } from '../presence/presence-service.js';
import type { HostRecorder } from '../record/host-recorder.js';
import type { PlatformSession } from '../session/platform-session.js';
import type { RelationshipBook } from '../social/relationship-book.js';
import type { SocialService } from '../social/social-service.js';
import type { OpenInCompanion } from '../social/open-in-companion.js';
import type { VoicePanel } from '../voice/voice-panel.js';
import { recordingView } from '../ui-bridge/recording-view.js';
import { gatewayState, withoutSecrets } from './control-views.js';

/** A detection event's data: the game, the executable that matched, the process. */
function detectionEventData(game: DetectedGame): Record<string, unknown> {
  return { application_id: game.applicationId, name: game.name, executable: game.executable, path: game.path, pid: game.pid, started_at: game.startedAt };
}

/** The host's parts whose changes the control API streams as events. */
export interface ControlEventSources {
  readonly session: PlatformSession;
  readonly server: RpcServer;
  readonly friends: FriendPresences;
  readonly social: SocialService;
  readonly relationships: RelationshipBook;
  readonly broker: ConsentBroker;
  readonly grants: GrantCache;
  readonly origins?: OriginApprovals | undefined;
  readonly presence?: PresenceService | undefined;
  readonly recorder?: HostRecorder | undefined;
  /** Views games asked Companion to show (`open-view`). */
  readonly opens?: OpenInCompanion | undefined;
  /** Game detection: a game found running (`detection-start`), one that exited (`detection-end`), a setting (`detection`). */
  readonly detection?: DetectionService | undefined;
  /** The player's voice channel and mute/deafen (`voice`, with the view). */
  readonly voice?: VoicePanel | undefined;
}

/** The control API's event stream: whoever subscribed gets every event the host's parts publish. */
export class ControlEvents {
  private readonly listeners = new Set<(event: ControlEvent) => void>();

  get watched(): boolean {
    return this.listeners.size > 0;
  }

  readonly publish = (event: ControlEvent): void => {
    for (const listener of this.listeners) listener(event);
  };

  readonly subscribe = (listener: (event: ControlEvent) => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Publishes what the sources tell, for the host's lifetime. */
  follow(sources: ControlEventSources): void {
    const { session, server, friends, social } = sources;
    const publish = this.publish;
    session.on('status', (status) => publish({ type: 'gateway', data: { status: gatewayState(status.status), detail: status.detail } }));
    session.on('account', (user) => publish({ type: 'account', data: user === null ? null : { user } }));
    friends.on('change', (change) => publish({ type: 'friends', data: change }));
    sources.relationships.on('change', () => publish({ type: 'relationships', data: null }));
    social.on('change', (change) => publish({ type: change.type, data: change.data }));
    sources.opens?.on('open', (request) => publish({ type: 'open-view', data: request }));
    const voice = sources.voice;
    voice?.on('change', () => {
      if (this.watched) publish({ type: 'voice', data: voice.view() });
    });
    consentControlEvents(sources.broker, publish);
    if (sources.origins !== undefined) originControlEvents(sources.origins, publish);
    if (sources.presence !== undefined) presenceControlEvents(sources.presence, publish);
    const detection = sources.detection;
    detection?.on('start', (game) => publish({ type: 'detection-start', data: detectionEventData(game) }));
    detection?.on('end', (game) => publish({ type: 'detection-end', data: detectionEventData(game) }));
    detection?.on('change', () => publish({ type: 'detection', data: null }));
    const recorder = sources.recorder;
    recorder?.on('status', () => publish({ type: 'recording', data: recordingView(recorder.status()) }));
    // The grant cache changes after the gateway's event (queued writes): tell once it is done.
    session.on('dispatch', (t) => {
      if ((t === OAuthGatewayEvent.GrantCreate || t === OAuthGatewayEvent.GrantDelete) && this.watched) {
        void sources.grants.flush().then(() => publish({ type: 'grants', data: null }));
      }
    });
    server.on('ready', (connection) => publish({ type: 'game-connected', data: { connection_id: connection.id, client_id: connection.clientId } }));
    server.on('disconnect', (connection) => publish({ type: 'game-disconnected', data: { connection_id: connection.id } }));
    // What a game can be asked for changed (Link account needs AUTHORIZE_REQUEST).
    server.on('subscribe', (connection, subscription) => {
      if (subscription.evt === 'AUTHORIZE_REQUEST') publish({ type: 'game-subscribed', data: { connection_id: connection.id, evt: subscription.evt } });
    });
    // On the SET_ACTIVITY path: build the event only when someone streams events.
    server.on('activity', (change) => {
      if (this.watched) publish({ type: 'game-activity', data: { connection_id: change.connection.id, activity: withoutSecrets(change.activity) } });
    });
  }
}
