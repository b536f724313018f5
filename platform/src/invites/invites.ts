import type { PlatformLimits } from '../support/limits.js';
import type { PlatformLogger } from '../support/logger.js';
import { applicationAudience } from '../access/audience.js';
import type { Dispatcher } from '../gateway/sessions.js';
import { publicActivity } from '../gateway/presence.js';
import type { AppRecord, ChannelRecord, MessageRecord, UserRecord } from '../state/model.js';
import type { Store } from '../state/store.js';
import { ActivityFlags } from '../../../common/src/activity-flags.js';
import {
  GatewayEvent,
  MessageActivityType,
  type ActivityInviteAcceptedEvent,
  type MessageActivity,
  type MessageApplication,
  type WireActivity,
} from '../wire/index.js';

/** Why an invite operation was refused; the HTTP layer maps `reason` to a status and code. */
export class InviteError extends Error {
  constructor(
    readonly reason: 'invalid_form' | 'missing_access' | 'unknown_application' | 'unknown_message' | 'unknown_user',
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'InviteError';
  }
}

/** Where the invite service reads users' current activities (with secrets) from. */
export interface ActivitySource {
  activityFor(userId: string, applicationId: string): WireActivity | undefined;
}

export type JoinableActivity = WireActivity & {
  readonly party: { readonly id: string; readonly size: readonly [number, number] };
  readonly secrets: { readonly join: string };
};

/** Joinable: a party id, a free slot (or max 0 = unlimited) and a join secret. */
export function isJoinable(activity: WireActivity | undefined): activity is JoinableActivity {
  if (activity === undefined) return false;
  const party = activity.party;
  if (party?.id === undefined || party.id.length === 0 || party.size === undefined) return false;
  const [current, max] = party.size;
  if (!(max === 0 || current < max)) return false;
  return (activity.secrets?.join ?? '').length > 0;
}

/** A public party: privacy 1, or the PARTY_PRIVACY_FRIENDS flag. */
export function isPublicParty(activity: WireActivity): boolean {
  return activity.party?.privacy === 1 || ((activity.flags ?? 0) & ActivityFlags.PartyPrivacyFriends) !== 0;
}

export interface InviteServiceOptions {
  readonly store: Store;
  readonly activities: ActivitySource;
  readonly dispatcher: Dispatcher;
  readonly limits: PlatformLimits;
  readonly now: () => number;
  readonly logger: PlatformLogger;
  /** The app for an id, or undefined (a look-up never registers one). */
  readonly resolveApp: (id: string) => AppRecord | undefined;
}

/**
 * Game invites and join requests carried by DM messages, their validity, and handing out the
 * host's join secret to the users allowed to join.
 */
export class InviteService {
  constructor(private readonly options: InviteServiceOptions) {}

  /**
   * The invite fields of a new DM message from `author` to `recipientId` carrying `activity`.
   * Throws InviteError when the author may not send it.
   */
  activityMessageFields(
    author: UserRecord,
    recipientId: string,
    activity: { type: number; party_id?: string | undefined },
    applicationId: string | undefined,
  ): Pick<MessageRecord, 'activity' | 'application_id' | 'application' | 'invite_activity' | 'invite'> {
    if (applicationId === undefined) throw new InviteError('invalid_form', 'An activity message needs application_id', 'application_id');
    const app = this.options.resolveApp(applicationId);
    if (app === undefined) throw new InviteError('unknown_application', 'Unknown Application');
    const { activities, now, limits } = this.options;

    if (activity.type === MessageActivityType.Join) {
      const current = activities.activityFor(author.id, app.id);
      if (!isJoinable(current) || current.party.id !== activity.party_id) {
        throw new InviteError('invalid_form', 'Your activity for this application is not joinable with that party', 'activity.party_id');
      }
      const sentAt = now();
      return {
        activity: { type: MessageActivityType.Join, party_id: current.party.id },
        application_id: app.id,
        application: messageApplication(app, current),
        invite_activity: publicActivity(current, undefined, app),
        invite: { sent_at: sentAt, expires_at: sentAt + limits.inviteTtlMs, accepted_by: [] },
      };
    }
    if (activity.type === MessageActivityType.JoinRequest) {
      // Only a friend (or a game friend in this application) sees the activity to ask to join. **(ours)**
      const { store } = this.options;
      if (!store.areFriends(author.id, recipientId) && !store.gameRelationships.areFriends(app.id, author.id, recipientId)) {
        throw new InviteError('missing_access', 'You can ask to join only a friend');
      }
      const hostActivity = activities.activityFor(recipientId, app.id);
      if (!isJoinable(hostActivity)) throw new InviteError('invalid_form', "The user's activity for this application is not joinable", 'activity');
      const partyId = hostActivity.party.id;
      if (activity.party_id !== undefined && activity.party_id !== partyId) {
        throw new InviteError('invalid_form', "The party id is not the user's current party", 'activity.party_id');
      }
      return {
        activity: { type: MessageActivityType.JoinRequest, party_id: partyId },
        application_id: app.id,
        application: messageApplication(app, undefined),
      };
    }
    throw new InviteError('invalid_form', 'Only JOIN (1) and JOIN_REQUEST (5) activity messages are supported', 'activity.type');
  }

  /** Whether an invite message still lets its recipient join (6 h, same party). */
  isValidInvite(message: MessageRecord): boolean {
    if (message.activity?.type !== MessageActivityType.Join || message.invite === undefined || message.application_id === undefined) return false;
    if (this.options.now() >= message.invite.expires_at) return false;
    const current = this.options.activities.activityFor(message.author_id, message.application_id);
    return isJoinable(current) && current.party.id === message.activity.party_id;
  }

  /** Declines a join request; returns the updated message, or undefined if it was declined already. */
  decline(user: UserRecord, channel: ChannelRecord, messageId: string): MessageRecord | undefined {
    const message = this.options.store.message(channel.id, messageId);
    if (message === undefined) throw new InviteError('unknown_message', 'Unknown Message');
    if (message.activity?.type !== MessageActivityType.JoinRequest) {
      throw new InviteError('invalid_form', 'The message is not a join request', 'message_id');
    }
    if (message.author_id === user.id) throw new InviteError('missing_access', 'Only the recipient can decline a join request');
    if (message.activity.declined === true) return undefined;
    message.activity = { ...message.activity, declined: true } satisfies MessageActivity;
    this.options.store.touched();
    return message;
  }

  /**
   * The host's join secret for `caller`, when the host's activity is joinable and the caller
   * holds a valid invite for the current party, or the party is public and they are friends.
   */
  join(caller: UserRecord, hostId: string, applicationId: string, messageId: string | undefined, sessionId: string | undefined): string {
    const { store, activities, dispatcher, logger } = this.options;
    if (store.user(hostId) === undefined) throw new InviteError('unknown_user', 'Unknown User');
    if (hostId === caller.id) throw new InviteError('missing_access', 'You cannot join your own activity');
    const current = activities.activityFor(hostId, applicationId);
    if (!isJoinable(current)) throw new InviteError('missing_access', 'The activity is not joinable');
    const secret = current.secrets.join;

    if (messageId !== undefined) {
      const message = store.messageById(messageId);
      if (message === undefined) throw new InviteError('unknown_message', 'Unknown Message');
      const channel = store.channel(message.channel_id);
      const forCaller = message.author_id === hostId && channel?.recipient_ids?.includes(caller.id) === true;
      if (!forCaller || message.application_id !== applicationId || !this.isValidInvite(message)) {
        throw new InviteError('missing_access', 'The invite is not valid');
      }
      const invite = message.invite;
      if (invite !== undefined && !invite.accepted_by.includes(caller.id)) {
        invite.accepted_by.push(caller.id);
        store.touched();
      }
      const event: ActivityInviteAcceptedEvent = {
        message_id: message.id,
        channel_id: message.channel_id,
        application_id: applicationId,
        sender_id: hostId,
        party_id: message.activity?.party_id ?? null,
        session_id: sessionId ?? null,
      };
      // The invite is its game's: the player's sessions of that game and own client hear of it, no other game's.
      dispatcher.dispatchTo(caller.id, applicationAudience(applicationId), GatewayEvent.ActivityInviteAccepted, event, { exceptSessionId: sessionId ?? null });
      logger.info({ userId: caller.id, hostId, applicationId, messageId: message.id }, 'invite accepted');
      return secret;
    }

    const hasInvite = store.messagesTo(caller.id, hostId).some((message) => message.application_id === applicationId && this.isValidInvite(message));
    const publicForFriend = isPublicParty(current) && store.areFriends(caller.id, hostId);
    if (!hasInvite && !publicForFriend) throw new InviteError('missing_access', 'No valid invite and the party is not public');
    logger.info({ userId: caller.id, hostId, applicationId, via: hasInvite ? 'invite' : 'public party' }, 'join allowed');
    return secret;
  }
}

function messageApplication(app: AppRecord, activity: WireActivity | undefined): MessageApplication {
  return { id: app.id, name: app.name, icon: app.icon, cover_image: activity?.assets?.invite_cover_image ?? app.cover_image };
}
