/**
 * The Social SDK's ProvisionalUserMergeRequiredCallback and Client::ProvisionalUserMergeCompleted:
 * a call that a provisional account cannot make (openMessageInDiscord, joinLinkedLobbyGuild)
 * calls the game's merge-required callback and waits; the game merges the account (authorize,
 * getTokenFromProvisionalMerge, updateToken) and calls provisionalUserMergeCompleted(success),
 * which lets every waiting call go on (true) or end (false). Without a callback the call ends at
 * once. disconnect() ends the waiting ones as not merged.
 */
export class MergeGate {
  private readonly waiting = new Set<(merged: boolean) => void>();

  /** true once the game says the merge succeeded; false when it failed, or no callback was given. */
  async mergeFirst(required: (() => void) | undefined): Promise<boolean> {
    if (typeof required !== 'function') return false;
    const merged = new Promise<boolean>((resolve) => this.waiting.add(resolve));
    try {
      required();
    } catch {
      // The game's callback failing does not leave the call waiting for ever.
      this.completed(false);
    }
    return merged;
  }

  /** Client::ProvisionalUserMergeCompleted: every call waiting for a merge goes on (or ends). */
  completed(success: boolean): void {
    const waiting = [...this.waiting];
    this.waiting.clear();
    for (const resolve of waiting) resolve(success === true);
  }
}
