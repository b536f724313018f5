import { describe, expect, it } from 'vitest';
import { IDLE_MS, WalCheckpoints, type CheckpointKind } from '../src/state/wal-checkpoints.js';

describe('WAL checkpoints', () => {
  it('quick (no fsync) while writes go on, synced once they pause; nothing when nothing was written; a refused one is tried again', () => {
    let now = 0;
    const ran: CheckpointKind[] = [];
    let refuse = false;
    const policy = new WalCheckpoints((kind) => (refuse ? false : (ran.push(kind), true)), () => now);
    policy.tick();
    expect(ran).toEqual([]);
    policy.wrote();
    now += 500;
    policy.tick();
    expect(ran).toEqual(['quick']);
    now += IDLE_MS;
    policy.tick();
    expect(ran).toEqual(['quick', 'synced']);
    now += IDLE_MS;
    policy.tick();
    expect(ran).toEqual(['quick', 'synced']);
    policy.wrote();
    refuse = true;
    now += 10;
    policy.tick();
    refuse = false;
    now += 10;
    policy.tick();
    expect(ran).toEqual(['quick', 'synced', 'quick']);
  });

  it('issue 27 §4: pending (the timer is needed) from a write until the synced checkpoint after it', () => {
    let now = 0;
    const policy = new WalCheckpoints(() => true, () => now);
    expect(policy.pending).toBe(false);
    policy.wrote();
    expect(policy.pending).toBe(true);
    policy.tick();
    expect(policy.pending).toBe(true);
    now += IDLE_MS;
    policy.tick();
    expect(policy.pending).toBe(false);
  });
});
