/**
 * The channel list's order as the desktop client shows it: channels without a category first,
 * then each category followed by its channels; categories by position; within the top group and
 * within each category, text-like channels before voice-like ones (voice, stage), each by
 * position. Ties go by id (older first). A channel whose parent is not a category of the list
 * is shown at the top **(ours)**.
 */

/** What the order reads of a channel. */
export interface Orderable {
  readonly id: string;
  readonly type: number;
  readonly position: number;
  readonly parentId: string | null;
}

const CATEGORY = 4;
/** GuildVoice and GuildStageVoice. */
const VOICE_LIKE: ReadonlySet<number> = new Set([2, 13]);

function byPosition(a: Orderable, b: Orderable): number {
  if (a.position !== b.position) return a.position - b.position;
  return compareIds(a.id, b.id);
}

function compareIds(a: string, b: string): number {
  if (a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Text-like before voice-like, then by position. */
function inGroup(a: Orderable, b: Orderable): number {
  const voiceA = VOICE_LIKE.has(a.type) ? 1 : 0;
  const voiceB = VOICE_LIKE.has(b.type) ? 1 : 0;
  return voiceA !== voiceB ? voiceA - voiceB : byPosition(a, b);
}

export function orderGuildChannels<T extends Orderable>(channels: readonly T[]): T[] {
  const categories = channels.filter((channel) => channel.type === CATEGORY).sort(byPosition);
  const categoryIds = new Set(categories.map((category) => category.id));
  const children = new Map<string, T[]>();
  const top: T[] = [];
  for (const channel of channels) {
    if (channel.type === CATEGORY) continue;
    const parent = channel.parentId;
    if (parent === null || !categoryIds.has(parent)) {
      top.push(channel);
      continue;
    }
    const list = children.get(parent) ?? [];
    list.push(channel);
    children.set(parent, list);
  }
  const ordered = top.sort(inGroup);
  for (const category of categories) ordered.push(category, ...(children.get(category.id) ?? []).sort(inGroup));
  return ordered;
}
