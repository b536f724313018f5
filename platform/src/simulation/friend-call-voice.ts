import type { WireParticipant } from '../../../common/src/voice/voice-wire.js';
import type { CallService } from '../calls/call-service.js';
import { LobbyError } from '../lobbies/lobby-error.js';
import type { UserRecord } from '../state/model.js';
import { StateError, type Store } from '../state/store.js';
import type { PlatformLogger } from '../support/logger.js';
import type { FriendCall } from './friend-call.js';
import { PcmFrames } from './friend-call-player.js';
import { toneFrames } from './friend-call.js';
import type { FriendVoiceAction } from './friend-voice.js';

export interface FriendCallRequest {
  readonly as: string;
  readonly action: FriendVoiceAction;
  readonly lobbyId: string;
  /** `speak`: a tone of this frequency (440 Hz by default)... */
  readonly frequencyHz?: number;
  /** ...for this long (1 s by default). */
  readonly durationMs?: number;
  /** `speak`: samples to play instead (48 kHz mono 16-bit), queued after what plays. */
  readonly pcm?: Int16Array;
}

/** The friend's place in the call after the action (null: not in it) and whether they speak. */
export interface FriendCallOutcome {
  readonly user_id: string;
  readonly lobby_id: string;
  readonly voice_state: WireParticipant | null;
  readonly speaking: boolean;
  /** `speak`: when what is queued ends (epoch ms). */
  readonly speaking_until?: number;
}

/**
 * The simulated friend's `friend voice` actions in a lobby call (QA, issue 29 §1): the same
 * actions as in a server voice channel, with audio that really plays into the call. The friend
 * must be a member of the lobby (403 50001 naming them otherwise).
 */
export class FriendCallVoice {
  constructor(private readonly deps: { readonly store: Store; readonly calls: CallService; readonly friend: FriendCall; readonly logger: PlatformLogger; readonly now: () => number }) {}

  act(request: FriendCallRequest): FriendCallOutcome {
    const user = this.user(request.as);
    const { friend } = this.deps;
    const lobbyId = request.lobbyId;
    switch (request.action) {
      case 'join':
        this.join(user, lobbyId);
        break;
      case 'speak':
        return this.speak(user, request);
      case 'quiet':
        this.connected(user, lobbyId);
        friend.quiet(user.id, lobbyId);
        break;
      case 'mute':
      case 'unmute':
        this.connected(user, lobbyId);
        friend.setVoiceState(user.id, lobbyId, { selfMute: request.action === 'mute' });
        break;
      case 'deaf':
      case 'undeaf':
        this.connected(user, lobbyId);
        friend.setVoiceState(user.id, lobbyId, { selfDeaf: request.action === 'deaf' });
        break;
      case 'leave':
        friend.leave(user.id, lobbyId);
        this.deps.logger.info({ userId: user.id, lobbyId }, 'simulated friend left a lobby call');
        break;
    }
    return this.outcome(user.id, lobbyId);
  }

  private join(user: UserRecord, lobbyId: string): void {
    try {
      this.deps.friend.join(user.id, lobbyId);
    } catch (error) {
      if (error instanceof LobbyError && error.reason === 'missing_access') {
        throw new LobbyError('missing_access', `${user.username} is not a member of lobby ${lobbyId}: the friend joins a lobby's call only as a member (have a game of theirs join the lobby, or the application add them with PUT /lobbies/{id}/members/{user})`);
      }
      throw error;
    }
    this.deps.logger.info({ userId: user.id, lobbyId }, 'simulated friend joined a lobby call');
  }

  private speak(user: UserRecord, request: FriendCallRequest): FriendCallOutcome {
    const state = this.connected(user, request.lobbyId);
    if (state.self_mute || state.self_deaf) throw new StateError('invalid', `${user.username} is muted or deafened: unmute first (a muted user sends no voice)`, 'as');
    const source = request.pcm === undefined ? toneFrames({ ...(request.frequencyHz === undefined ? {} : { frequencyHz: request.frequencyHz }), ...(request.durationMs === undefined ? {} : { durationMs: request.durationMs }) }) : new PcmFrames(request.pcm);
    void this.deps.friend.play(user.id, request.lobbyId, source);
    const { remainingMs } = this.deps.friend.speaking(user.id, request.lobbyId);
    return { ...this.outcome(user.id, request.lobbyId), speaking: true, speaking_until: this.deps.now() + remainingMs };
  }

  /** The friend's participant in the call, held by their simulated voice connection; else a clear error. */
  private connected(user: UserRecord, lobbyId: string): WireParticipant {
    const state = this.deps.calls.state(lobbyId, user.id);
    if (state === undefined || !this.deps.friend.inCall(user.id, lobbyId)) throw new StateError('invalid', `${user.username} is not in lobby ${lobbyId}'s call as the simulated friend: join it first`, 'as');
    return state;
  }

  private outcome(userId: string, lobbyId: string): FriendCallOutcome {
    return { user_id: userId, lobby_id: lobbyId, voice_state: this.deps.calls.state(lobbyId, userId) ?? null, speaking: this.deps.friend.speaking(userId, lobbyId).speaking };
  }

  private user(idOrName: string): UserRecord {
    const user = this.deps.store.user(idOrName) ?? this.deps.store.userByName(idOrName);
    if (user === undefined) throw new StateError('not_found', `Unknown user '${idOrName}'`, 'as');
    return user;
  }
}
