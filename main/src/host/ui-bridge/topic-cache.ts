import { TOPICS, type HostData, type TopicPush, type TopicValues } from '../../../../preload/src/contract.js';

/** The topics as pushed: presence without its outcomes (they stream on their own). */
export function topicValues(data: HostData): TopicValues {
  if (data.presence === null) return data;
  const { recent_outcomes: _outcomes, ...presence } = data.presence;
  return { ...data, presence };
}

/**
 * What the UIs hold of each topic (its JSON as last pushed or answered): a topic is pushed only
 * when its new value differs. Every ready UI holds the same values: a UI that becomes ready gets
 * the snapshot these were just set from.
 */
export class TopicCache {
  private readonly held = new Map<string, string>();

  /**
   * The topics of `values` that differ from what the UIs hold; the UIs hold `values` from now
   * on. The first take only fills the cache: no UI holds anything a push could change (a UI
   * starts from a snapshot).
   */
  take(values: TopicValues): TopicPush[] {
    const first = this.held.size === 0;
    const changed: TopicPush[] = [];
    for (const topic of TOPICS) {
      const json = JSON.stringify(values[topic]);
      if (this.held.get(topic) === json) continue;
      this.held.set(topic, json);
      changed.push({ topic, value: values[topic] } as TopicPush);
    }
    return first ? [] : changed;
  }

  /** Nobody holds anything (the last UI went away). */
  clear(): void {
    this.held.clear();
  }
}
