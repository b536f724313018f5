import type { GameActivity } from './user-handle.js';
import type { PlatformDispatch } from './wire/gateway.js';

/** The invite fields the watch reads (the Client's ActivityInvite). */
export interface WatchedInvite {
  readonly senderId: string;
  readonly messageId: string;
  readonly applicationId: string;
  readonly partyId: string | null;
  readonly isValid: boolean;
}

/** Where the watch reads the sender's presence now (the SDK's user cache). */
export interface InvitePresenceSource {
  /** Whether the sender is online (not offline or invisible) as the game's session last heard. */
  online(userId: string): boolean;
  /** The sender's activity for the game's own application. */
  gameActivity(userId: string): GameActivity | undefined;
  readonly applicationId: () => string | undefined;
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
export class InviteUpdates<T extends WatchedInvite> {
  callback: ((invite: T) => void) | undefined;
  private readonly invites = new Map<string, T>();

  constructor(
    private readonly source: InvitePresenceSource,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** An invite received (ACTIVITY_INVITE): kept; one accepted elsewhere is forgotten. */
  track(invite: T): void {
    if (!invite.isValid) {
      this.invites.delete(invite.messageId);
      return;
    }
    this.invites.delete(invite.messageId);
    this.invites.set(invite.messageId, invite);
    if (this.invites.size > KEPT) this.invites.delete(this.invites.keys().next().value as string);
  }

  /** After the caches took a dispatch: the invites of a sender whose presence changed. */
  dispatched(event: PlatformDispatch): void {
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

  private stillValid(invite: T): boolean {
    // Only the game's own application's activity is in the cache: a sibling application's invite keeps its validity.
    if (invite.applicationId !== this.source.applicationId()) return invite.isValid;
    if (!this.source.online(invite.senderId)) return false;
    const party = (this.source.gameActivity(invite.senderId) as { party?: { id?: unknown } } | undefined)?.party;
    return party !== undefined && (invite.partyId === null || party.id === invite.partyId);
  }
}
