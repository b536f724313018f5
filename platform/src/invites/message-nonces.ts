/**
 * Create Message's `enforce_nonce`: a second message from the same author with the same nonce
 * within the window is not created; the first is answered instead. The public docs say "the
 * past few minutes" **(ours: 5 minutes)**. Entries older than the window are forgotten as new
 * ones come, so memory stays bounded by the messages of one window.
 */
export const NONCE_WINDOW_MS = 5 * 60 * 1000;

interface Seen {
  readonly channelId: string;
  readonly messageId: string;
  readonly at: number;
}

export class MessageNonces {
  /** In insertion (time) order, so the oldest are at the front. */
  private readonly seen = new Map<string, Seen>();

  constructor(private readonly now: () => number) {}

  /** The message this author (a key the caller chooses: the author within a game and channel) already made with this nonce within the window, or undefined. */
  find(authorId: string, nonce: string): { readonly channelId: string; readonly messageId: string } | undefined {
    this.forgetOld();
    return this.seen.get(`${authorId}\u0000${nonce}`);
  }

  remember(authorId: string, nonce: string, channelId: string, messageId: string): void {
    this.forgetOld();
    this.seen.set(`${authorId}\u0000${nonce}`, { channelId, messageId, at: this.now() });
  }

  private forgetOld(): void {
    const oldest = this.now() - NONCE_WINDOW_MS;
    for (const [key, entry] of this.seen) {
      if (entry.at >= oldest) break;
      this.seen.delete(key);
    }
  }
}
