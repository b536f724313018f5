import type { ConversationView, HostData, InviteView, JoinRequestView, UserView } from '../../../../preload/src/contract.js';

/**
 * What the shell tells the player outside its window: a system notification for each new join
 * request and invite, and for direct messages that arrive unread (the conversation is not on
 * screen), and the consent window brought to the front for each new consent request. Decided
 * by diffing the host's state before and after a push, so nothing is announced twice.
 */
export interface NotificationSpec {
  readonly kind: 'join-request' | 'invite' | 'sharing' | 'dm';
  readonly id: string;
  readonly title: string;
  readonly body: string;
}

/** Plain text, one line, bounded: names come from other users (notifications are not HTML). */
function plain(text: string, max = 64): string {
  // eslint-disable-next-line no-control-regex
  const clean = text.replace(/[\u0000-\u001f\u007f<>&]/g, ' ').replace(/\s+/g, ' ').trim();
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}

function nameOf(user: UserView): string {
  return plain(user.global_name ?? user.username) || 'Someone';
}

export function joinRequestNotification(request: JoinRequestView, gameName: string | null): NotificationSpec {
  return {
    kind: 'join-request',
    id: request.id,
    title: 'Ask to Join',
    body: `${nameOf(request.user)} wants to join your game${gameName === null ? '' : ` ${plain(gameName)}`}.`,
  };
}

export function inviteNotification(invite: InviteView): NotificationSpec {
  const game = invite.activity?.name;
  return {
    kind: 'invite',
    id: invite.id,
    title: 'Game invite',
    body: `${nameOf(invite.user)} invited you to join${game === undefined ? ' their game' : ` ${plain(game)}`}.`,
  };
}

/** An app's first activity ever: the player learns that friends can now see it. */
export function sharingNotification(app: { readonly application_id: string; readonly application_name: string }): NotificationSpec {
  return {
    kind: 'sharing',
    id: app.application_id,
    title: 'Sharing your activity',
    body: `${plain(app.application_name) || 'A game'} now shows your activity to friends. Change it on the Games screen.`,
  };
}

/**
 * A friend's new message, unread: their name as the title, the message (one plain line) as the
 * body, as the client players know shows it; with how many are unread when more than one.
 */
export function dmNotification(friend: UserView, message: { readonly id: string; readonly content: string }, unread: number): NotificationSpec {
  const text = plain(message.content, 120) || 'New message';
  return {
    kind: 'dm',
    id: message.id,
    title: nameOf(friend),
    body: unread > 1 ? `${text} (${unread} unread)` : text,
  };
}

/**
 * The conversations whose newest unread message is new since `previous`: one notification per
 * conversation (its newest). A message the host counts as read on arrival (the conversation is
 * on screen, or the player wrote after it) is not unread, so it is never announced; an edit or a
 * deletion brings no new message; nor does a message written before `since` (epoch ms: the
 * history the host loads as it signs in is not news).
 */
export function newDirectMessages(previous: HostData, next: HostData, since = 0): NotificationSpec[] {
  const before = new Map(previous.conversations.map((conversation) => [conversation.user_id, new Set(conversation.messages.map((m) => m.id))]));
  const notifications: NotificationSpec[] = [];
  for (const conversation of next.conversations) {
    const newest = newestUnread(conversation);
    if (newest === undefined || newest.at < since || before.get(conversation.user_id)?.has(newest.id) === true) continue;
    // Only a friend's conversation has a row to open it from (the UI counts no other).
    const friend = next.friends.find((f) => f.user.id === conversation.user_id)?.user;
    if (friend !== undefined) notifications.push(dmNotification(friend, newest, conversation.unread));
  }
  return notifications;
}

/** The friend's newest message, when the conversation has unread ones (they are the friend's last `unread`). */
function newestUnread(conversation: ConversationView): ConversationView['messages'][number] | undefined {
  if (conversation.unread <= 0) return undefined;
  for (let i = conversation.messages.length - 1; i >= 0; i--) {
    const message = conversation.messages[i];
    if (message?.author_id === conversation.user_id) return message;
  }
  return undefined;
}

export interface SnapshotChanges {
  readonly notifications: readonly NotificationSpec[];
  /** Ids of consent requests that were not there before: bring the consent window up. */
  readonly newConsentRequests: readonly string[];
}

/**
 * What is new in `next` compared with `previous` (null: the first snapshot announces nothing
 * old); direct messages written before `dmsSince` (epoch ms) are not announced.
 */
export function snapshotChanges(previous: HostData | null, next: HostData, dmsSince = 0): SnapshotChanges {
  const seen = (ids: readonly { id: string }[] | undefined): Set<string> => new Set((ids ?? []).map((item) => item.id));
  const oldJoin = seen(previous?.join_requests);
  const oldInvites = seen(previous?.invites);
  const oldConsent = seen(previous?.consent_requests);
  const gameName = (applicationId: string): string | null =>
    next.games.find((game) => game.client_id === applicationId)?.application_name ?? null;
  const notifications: NotificationSpec[] = [];
  if (previous !== null) {
    for (const request of next.join_requests) {
      if (!oldJoin.has(request.id)) notifications.push(joinRequestNotification(request, gameName(request.application_id)));
    }
    for (const invite of next.invites) {
      if (!oldInvites.has(invite.id) && invite.valid) notifications.push(inviteNotification(invite));
    }
    const oldApps = new Set((previous.presence?.announced ?? []).map((app) => app.application_id));
    if (previous.presence !== null) {
      for (const app of next.presence?.announced ?? []) if (!oldApps.has(app.application_id)) notifications.push(sharingNotification(app));
    }
    notifications.push(...newDirectMessages(previous, next, dmsSince));
  }
  const newConsentRequests = next.consent_requests
    .filter((request) => request.state !== 'settled' && !oldConsent.has(request.id))
    .map((request) => request.id);
  return { notifications, newConsentRequests };
}
