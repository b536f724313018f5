/**
 * The names of the games that sent direct messages, asked of the platform once per app and kept
 * (at most MAX_KEPT). Until a name is known, or when the platform does not know the app, the UI
 * says "app <id>".
 */
const MAX_KEPT = 500;

export class AppNames {
  private readonly names = new Map<string, string | null>();
  private readonly asking = new Set<string>();

  constructor(
    private readonly lookup: (applicationId: string) => Promise<string | null>,
    /** A name became known: what shows it may change. */
    private readonly learnt: () => void,
  ) {}

  /** The name if known; else asks for it (once at a time) and answers null for now. */
  name(applicationId: string): string | null {
    const known = this.names.get(applicationId);
    if (known !== undefined) return known;
    if (!this.asking.has(applicationId)) void this.ask(applicationId);
    return null;
  }

  private async ask(applicationId: string): Promise<void> {
    this.asking.add(applicationId);
    try {
      const name = await this.lookup(applicationId);
      if (this.names.size >= MAX_KEPT) this.names.delete(this.names.keys().next().value as string);
      this.names.set(applicationId, name);
      if (name !== null) this.learnt();
    } catch {
      // Not kept: asked again the next time the name is wanted.
    } finally {
      this.asking.delete(applicationId);
    }
  }
}
