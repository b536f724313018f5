import type { UserRecord } from '../state/model.js';

/** What a valid OAuth2 access token stands for. */
export interface BearerAuth {
  readonly user: UserRecord;
  readonly applicationId: string;
  readonly scopes: readonly string[];
  readonly tokenId: string;
  /** Epoch ms. */
  readonly expiresAt: number;
}
