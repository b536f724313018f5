import { randomBytes } from 'node:crypto';
import type { LinkedChannel } from '../wire/lobbies.js';

/** Why an invite cannot be used. */
export class InviteCodeError extends Error {
  constructor(
    readonly reason: 'unknown' | 'not_yours',
    message: string,
  ) {
    super(message);
    this.name = 'InviteCodeError';
  }
}

interface LobbyInviteRecord {
  readonly channel: LinkedChannel;
  /** The member it was made for: only they may use it. */
  readonly userId: string;
  /** The application of the lobby it was made from: another application's tokens never see it. */
  readonly applicationId: string | undefined;
  readonly expiresAt: number;
}

/** How long a lobby channel invite lasts (the seed: valid one hour). */
export const LOBBY_INVITE_TTL_MS = 60 * 60 * 1000;
/** Invites kept at most; the oldest go first **(ours)**. */
const INVITES_KEPT = 10_000;

/**
 * Lobby channel invites: a single-use guild invite to a lobby's linked channel, valid one
 * hour, made for one member (for self with the member's token, or for a member by the game's
 * server). In memory like the lobbies **(ours)**.
 */
export class LobbyInvites {
  private readonly invites = new Map<string, LobbyInviteRecord>();

  constructor(private readonly now: () => number) {}

  create(channel: LinkedChannel, userId: string, applicationId?: string): { code: string; expiresAt: number } {
    this.forgetExpired();
    const code = randomBytes(6).toString('base64url');
    const expiresAt = this.now() + LOBBY_INVITE_TTL_MS;
    this.invites.set(code, { channel, userId, applicationId, expiresAt });
    if (this.invites.size > INVITES_KEPT) this.invites.delete(this.invites.keys().next().value as string);
    return { code, expiresAt };
  }

  /** What an invite leads to, while it is valid. */
  peek(code: string): { channel: LinkedChannel; expiresAt: number } | undefined {
    const invite = this.invites.get(code);
    if (invite === undefined || invite.expiresAt <= this.now()) return undefined;
    return { channel: invite.channel, expiresAt: invite.expiresAt };
  }

  /** The application of the lobby a valid invite was made from (undefined: no such invite, or none recorded). */
  applicationOf(code: string): string | undefined {
    const invite = this.invites.get(code);
    return invite === undefined || invite.expiresAt <= this.now() ? undefined : invite.applicationId;
  }

  /** Uses the invite up (single use): its channel. Another user's invite is refused and stays. */
  redeem(code: string, userId: string): LinkedChannel {
    const invite = this.invites.get(code);
    if (invite === undefined || invite.expiresAt <= this.now()) throw new InviteCodeError('unknown', 'Unknown Invite');
    if (invite.userId !== userId) throw new InviteCodeError('not_yours', 'This invite was made for another member of the lobby');
    this.invites.delete(code);
    return invite.channel;
  }

  private forgetExpired(): void {
    const now = this.now();
    for (const [code, invite] of this.invites) if (invite.expiresAt <= now) this.invites.delete(code);
  }
}
