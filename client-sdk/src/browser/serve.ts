/**
 * The worker's half: one SQLite WASM connection, requests run strictly in the order they came
 * (the main thread's driver already sends one statement at a time; the chain keeps an `exec` that
 * arrives while `open` is still loading behind it). Where the database lives is handed in as
 * `open`: OPFS in `sqlite-worker.ts`, memory in the Node tests.
 *
 * Statements are kept prepared by SQL text (as `cachingStatements` does for better-sqlite3): the
 * till's queries are parameterised, so the set is small, and preparing costs more than running
 * most of them. A kept statement is reset after every use (no read stays open behind it); a schema
 * change makes SQLite prepare it again by itself at its next step; `close` finalizes every one.
 */
import type { BindableValue, Database, PreparedStatement, Sqlite3Static } from '@sqlite.org/sqlite-wasm';
import { type DecodedPage, decodePage, type StageConnection, stagePage } from '../replica/stage-page.js';
import type { ExecResult, FailureKind, PortLike, SqliteRequest, SqliteResponse, StageRequest, StageResponse, Step } from './protocol.js';

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

/** Statements kept at most; the least recently used goes first (a bootstrap's one-off chunk sizes). */
const KEPT = 500;

export function serveSqlite(port: PortLike, open: (name: string) => Promise<OpenedDatabase>): void {
  let opened: Connection | null = null;

  async function answer(req: SqliteRequest): Promise<SqliteResponse> {
    let step: number | undefined;
    try {
      switch (req.op) {
        case 'open':
          opened ??= new Connection(await open(req.name));
          return { id: req.id, ok: true };
        case 'exec':
          return { id: req.id, ok: true, result: connection().run(req.sql, req.params) };
        case 'batch': {
          const c = connection();
          const results: ExecResult[] = [];
          for (step = 0; step < req.steps.length; step++) results.push(c.runStep(req.steps[step]!, req.steps[step - 1]));
          return { id: req.id, ok: true, results };
        }
        case 'close':
          opened?.close();
          opened = null;
          return { id: req.id, ok: true };
      }
    } catch (e) {
      if (e instanceof OpenFailure) return { id: req.id, ok: false, kind: e.kind, message: e.message };
      return { ...sqlFailure(req.id, e), ...(step !== undefined ? { step } : {}) };
    }
  }

  /** Bootstrap pages decoded here, by request id, until their `stage` request. */
  const decoded = new Map<string, DecodedPage>();
  function pageStep(req: StageRequest): StageResponse {
    try {
      if (req.op === 'decode') {
        const page = decodePage(req.page);
        decoded.set(req.id, page);
        return { id: req.id, ok: true, head: { page_token: page.page_token, cursor: page.cursor, total: page.total } };
      }
      const page = decoded.get(req.id);
      decoded.delete(req.id);
      if (!page) throw new Error(`no bootstrap page ${req.id} was decoded`);
      return { id: req.id, ok: true, staged: stagePage(page, connection()) };
    } catch (e) {
      return sqlFailure(req.id, e);
    }
  }

  /** A statement's failure as the main thread hears it: the message and SQLite's own code name. */
  function sqlFailure<Id>(id: Id, e: unknown) {
    const rc = (e as { resultCode?: number }).resultCode;
    const sqliteCode = rc !== undefined && opened ? opened.sqlite3.capi.sqlite3_js_rc_str(rc) : undefined;
    const message = e instanceof Error ? e.message : String(e);
    return { id, ok: false as const, kind: 'sql' as const, message, ...(sqliteCode ? { sqliteCode } : {}) };
  }

  function connection(): Connection {
    if (!opened) throw new Error('the database is not open');
    return opened;
  }

  /**
   * Pages waiting for the main thread's transaction to end: a page is staged in a transaction of
   * its own (its savepoint), never inside one of the till's, which could roll it back or commit it
   * half. So the bootstrap need not hold the till's connection while a page is staged, and the
   * next page's download (whose sign-in reads the replica) goes on meanwhile.
   */
  const parked: StageRequest[] = [];
  const stageParked = () => {
    if (opened && !opened.idle()) return;
    for (const req of parked.splice(0)) port.postMessage(pageStep(req));
  };
  let tail = Promise.resolve();
  port.addEventListener('message', (event) => {
    const req = event.data as SqliteRequest | StageRequest;
    tail = tail.then(async () => {
      if (req.op === 'stage') parked.push(req);
      else port.postMessage(req.op === 'decode' ? pageStep(req) : await answer(req));
      stageParked();
    });
  });
  port.start?.();
}

class Connection implements StageConnection {
  private readonly kept = new Map<string, PreparedStatement>();
  readonly sqlite3: Sqlite3Static;
  private readonly db: Database;

  constructor(o: OpenedDatabase) {
    this.sqlite3 = o.sqlite3;
    this.db = o.db;
  }

  /** A batch's step; one without `sql` runs the previous step's statement again. */
  runStep(s: Step, before: Step | undefined): ExecResult {
    const text = s.sql ?? before?.sql;
    if (text === undefined) throw new Error("a batch's first step needs its SQL");
    if (s.sql === undefined) s.sql = text;
    return this.run(text, s.params);
  }

  /** One statement to completion: its rows when it has columns, else what it changed (as better-sqlite3's `run`). */
  run(text: string, params: readonly unknown[]): ExecResult {
    const stmt = this.prepare(text);
    try {
      if (params.length) stmt.bind(params as BindableValue[]);
      if (stmt.columnCount > 0) {
        const rows: Record<string, unknown>[] = [];
        while (stmt.step()) rows.push(stmt.get({}));
        return { rows };
      }
      stmt.step();
      return {
        rows: [],
        numAffectedRows: BigInt(this.db.changes()),
        insertId: BigInt(this.sqlite3.capi.sqlite3_last_insert_rowid(this.db)),
      };
    } catch (e) {
      // Not kept: a statement whose step failed answers its reset with that failure again.
      this.kept.delete(text);
      stmt.finalize();
      throw e;
    } finally {
      if (this.kept.get(text) === stmt) stmt.reset(params.length > 0);
    }
  }

  /** No transaction open: the connection is in autocommit mode. */
  idle(): boolean {
    return this.sqlite3.capi.sqlite3_get_autocommit(this.db) !== 0;
  }

  exec(text: string): void {
    this.run(text, []);
  }

  /** One kept statement for many parameter rows (a bootstrap page's inserts): bound, stepped and reset per row. */
  statement(text: string): (params: unknown[]) => void {
    const stmt = this.prepare(text);
    return (params) => {
      try {
        stmt.bind(params as BindableValue[]);
        stmt.step();
      } catch (e) {
        this.kept.delete(text);
        stmt.finalize();
        throw e;
      } finally {
        if (this.kept.get(text) === stmt) stmt.reset(true);
      }
    };
  }

  close(): void {
    for (const stmt of this.kept.values()) stmt.finalize();
    this.kept.clear();
    this.db.close();
  }

  private prepare(text: string): PreparedStatement {
    let stmt = this.kept.get(text);
    if (stmt) {
      // Most recently used last: the first is the one to let go.
      this.kept.delete(text);
    } else {
      stmt = this.db.prepare(text);
      if (this.kept.size >= KEPT) {
        const [oldest, old] = this.kept.entries().next().value!;
        this.kept.delete(oldest);
        old.finalize();
      }
    }
    this.kept.set(text, stmt);
    return stmt;
  }
}
