import { redactSecrets } from '../../host/record/redact-secrets.js';
import { ABSENT, comparePayloads } from './compare-payloads.js';
import { describeKey, keyOf, slot } from './replay-frame-keys.js';
import type { TimedFrame } from './replay-plan.js';
import type { RawIpcFrame } from '../../../../rpc/src/index.js';
import type { FrameDifferences } from './replay-types.js';

function bySlot(received: readonly RawIpcFrame[], nonces: ReadonlySet<string>): Map<string, RawIpcFrame[]> {
  const actualBySlot = new Map<string, RawIpcFrame[]>();
  for (const frame of received) {
    const name = slot(keyOf(frame, nonces));
    const list = actualBySlot.get(name) ?? [];
    list.push(frame);
    actualBySlot.set(name, list);
  }
  return actualBySlot;
}

/**
 * What the host sent against what the recording says it sent: frames are paired per slot (a
 * reply's nonce, an event's name, CLOSE), in order within the slot; payloads are compared with
 * secrets redacted on both sides. Frames the recording does not have come last.
 */
export function pairedDifferences(outbound: readonly TimedFrame[], received: readonly RawIpcFrame[], nonces: ReadonlySet<string>): FrameDifferences[] {
  const frames: FrameDifferences[] = [];
  const actualBySlot = bySlot(received, nonces);
  const used = new Map<string, number>();
  for (const frame of outbound) {
    const key = keyOf(frame, nonces);
    const name = slot(key);
    const index = used.get(name) ?? 0;
    used.set(name, index + 1);
    const actual = actualBySlot.get(name)?.[index];
    const differences = comparePayloads(redactSecrets(frame.payload), actual === undefined ? ABSENT : redactSecrets(actual.payload));
    if (differences.length > 0) frames.push({ what: describeKey(key, index), differences });
  }
  for (const [name, list] of actualBySlot) {
    const expectedCount = used.get(name) ?? 0;
    list.slice(expectedCount).forEach((frame, offset) => {
      const key = keyOf(frame, nonces);
      frames.push({ what: `${describeKey(key, expectedCount + offset)}, not in the recording`, differences: [{ path: '$', expected: ABSENT, actual: redactSecrets(frame.payload) }] });
    });
  }
  return frames;
}
