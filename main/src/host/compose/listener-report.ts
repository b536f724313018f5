import { describeListenDirectory, type PlacedListener, type SkippedDirectory } from '../../../../rpc/src/index.js';

/**
 * Lines for people about the sockets beyond the primary one: where else Companion listens and
 * for whom, lower indexes held by other servers there, stale sockets removed, and directories
 * left out with the reason.
 */
export function listenerReport(extra: readonly PlacedListener[], skipped: readonly SkippedDirectory[]): string[] {
  const lines: string[] = [];
  for (const { directory, listener } of extra) {
    lines.push(`Also listening on ${listener.path} (${describeListenDirectory(directory.kind)})`);
    for (const slot of listener.slots) {
      if (slot.index >= listener.index) break;
      if (slot.state.kind === 'live') lines.push(`  ${slot.path}: held by another running server; left alone`);
      else if (slot.state.kind === 'blocked') lines.push(`  ${slot.path}: not usable (${slot.state.reason})`);
    }
    const removed = listener.slots.filter((slot) => slot.state.kind === 'stale-removed').map((slot) => slot.path);
    if (removed.length > 0) lines.push(`  removed stale sockets: ${removed.join(', ')}`);
  }
  for (const { directory, reason } of skipped) {
    lines.push(`Not listening in ${directory.dir} (${describeListenDirectory(directory.kind)}): ${reason}`);
  }
  return lines;
}
