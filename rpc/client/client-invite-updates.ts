import type { ActivityInvite } from './client.js';
import type { GameActivity } from './user-handle.js';
import type { PlatformDispatch } from './wire/gateway.js';

/** A message's activity type of an invite (MessageActivityType JOIN). */
const JOIN = 1;

/** Where the watch reads the sender's presence now (the SDK's user cache). */
export interface InvitePresenceSource {
  /** Whether the sender is online (not offline or invisible) as the game's session last heard. */
  online(userId: string): boolean;
  /** The sender's activity for the game's own application. */
  gameActivity(userId: string): GameActivity | undefined;
  readonly applicationId: () => string | undefined;
  /** The player's id (their own invites are not received ones). */
  readonly me: () => string | undefined;
}

/** Invites kept for validity updates (the newest). */
const KEPT = 200;

/**
 * Client::SetActivityInviteUpdatedCallback: the invites this game received are kept, and when
 * the game's own session hears its sender's presence change (PRESENCE_UPDATE) the invite's
 * validity is worked out again: valid while the sender is online with an activity of that
 * application in the invite's party. A change calls back with the invite, `isValid` updated
 * (it may become valid again when they come back to the party). Without the game's own session
 * (no updateToken) no presence is heard, and nothing is called back.
 */
export class InviteUpdates {
  callback: ((invite: ActivityInvite) => void) | undefined;
  private readonly invites = new Map<string, ActivityInvite>();

  constructor(
    private readonly source: InvitePresenceSource,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** An invite received (ACTIVITY_INVITE): kept; one accepted elsewhere is forgotten. */
  track(invite: ActivityInvite): void {
    if (!invite.isValid) {
      this.invites.delete(invite.messageId);
      return;
    }
    this.invites.delete(invite.messageId);
    this.invites.set(invite.messageId, invite);
    if (this.invites.size > KEPT) this.invites.delete(this.invites.keys().next().value as string);
  }

  /** After the caches took a dispatch: an invite DM of this game is kept; the invites of a sender whose presence changed are worked out again. */
  dispatched(event: PlatformDispatch): void {
    if (event.t === 'MESSAGE_CREATE') {
      const invite = this.inviteOf(event.d);
      if (invite !== null && !this.invites.has(invite.messageId)) this.track(invite);
      return;
    }
    if (event.t !== 'PRESENCE_UPDATE' || event.d.guild_id !== undefined) return;
    const senderId = event.d.user.id;
    for (const [id, invite] of this.invites) {
      if (invite.senderId !== senderId) continue;
      const isValid = this.stillValid(invite);
      if (isValid === invite.isValid) continue;
      const updated = { ...invite, isValid };
      this.invites.set(id, updated);
      try {
        this.callback?.(updated);
      } catch (error) {
        this.onError(error);
      }
    }
  }

  /** An invite DM to the player for this game (the game's own session sees invites as messages, as the Social SDK parses them), else null. */
  private inviteOf(message: Extract<PlatformDispatch, { t: 'MESSAGE_CREATE' }>['d']): ActivityInvite | null {
    const author = message.author;
    const applicationId = this.source.applicationId();
    if (message.activity?.type !== JOIN || author === undefined || author.id === this.source.me() || applicationId === undefined || message.application_id !== applicationId || message.channel_id === undefined) return null;
    return {
      type: JOIN,
      senderId: author.id,
      sender: { id: author.id, username: author.username ?? '', ...(author.avatar === undefined ? {} : { avatar: author.avatar }) },
      channelId: message.channel_id,
      messageId: message.id,
      applicationId,
      partyId: message.activity.party_id ?? null,
      activity: null,
      isValid: true,
    };
  }

  private stillValid(invite: ActivityInvite): boolean {
    // Only the game's own application's activity is in the cache: a sibling application's invite keeps its validity.
    if (invite.applicationId !== this.source.applicationId()) return invite.isValid;
    if (!this.source.online(invite.senderId)) return false;
    const party = (this.source.gameActivity(invite.senderId) as { party?: { id?: unknown } } | undefined)?.party;
    return party !== undefined && (invite.partyId === null || party.id === invite.partyId);
  }
}
