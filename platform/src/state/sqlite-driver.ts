import { createRequire } from 'node:module';
import v8 from 'node:v8';
import type { Database as WasmDatabase } from 'node-sqlite3-wasm';

/*
 * The SQLite the emulator's state lives in: Node's own (`node:sqlite`, in the node binary) where
 * this Node has it without a flag (22.13 and later, 23.4 and later), else SQLite compiled to
 * WebAssembly (node-sqlite3-wasm: nothing native to install, and Node 20 has no `node:sqlite`).
 * Both read and write the same SQLite file format, so a data dir moves between Node versions.
 *
 * Why not the WebAssembly build everywhere: its module (1.3 MB) is compiled when it loads and
 * stays resident. Measured 2026-11-28 (`node -e` loading each and opening a WAL database, RSS
 * before and after): Node 22.23.3 7.4 MiB to load + 1.9 to open against 0.0 + 1.6 for
 * node:sqlite; Node 24.21.0 10.8 + 4.3 against 0.4 + 1.6. An embedded emulator is part of an
 * always-on `companion serve` (docs/performance.md, "Against arRPC").
 */

/** A prepared statement: values bind to its `?` in order. */
export interface SqliteStatement {
  run(values: readonly SqliteValue[]): void;
  all(values: readonly SqliteValue[]): Record<string, unknown>[];
  finalize(): void;
}

export type SqliteValue = string | number | null;

/** The part of a database connection the state uses. */
export interface SqliteDatabase {
  /** Which SQLite this is: 'node' (node:sqlite) or 'wasm' (node-sqlite3-wasm). */
  readonly engine: 'node' | 'wasm';
  readonly isOpen: boolean;
  readonly inTransaction: boolean;
  exec(sql: string): void;
  /** The first row, or undefined. */
  get(sql: string): Record<string, unknown> | undefined;
  all(sql: string): Record<string, unknown>[];
  prepare(sql: string): SqliteStatement;
  close(): void;
}

interface NodeStatement {
  run(...values: SqliteValue[]): unknown;
  all(...values: SqliteValue[]): Record<string, unknown>[];
  get(...values: SqliteValue[]): Record<string, unknown> | undefined;
}

interface NodeDatabase {
  readonly isOpen: boolean;
  readonly isTransaction: boolean;
  exec(sql: string): void;
  prepare(sql: string): NodeStatement;
  close(): void;
}

type NodeSqliteModule = { readonly DatabaseSync: new (file: string) => NodeDatabase };

class NodeSqlite implements SqliteDatabase {
  readonly engine = 'node';
  constructor(private readonly db: NodeDatabase) {}
  get isOpen(): boolean {
    return this.db.isOpen;
  }
  get inTransaction(): boolean {
    return this.db.isTransaction;
  }
  exec(sql: string): void {
    this.db.exec(sql);
  }
  get(sql: string): Record<string, unknown> | undefined {
    return this.db.prepare(sql).get();
  }
  all(sql: string): Record<string, unknown>[] {
    return this.db.prepare(sql).all();
  }
  prepare(sql: string): SqliteStatement {
    const statement = this.db.prepare(sql);
    return {
      run: (values) => void statement.run(...values),
      all: (values) => statement.all(...values),
      // node:sqlite finalizes a statement when it is collected or the database closes.
      finalize: () => undefined,
    };
  }
  close(): void {
    this.db.close();
  }
}

class WasmSqlite implements SqliteDatabase {
  readonly engine = 'wasm';
  constructor(private readonly db: WasmDatabase) {}
  get isOpen(): boolean {
    return this.db.isOpen;
  }
  get inTransaction(): boolean {
    return this.db.inTransaction;
  }
  exec(sql: string): void {
    this.db.exec(sql);
  }
  get(sql: string): Record<string, unknown> | undefined {
    return (this.db.get(sql) as Record<string, unknown> | null) ?? undefined;
  }
  all(sql: string): Record<string, unknown>[] {
    return this.db.all(sql) as Record<string, unknown>[];
  }
  prepare(sql: string): SqliteStatement {
    const statement = this.db.prepare(sql);
    return {
      run: (values) => void statement.run([...values]),
      all: (values) => statement.all([...values]) as Record<string, unknown>[],
      finalize: () => statement.finalize(),
    };
  }
  close(): void {
    this.db.close();
  }
}

/**
 * node:sqlite when this Node serves it without a flag. Loading it prints an ExperimentalWarning
 * on stderr (Node 22 and 24); that one warning is not passed on, every other is.
 */
function nodeSqlite(): NodeSqliteModule | undefined {
  const getBuiltin = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule;
  if (getBuiltin === undefined) return undefined;
  const emitWarning = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    const text = typeof warning === 'string' ? warning : warning.message;
    if (/SQLite/i.test(text)) return;
    (emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    return getBuiltin.call(process, 'node:sqlite') as NodeSqliteModule | undefined;
  } catch {
    return undefined;
  } finally {
    process.emitWarning = emitWarning;
  }
}

let wasmModule: { readonly Database: typeof WasmDatabase } | undefined;

/**
 * SQLite's WebAssembly build, loaded on first use (a process that never opens a state loads
 * none of it). Its code is compiled by V8's baseline compiler only (`--liftoff-only`, which
 * applies to WebAssembly alone): the optimising tier costs 25-40 MiB of RSS for SQLite's code
 * and tens of ms of compile work in the first seconds, for about 25 µs less per commit.
 */
function wasmSqlite(): { readonly Database: typeof WasmDatabase } {
  if (wasmModule === undefined) {
    v8.setFlagsFromString('--liftoff-only');
    wasmModule = createRequire(import.meta.url)('node-sqlite3-wasm') as { readonly Database: typeof WasmDatabase };
  }
  return wasmModule;
}

/** Which SQLite `openSqlite` uses on this Node. */
export function sqliteEngine(): 'node' | 'wasm' {
  return nodeSqlite() === undefined ? 'wasm' : 'node';
}

/** Opens (or creates) the database file with this Node's SQLite (node:sqlite, else the WebAssembly build). */
export function openSqlite(file: string, engine: 'node' | 'wasm' = sqliteEngine()): SqliteDatabase {
  const native = engine === 'node' ? nodeSqlite() : undefined;
  if (native !== undefined) return new NodeSqlite(new native.DatabaseSync(file));
  return new WasmSqlite(new (wasmSqlite().Database)(file));
}
