import { randomBytes } from 'node:crypto';
import type { PresenceHub } from '../gateway/presence.js';
import type { Session } from '../gateway/session.js';
import type { SessionRegistry } from '../gateway/sessions.js';
import { declineDmRequest, postDmMessage, type DmMessageDeps } from '../invites/dm-messages.js';
import { isJoinable, type InviteService } from '../invites/invites.js';
import type { PlatformLogger } from '../support/logger.js';
import type { AppRecord, ChannelRecord, MessageRecord, UserRecord } from '../state/model.js';
import { StateError, type Store } from '../state/store.js';
import { ActivityFlags } from '../../../common/src/activity-flags.js';
import { MessageActivityType, type PlatformMessage, type PresenceStatus, type PresenceUpdateEvent, type WireActivity } from '../wire/index.js';

export interface FriendSimulatorDeps {
  readonly store: Store;
  readonly sessions: SessionRegistry;
  readonly presence: PresenceHub;
  readonly invites: InviteService;
  readonly now: () => number;
  readonly logger: PlatformLogger;
  /** The app for an id, or undefined (a look-up never registers one). */
  readonly resolveApp: (id: string) => AppRecord | undefined;
}

/** What the simulated friend answered: `join-request` accepted with an invite, or an `invite` accepted. */
export interface AcceptOutcome {
  readonly accepted: 'join-request' | 'invite';
  readonly message_id: string;
  readonly application_id: string;
  /** The invite the friend sent back to a join request. */
  readonly invite_message_id?: string;
}

export interface DeclineOutcome {
  readonly declined: 'join-request' | 'invite';
  readonly message_id: string;
  /** Whether the other side is told (a declined join request is; an ignored invite is not, as on the real service). */
  readonly told: boolean;
}

/**
 * A second user driven by the admin API instead of a client of its own: QA on one machine can
 * have a friend who plays, asks to join, invites, and accepts or declines. The friend's
 * presence lives in a gateway session that no socket holds (its dispatches are buffered and
 * dropped), so friends see it like any other; everything else goes through the same code as
 * the HTTP API (DM messages, invites, joins).
 */
export class FriendSimulator {
  private readonly simulated = new Map<string, Session>();
  /** Join requests the simulated friend has answered (by message id), so the next accept takes a newer one. */
  private readonly answered = new Set<string>();

  constructor(private readonly deps: FriendSimulatorDeps) {}

  /** Sets the friend's presence: `activity` null clears it; `status` offline ends the simulated session. */
  setPresence(as: string, input: { readonly status?: PresenceStatus; readonly activity: WireActivity | null }): { session_id: string | null; presence: PresenceUpdateEvent | null } {
    const user = this.user(as, 'as');
    const status = input.status ?? 'online';
    if (status === 'offline') {
      this.goOffline(user.id);
      return { session_id: null, presence: this.deps.presence.view(user.id) ?? null };
    }
    const activities = input.activity === null ? [] : [this.completeActivity(input.activity)];
    const session = this.sessionOf(user.id);
    this.deps.presence.apply(session, { since: null, activities, status, afk: false }, this.deps.now());
    this.deps.logger.info({ userId: user.id, activities: activities.length, status }, 'simulated friend presence set');
    return { session_id: session.id, presence: this.deps.presence.view(user.id) ?? null };
  }

  /** The friend asks `to` to join their party (a JOIN_REQUEST message); `to`'s activity for the app must be joinable. */
  askToJoin(as: string, to: string, applicationId?: string): PlatformMessage {
    const [friend, target] = this.pair(as, to);
    const appId = applicationId ?? this.joinableAppOf(target);
    const channel = this.deps.store.openDm(friend.id, target.id).channel;
    const message = postDmMessage(this.messageDeps(), friend, channel, { activity: { type: MessageActivityType.JoinRequest }, application_id: appId });
    this.deps.logger.info({ userId: friend.id, to: target.id, applicationId: appId }, 'simulated friend asked to join');
    return message;
  }

  /**
   * The friend invites `to` to their party (a JOIN message). Without a joinable activity for
   * the app, the friend first starts one (a party of 1/4 with a fresh join secret).
   */
  invite(as: string, to: string, applicationId: string, content?: string): PlatformMessage {
    const [friend, target] = this.pair(as, to);
    if (this.deps.resolveApp(applicationId) === undefined) throw new StateError('not_found', `Unknown application ${applicationId}`, 'application_id');
    let activity = this.deps.presence.activityFor(friend.id, applicationId);
    if (!isJoinable(activity)) {
      this.setPresence(friend.id, { activity: this.defaultParty(applicationId) });
      activity = this.deps.presence.activityFor(friend.id, applicationId);
    }
    const partyId = activity?.party?.id;
    const channel = this.deps.store.openDm(friend.id, target.id).channel;
    const message = postDmMessage(this.messageDeps(), friend, channel, {
      content: content ?? '',
      activity: { type: MessageActivityType.Join, party_id: partyId },
      application_id: applicationId,
    });
    this.deps.logger.info({ userId: friend.id, to: target.id, applicationId }, 'simulated friend sent an invite');
    return message;
  }

  /**
   * The friend says yes to the newest open item `to` sent them (or the one named): a join
   * request is answered with an invite to the friend's party; an invite is accepted (the
   * platform hands the friend the join secret, which is not returned) and the friend shows as
   * playing in that party.
   */
  accept(as: string, to: string, options: { readonly messageId?: string; readonly applicationId?: string } = {}): AcceptOutcome {
    const [friend, target] = this.pair(as, to);
    const { message, channel } = this.pending(friend, target, options);
    const applicationId = message.application_id as string;
    if (message.activity?.type === MessageActivityType.JoinRequest) {
      const activity = this.deps.presence.activityFor(friend.id, applicationId);
      if (!isJoinable(activity)) {
        throw new StateError('invalid', `${friend.username} has no joinable activity for ${applicationId}: set one first (friend presence)`, 'as');
      }
      const invite = postDmMessage(this.messageDeps(), friend, channel, {
        activity: { type: MessageActivityType.Join, party_id: activity.party.id },
        application_id: applicationId,
      });
      this.answered.add(message.id);
      this.deps.logger.info({ userId: friend.id, to: target.id, applicationId }, 'simulated friend accepted a join request');
      return { accepted: 'join-request', message_id: message.id, application_id: applicationId, invite_message_id: invite.id };
    }
    this.deps.invites.join(friend, target.id, applicationId, message.id, this.simulated.get(friend.id)?.id);
    this.answered.add(message.id);
    const joined = message.invite_activity;
    if (joined !== undefined) {
      const { session_id: _sessionId, ...activity } = joined;
      this.setPresence(friend.id, { activity: { ...activity, application_id: applicationId } });
    }
    this.deps.logger.info({ userId: friend.id, to: target.id, applicationId }, 'simulated friend accepted an invite');
    return { accepted: 'invite', message_id: message.id, application_id: applicationId };
  }

  /** The friend says no to the newest open item `to` sent them (or the one named). */
  decline(as: string, to: string, options: { readonly messageId?: string; readonly applicationId?: string } = {}): DeclineOutcome {
    const [friend, target] = this.pair(as, to);
    const { message, channel } = this.pending(friend, target, options);
    this.answered.add(message.id);
    if (message.activity?.type === MessageActivityType.JoinRequest) {
      declineDmRequest(this.messageDeps(), friend, channel, message.id);
      this.deps.logger.info({ userId: friend.id, to: target.id }, 'simulated friend declined a join request');
      return { declined: 'join-request', message_id: message.id, told: true };
    }
    return { declined: 'invite', message_id: message.id, told: false };
  }

  /** Ends every simulated session (the emulator is closing). */
  close(): void {
    for (const userId of [...this.simulated.keys()]) this.goOffline(userId);
  }

  private goOffline(userId: string): void {
    const session = this.simulated.get(userId);
    this.simulated.delete(userId);
    if (session === undefined || session.ended) return;
    this.deps.sessions.remove(session);
    this.deps.presence.publish(userId);
  }

  private sessionOf(userId: string): Session {
    const existing = this.simulated.get(userId);
    if (existing !== undefined && !existing.ended) return existing;
    const session = this.deps.sessions.create(userId);
    this.simulated.set(userId, session);
    return session;
  }

  /** The join request or invite `target` sent `friend` that is still open, newest first. */
  private pending(friend: UserRecord, target: UserRecord, options: { readonly messageId?: string; readonly applicationId?: string }): { message: MessageRecord; channel: ChannelRecord } {
    const { store } = this.deps;
    const candidates = store
      .messagesTo(friend.id, target.id)
      .filter((message) => {
        const type = message.activity?.type;
        if (type === MessageActivityType.JoinRequest) return message.activity?.declined !== true;
        return type === MessageActivityType.Join && this.deps.invites.isValidInvite(message);
      })
      .filter((message) => options.applicationId === undefined || message.application_id === options.applicationId);
    const message =
      options.messageId === undefined
        ? candidates.filter((candidate) => !this.answered.has(candidate.id)).at(-1)
        : candidates.find((candidate) => candidate.id === options.messageId);
    if (message === undefined) {
      const what = options.messageId === undefined ? 'no open join request or invite' : `no open join request or invite ${options.messageId}`;
      throw new StateError('not_found', `${what} from ${target.username} to ${friend.username}`, 'message_id');
    }
    const channel = store.channel(message.channel_id) as ChannelRecord;
    return { message, channel };
  }

  private pair(as: string, to: string): [UserRecord, UserRecord] {
    const friend = this.user(as, 'as');
    const target = this.user(to, 'to');
    if (friend.id === target.id) throw new StateError('invalid', 'the simulated friend and the other user are the same user', 'to');
    if (!this.deps.store.areFriends(friend.id, target.id)) {
      throw new StateError('invalid', `${friend.username} and ${target.username} are not friends (companion platform friends add ${friend.username} ${target.username})`, 'to');
    }
    return [friend, target];
  }

  private user(idOrName: string, field: string): UserRecord {
    const user = this.deps.store.user(idOrName) ?? this.deps.store.userByName(idOrName);
    if (user === undefined) throw new StateError('not_found', `Unknown user '${idOrName}'`, field);
    return user;
  }

  /** The application of `user`'s first joinable activity, for an ask-to-join that names none. */
  private joinableAppOf(user: UserRecord): string {
    const found = (this.deps.presence.view(user.id)?.activities ?? []).find(
      (activity) => activity.application_id !== undefined && isJoinable(this.deps.presence.activityFor(user.id, activity.application_id)),
    );
    if (found?.application_id === undefined) throw new StateError('invalid', `${user.username} is not playing anything joinable`, 'application_id');
    return found.application_id;
  }

  /** Fills what friends expect: the app's name when the activity has none, and the join flag. */
  private completeActivity(activity: WireActivity): WireActivity {
    const app = activity.application_id === undefined ? undefined : this.deps.resolveApp(activity.application_id);
    if (activity.application_id !== undefined && app === undefined) throw new StateError('not_found', `Unknown application ${activity.application_id}`, 'activity.application_id');
    const name = activity.name !== '' ? activity.name : (app?.name ?? 'Game');
    const joinable = activity.party?.id !== undefined && activity.secrets?.join !== undefined;
    const flags = joinable ? (activity.flags ?? 0) | ActivityFlags.Join : activity.flags;
    return { ...activity, name, ...(flags === undefined ? {} : { flags }) };
  }

  private defaultParty(applicationId: string): WireActivity {
    return {
      name: '',
      type: 0,
      application_id: applicationId,
      state: 'Looking for players',
      party: { id: `sim-party-${randomBytes(4).toString('hex')}`, size: [1, 4] },
      secrets: { join: `sim-join-${randomBytes(12).toString('hex')}` },
    };
  }

  private messageDeps(): DmMessageDeps {
    return { store: this.deps.store, invites: this.deps.invites, dispatcher: this.deps.sessions, now: this.deps.now, logger: this.deps.logger };
  }
}
