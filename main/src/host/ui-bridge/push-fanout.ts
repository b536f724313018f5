import type { PushMessage } from '../../../../preload/src/contract.js';
import type { ControlLogger } from '../control/control-server.js';

interface Subscriber {
  readonly listener: (message: PushMessage) => void;
  readonly wants: () => boolean;
}

/**
 * The bridge's subscribers: every push goes to each, in order; a listener that throws is
 * logged and does not stop the others. `onFirst` / `onLast` attach and detach the sources.
 */
export class PushFanout {
  private readonly subscribers = new Set<Subscriber>();

  constructor(
    private readonly logger: ControlLogger,
    private readonly onFirst: () => void,
    private readonly onLast: () => void,
  ) {}

  add(listener: (message: PushMessage) => void, wants: () => boolean): () => void {
    const subscriber: Subscriber = { listener, wants };
    this.subscribers.add(subscriber);
    if (this.subscribers.size === 1) this.onFirst();
    return () => {
      if (!this.subscribers.delete(subscriber)) return;
      if (this.subscribers.size === 0) this.onLast();
    };
  }

  /** Does any subscriber want pushes now? */
  wanted(): boolean {
    for (const subscriber of this.subscribers) if (subscriber.wants()) return true;
    return false;
  }

  emit(message: PushMessage): void {
    for (const subscriber of [...this.subscribers]) {
      try {
        subscriber.listener(message);
      } catch (error) {
        this.logger.warn({ channel: message.channel, error: error instanceof Error ? error.name : typeof error }, 'bridge: a push listener failed');
      }
    }
  }

  clear(): void {
    const had = this.subscribers.size > 0;
    this.subscribers.clear();
    if (had) this.onLast();
  }
}
