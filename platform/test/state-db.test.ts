import { spawnSync } from 'node:child_process';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { StateDb } from '../src/state/state-db.js';
import { StateRecords, type SmallState } from '../src/state/state-records.js';
import { tempDir } from './support/harness.js';

/** The built StateDb (npx tsc -b), for a child process. */
const BUILT_STATE_DB = fileURLToPath(new URL('../../out/platform/src/state/state-db.js', import.meta.url));

/** Writes ten messages, trims to four, and kills itself before closing. */
const KILLED_WRITER = `
const { StateDb } = await import(process.argv[1]);
const db = StateDb.open(process.argv[2]);
for (let n = 0; n < 10; n += 1) db.insertMessage({ id: String(1_300_000_000_000_000_000n + BigInt(n)), channel_id: 'c1', author_id: 'a1', body: JSON.stringify({ content: 'm' + n }) });
db.trimChannel('c1', 4);
process.kill(process.pid, 'SIGKILL');
`;

const row = (n: number) => ({ id: String(1_300_000_000_000_000_000n + BigInt(n)), channel_id: 'c1', author_id: 'a1', body: JSON.stringify({ content: `m${n}` }) });

describe('the state database', () => {
  it('a checkpoint after reads through every cached query empties the WAL (no read left open)', async () => {
    const file = path.join(await tempDir(), 'state.db');
    const db = StateDb.open(file);
    try {
      for (let n = 0; n < 20; n += 1) db.insertMessage(row(n));
      expect(db.message(row(3).id)?.body).toBe(row(3).body);
      expect(db.channelSize('c1')).toBe(20);
      expect(db.newest('c1', 2).map((message) => message.id)).toEqual([row(19).id, row(18).id]);
      expect((await stat(`${file}-wal`)).size).toBeGreaterThan(0);
      db.checkpoint();
      expect((await stat(`${file}-wal`)).size).toBe(0);
    } finally {
      db.close();
    }
  });

  it('keeps the newest messages of a channel when trimmed, and reopens with what was committed by a process that was killed (its lock left behind)', async () => {
    const file = path.join(await tempDir(), 'state.db');
    // A child process writes and is killed (SIGKILL) without closing: as a crashed emulator leaves it.
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', KILLED_WRITER, pathToFileURL(BUILT_STATE_DB).href, file], { encoding: 'utf8' });
    expect(child.signal, child.stderr).toBe('SIGKILL');
    const again = StateDb.open(file);
    try {
      expect(again.newest('c1', 100).map((message) => message.id)).toEqual([9, 8, 7, 6].map((n) => row(n).id));
      expect(again.lastMessageId()).toBe(row(9).id);
    } finally {
      again.close();
    }
  });

  it('persists record by record, and a field it has no collection for as a whole (so a field added later is kept)', async () => {
    const file = path.join(await tempDir(), 'state.db');
    const db = StateDb.open(file);
    const state = { version: 1, last_id: '5', users: [{ id: 'u1', username: 'erin' }], friendships: [['u1', 'u2']], future_rules: [{ app: 'a1', rule: 'x' }] } as unknown as SmallState;
    const records = new StateRecords(db, state);
    records.mark([]);
    records.commit();
    (state.users as unknown as { id: string; username: string }[]).push({ id: 'u3', username: 'frank' });
    records.commitRecords('users', [state.users[1] as object]);
    db.close();
    const again = StateDb.open(file);
    try {
      const loaded = StateRecords.load(again)?.state as unknown as Record<string, unknown>;
      expect(loaded.users).toEqual([{ id: 'u1', username: 'erin' }, { id: 'u3', username: 'frank' }]);
      expect(loaded.friendships).toEqual([['u1', 'u2']]);
      expect(loaded.future_rules).toEqual([{ app: 'a1', rule: 'x' }]);
      expect(loaded.last_id).toBe('5');
    } finally {
      again.close();
    }
  });
});

describe('issue 27 §4: the checkpoint timer runs only while a write waits for its checkpoint', () => {
  it('none after open; a write arms it; once the synced checkpoint has emptied the WAL it stops', async () => {
    const file = path.join(await tempDir(), 'state.db');
    const db = StateDb.open(file);
    try {
      expect(db.checkpointArmed).toBe(false);
      db.insertMessage(row(1));
      expect(db.checkpointArmed).toBe(true);
      // The policy's own timing (quick while writing, synced once writes pause) is unchanged.
      while (db.checkpointArmed) await new Promise((resolve) => setTimeout(resolve, 50));
      expect((await stat(`${file}-wal`)).size).toBe(0);
      expect(db.message(row(1).id)?.body).toBe(row(1).body);
      expect(db.checkpointArmed).toBe(false);
    } finally {
      db.close();
    }
  });
});
