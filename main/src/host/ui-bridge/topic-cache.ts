import { TOPICS, type HostData, type TopicPush, type TopicValues } from '../../../../preload/src/contract.js';

/** The topics as pushed: presence without its outcomes (they stream on their own). */
export function topicValues(data: HostData): TopicValues {
  if (data.presence === null) return data;
  const { recent_outcomes: _outcomes, ...presence } = data.presence;
  return { ...data, presence };
}

/**
 * Whether two JSON-like values serialise to the same JSON (a key whose value is undefined
 * counts as absent, as in JSON.stringify). Walks both without building text: a topic round
 * compares every topic, four times a second while a UI is open, and stringifying them all
 * for the comparison was about 1.2 ms of host CPU a second in the ui-bridge bench phase
 * (measured with perf, 2026-11-25).
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) return Array.isArray(b) && sameItems(a, b);
  return !Array.isArray(b) && sameFields(a as Record<string, unknown>, b as Record<string, unknown>);
}

// Plain loops: no closure or key array per call (this runs over every topic's tree).
function sameItems(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
  return true;
}

function sameFields(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  let defined = 0;
  for (const key in a) {
    const value = a[key];
    if (value === undefined) continue;
    defined += 1;
    if (!sameJson(value, b[key])) return false;
  }
  for (const key in b) if (b[key] !== undefined) defined -= 1;
  return defined === 0;
}

/**
 * What the UIs hold of each topic (its value as last pushed or answered): a topic is pushed
 * only when its new value differs. Every ready UI holds the same values: a UI that becomes
 * ready gets the snapshot these were just set from.
 */
export class TopicCache {
  private readonly held = new Map<string, unknown>();

  /**
   * The topics of `values` that differ from what the UIs hold; the UIs hold `values` from now
   * on. The first take only fills the cache: no UI holds anything a push could change (a UI
   * starts from a snapshot).
   */
  take(values: TopicValues): TopicPush[] {
    const first = this.held.size === 0;
    const changed: TopicPush[] = [];
    for (const topic of TOPICS) {
      const value = values[topic];
      if (this.held.has(topic) && sameJson(this.held.get(topic), value)) continue;
      this.held.set(topic, value);
      changed.push({ topic, value } as TopicPush);
    }
    return first ? [] : changed;
  }

  /** Nobody holds anything (the last UI went away). */
  clear(): void {
    this.held.clear();
  }
}
