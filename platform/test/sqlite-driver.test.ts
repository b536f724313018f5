import { rmSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSqlite, sqliteEngine, type SqliteDatabase } from '../src/state/sqlite-driver.js';
import { tempDir } from './support/harness.js';

const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
/** Node's own SQLite needs no flag from 22.13 (and 23.4). */
const nodeHasSqlite = major > 23 || (major === 23 && minor >= 4) || (major === 22 && minor >= 13);

/** Opens as StateDb.open does: the WebAssembly build's lock directory (left behind by its exclusive mode) removed first. */
function openAsState(file: string, engine: 'node' | 'wasm'): SqliteDatabase {
  rmSync(`${file}.lock`, { recursive: true, force: true });
  return openSqlite(file, engine);
}

function roundTrip(db: SqliteDatabase, write: boolean): unknown {
  try {
    // As StateDb opens it: exclusive locking, so WAL needs no shared-memory file.
    db.exec('PRAGMA locking_mode=EXCLUSIVE');
    if (write) {
      db.exec('PRAGMA journal_mode=WAL');
      db.exec('CREATE TABLE t (id TEXT PRIMARY KEY, n INTEGER)');
      db.prepare('INSERT INTO t VALUES (?, ?)').run(['a', 1]);
      db.exec('BEGIN IMMEDIATE');
      expect(db.inTransaction).toBe(true);
      db.prepare('INSERT INTO t VALUES (?, ?)').run(['b', 2]);
      db.exec('COMMIT');
    }
    return { rows: db.prepare('SELECT id, n FROM t ORDER BY id').all([]), first: db.get('SELECT id FROM t WHERE n > 1'), none: db.get('SELECT id FROM t WHERE n > 9') };
  } finally {
    db.close();
  }
}

describe('issue 27 §4: the SQLite the state lives in', () => {
  it("is Node's own where this Node has it without a flag, else the WebAssembly build", () => {
    expect(sqliteEngine()).toBe(nodeHasSqlite ? 'node' : 'wasm');
    expect(openSqlite(':memory:').engine).toBe(sqliteEngine());
  });

  it("a file written by one reads the same in the other, both ways (a data dir moves between Node versions); without node:sqlite, asking for it gives the WebAssembly build", async () => {
    const expected = { rows: [{ id: 'a', n: 1 }, { id: 'b', n: 2 }], first: { id: 'b' }, none: undefined };
    // Under Node 20 both are the WebAssembly build; node-versions.test.ts runs this file under Node 22 and 24 too.
    const native = openSqlite(':memory:', 'node');
    expect(native.engine).toBe(nodeHasSqlite ? 'node' : 'wasm');
    native.close();
    const fromWasm = path.join(await tempDir(), 'state.db');
    expect(roundTrip(openAsState(fromWasm, 'wasm'), true)).toEqual(expected);
    expect(roundTrip(openAsState(fromWasm, 'node'), false)).toEqual(expected);
    const fromNode = path.join(await tempDir(), 'state.db');
    expect(roundTrip(openAsState(fromNode, 'node'), true)).toEqual(expected);
    expect(roundTrip(openAsState(fromNode, 'wasm'), false)).toEqual(expected);
  });
});
