/**
 * The worker's half: one SQLite WASM connection, requests run strictly in the order they came
 * (the main thread's driver already sends one statement at a time; the chain keeps an `exec` that
 * arrives while `open` is still loading behind it). Where the database lives is handed in as
 * `open`: OPFS in `sqlite-worker.ts`, memory in the Node tests.
 */
import type { BindableValue, Database, Sqlite3Static } from '@sqlite.org/sqlite-wasm';
import type { ExecResult, FailureKind, PortLike, SqliteRequest, SqliteResponse } from './protocol.js';

export interface OpenedDatabase {
  sqlite3: Sqlite3Static;
  db: Database;
}

/** The database cannot be opened here: thrown by an `open` to give the main thread its reason. */
export class OpenFailure extends Error {
  constructor(
    readonly kind: Exclude<FailureKind, 'sql'>,
    message: string,
  ) {
    super(message);
    this.name = 'OpenFailure';
  }
}

export function serveSqlite(port: PortLike, open: (name: string) => Promise<OpenedDatabase>): void {
  let opened: OpenedDatabase | null = null;

  async function answer(req: SqliteRequest): Promise<SqliteResponse> {
    try {
      switch (req.op) {
        case 'open':
          opened ??= await open(req.name);
          return { id: req.id, ok: true };
        case 'exec':
          if (!opened) throw new Error('the database is not open');
          return { id: req.id, ok: true, result: execute(opened, req.sql, req.params) };
        case 'close':
          opened?.db.close();
          opened = null;
          return { id: req.id, ok: true };
      }
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      if (e instanceof OpenFailure) return { id: req.id, ok: false, kind: e.kind, message };
      const rc = (e as { resultCode?: number }).resultCode;
      const sqliteCode = rc !== undefined && opened ? opened.sqlite3.capi.sqlite3_js_rc_str(rc) : undefined;
      return { id: req.id, ok: false, kind: 'sql', message, ...(sqliteCode ? { sqliteCode } : {}) };
    }
  }

  let tail = Promise.resolve();
  port.addEventListener('message', (event) => {
    const req = event.data as SqliteRequest;
    tail = tail.then(async () => port.postMessage(await answer(req)));
  });
  port.start?.();
}

/** One statement to completion: its rows when it has columns, else what it changed (as better-sqlite3's `run`). */
function execute({ sqlite3, db }: OpenedDatabase, sql: string, params: readonly unknown[]): ExecResult {
  const stmt = db.prepare(sql);
  try {
    if (params.length) stmt.bind(params as BindableValue[]);
    if (stmt.columnCount > 0) {
      const rows: Record<string, unknown>[] = [];
      while (stmt.step()) rows.push(stmt.get({}));
      return { rows };
    }
    stmt.step();
    return { rows: [], numAffectedRows: BigInt(db.changes()), insertId: BigInt(sqlite3.capi.sqlite3_last_insert_rowid(db)) };
  } finally {
    stmt.finalize();
  }
}
