import type { PlatformUser, WireActivity } from '../../../../platform/src/wire/index.js';

/** A friend asked to join one of our games (a JOIN_REQUEST message to us). */
export interface IncomingJoinRequest {
  readonly id: string;
  readonly user: PlatformUser;
  readonly applicationId: string;
  readonly channelId: string;
  readonly messageId: string;
  readonly receivedAt: number;
}

/** A friend invited us to their game (a JOIN message to us). */
export interface ReceivedInvite {
  readonly id: string;
  readonly user: PlatformUser;
  readonly applicationId: string;
  readonly partyId: string | null;
  readonly activity: WireActivity | null;
  /** The sender's message with the invite ('' for none); untrusted text. */
  readonly content: string;
  readonly channelId: string;
  readonly messageId: string;
  readonly receivedAt: number;
  /** When the platform stops honouring it (its `invite_expires_at`), when it said. */
  readonly expiresAt?: number;
}

/**
 * What the host remembers about invites: incoming join requests until answered, requests we
 * sent until answered, and received invites until they expire (6 h, the platform's rule; the
 * platform re-checks validity when one is accepted).
 */
export class InviteBook {
  private readonly incoming = new Map<string, IncomingJoinRequest>();
  private readonly invitesById = new Map<string, ReceivedInvite>();
  /** Requests we sent, keyed `${hostUserId}:${applicationId}`. */
  private readonly outgoing = new Map<string, { readonly messageId: string; readonly at: number }>();

  constructor(
    private readonly now: () => number,
    private readonly inviteTtlMs: number,
    /** How long we wait for an answer to our own join request before forgetting it. */
    private readonly requestTtlMs: number,
  ) {}

  addIncoming(request: IncomingJoinRequest): void {
    // One pending request per user and app: a repeat replaces the older one.
    for (const [id, existing] of this.incoming) {
      if (existing.user.id === request.user.id && existing.applicationId === request.applicationId) this.incoming.delete(id);
    }
    this.incoming.set(request.id, request);
  }

  incomingRequests(): IncomingJoinRequest[] {
    return [...this.incoming.values()];
  }

  incomingById(id: string): IncomingJoinRequest | undefined {
    return this.incoming.get(id);
  }

  /** The pending request from this user, for this app when given. */
  incomingFrom(userId: string, applicationId?: string): IncomingJoinRequest | undefined {
    let found: IncomingJoinRequest | undefined;
    for (const request of this.incoming.values()) {
      if (request.user.id !== userId) continue;
      if (applicationId !== undefined && request.applicationId !== applicationId) continue;
      found = request; // the newest wins: Map keeps insertion order
    }
    return found;
  }

  removeIncoming(id: string): void {
    this.incoming.delete(id);
  }

  addInvite(invite: ReceivedInvite): void {
    this.invitesById.set(invite.id, invite);
  }

  invites(): (ReceivedInvite & { readonly valid: boolean; readonly expiresAt: number })[] {
    this.expire();
    return [...this.invitesById.values()].map((invite) => ({ ...invite, valid: true, expiresAt: this.expiresAt(invite) }));
  }

  /** When a received invite stops being acceptable: as the platform said, else its rule (6 h after it was sent). */
  expiresAt(invite: ReceivedInvite): number {
    return invite.expiresAt ?? invite.receivedAt + this.inviteTtlMs;
  }

  invite(id: string): ReceivedInvite | undefined {
    this.expire();
    return this.invitesById.get(id);
  }

  removeInvite(id: string): void {
    this.invitesById.delete(id);
  }

  noteOutgoing(hostUserId: string, applicationId: string, messageId: string): void {
    this.outgoing.set(`${hostUserId}:${applicationId}`, { messageId, at: this.now() });
  }

  /** Records the message id of a request noted before it was sent (if it is still pending). */
  nameOutgoing(hostUserId: string, applicationId: string, messageId: string): void {
    const key = `${hostUserId}:${applicationId}`;
    const entry = this.outgoing.get(key);
    if (entry !== undefined) this.outgoing.set(key, { messageId, at: entry.at });
  }

  /** True (and forgotten) when we had asked this host to join this app's party. */
  takeOutgoing(hostUserId: string, applicationId: string): boolean {
    const key = `${hostUserId}:${applicationId}`;
    const entry = this.outgoing.get(key);
    if (entry === undefined) return false;
    this.outgoing.delete(key);
    return this.now() - entry.at <= this.requestTtlMs;
  }

  /** Forgets the request we sent as this message; true if it was pending. */
  forgetOutgoing(messageId: string): boolean {
    return this.takeOutgoingMessage(messageId) !== null;
  }

  /** Forgets the request we sent as this message; whom it asked (their user id), null if none was pending. */
  takeOutgoingMessage(messageId: string): string | null {
    for (const [key, entry] of this.outgoing) {
      if (entry.messageId !== messageId) continue;
      this.outgoing.delete(key);
      return key.slice(0, key.indexOf(':'));
    }
    return null;
  }

  /** Forget everything (the account changed). */
  clear(): void {
    this.incoming.clear();
    this.invitesById.clear();
    this.outgoing.clear();
  }

  private expire(): void {
    const now = this.now();
    for (const [id, invite] of this.invitesById) if (this.expiresAt(invite) < now) this.invitesById.delete(id);
  }
}
