/**
 * How the host stops: each part registers its stop step as it starts, and run() takes the
 * steps in reverse order (the last part started stops first). A failed step does not keep the
 * others from running. Used for close() and for a start-up that fails half-way alike.
 */
export class Teardown {
  private readonly steps: (() => Promise<unknown> | unknown)[] = [];

  /** Registers the stop step of a part that has just started. */
  add(step: () => Promise<unknown> | unknown): void {
    this.steps.push(step);
  }

  async run(): Promise<void> {
    for (const step of this.steps.splice(0).reverse()) {
      await Promise.resolve()
        .then(step)
        .catch(() => undefined);
    }
  }
}

/** A stop that may be asked for twice (by close() first, then by the teardown): runs once. */
export function once(stop: () => Promise<void>): () => Promise<void> {
  let started: Promise<void> | undefined;
  return () => (started ??= stop());
}
