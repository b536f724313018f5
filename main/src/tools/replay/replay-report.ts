import { compactJson } from '../../host/record/timeline.js';
import { ABSENT, type Difference } from './compare-payloads.js';
import type { ReplayReport } from './replay-runner.js';

const VALUE_PREVIEW_CHARS = 240;

function shown(value: unknown): string {
  return value === ABSENT ? '(absent)' : compactJson(value, VALUE_PREVIEW_CHARS);
}

function differenceLines(difference: Difference): string[] {
  return [`    ${difference.path}`, `      expected: ${shown(difference.expected)}`, `      actual:   ${shown(difference.actual)}`];
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** The report for people: one block per connection, each difference as path, expected, actual. */
export function formatReplayReport(report: ReplayReport): string {
  const lines: string[] = [];
  for (const connection of report.connections) {
    const who = `${connection.id}${connection.clientId === null ? '' : ` (client ${connection.clientId})`}`;
    if (connection.skipped !== null) {
      lines.push(`${who}: not replayed: ${connection.skipped}`);
      continue;
    }
    const count = connection.frames.reduce((sum, frame) => sum + frame.differences.length, 0);
    lines.push(`${who}: ${plural(connection.sent, 'frame')} sent, ${connection.received} received: ${count === 0 ? 'no differences' : plural(count, 'difference')}`);
    for (const frame of connection.frames) {
      lines.push(`  ${frame.what}`);
      for (const difference of frame.differences) lines.push(...differenceLines(difference));
    }
  }
  if (report.notes.length > 0) {
    lines.push('Substituted (values a fresh host issues anew):');
    for (const note of report.notes) lines.push(`  ${note}`);
  }
  lines.push(report.differenceCount === 0 ? 'No differences' : plural(report.differenceCount, 'difference'));
  return `${lines.join('\n')}\n`;
}

/** The report for tools: plain JSON, `(absent)` values as null with `absent: true`. */
export function replayReportJson(report: ReplayReport): unknown {
  const value = (v: unknown): unknown => (v === ABSENT ? null : v);
  return {
    differences: report.differenceCount,
    notes: report.notes,
    connections: report.connections.map((connection) => ({
      ...connection,
      frames: connection.frames.map((frame) => ({
        what: frame.what,
        differences: frame.differences.map((d) => ({
          path: d.path,
          expected: value(d.expected),
          actual: value(d.actual),
          ...(d.expected === ABSENT ? { expected_absent: true } : {}),
          ...(d.actual === ABSENT ? { actual_absent: true } : {}),
        })),
      })),
    })),
  };
}
