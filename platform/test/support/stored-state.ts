import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { STATE_DB_NAME, STATE_FILE_NAME } from '../../src/index.js';
import type { StateFile } from '../../src/state/model.js';
import { StateDb } from '../../src/state/state-db.js';
import { StateRecords } from '../../src/state/state-records.js';
import { fromMessageRow } from '../../src/state/store.js';

/**
 * The state as the emulator stored it in `dataDir`, in the shape of the old `state.json`: read
 * from a copy of the database file (the emulator stopped, or after `platform.flush()`, which
 * moves the WAL into it).
 */
export async function storedState(dataDir: string): Promise<StateFile> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'companion-stored-state-'));
  try {
    const copy = path.join(dir, STATE_DB_NAME);
    await copyFile(path.join(dataDir, STATE_DB_NAME), copy);
    const db = StateDb.open(copy);
    try {
      const loaded = StateRecords.load(db);
      if (loaded === undefined) throw new Error(`no state in ${dataDir}`);
      return { ...loaded.state, messages: db.allMessages().map(fromMessageRow) };
    } finally {
      db.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Turns a stopped emulator's data dir into one an emulator from before the database left: its
 * state as `state.json` (the shape those emulators wrote), and no database.
 */
export async function downgradeToStateFile(dataDir: string): Promise<StateFile> {
  const state = await storedState(dataDir);
  await writeFile(path.join(dataDir, STATE_FILE_NAME), JSON.stringify(state, null, 2), { mode: 0o600 });
  for (const suffix of ['', '-wal', '-journal']) await rm(path.join(dataDir, `${STATE_DB_NAME}${suffix}`), { force: true });
  await rm(path.join(dataDir, `${STATE_DB_NAME}.lock`), { recursive: true, force: true });
  return state;
}
