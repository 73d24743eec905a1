/**
 * A Kysely dialect over SQLite in a worker: Kysely's own SQLite adapter, compiler and
 * introspector, and a driver whose one connection posts each statement to the worker. Like
 * Kysely's `SqliteDriver`, the single connection is handed out under a mutex, so a transaction
 * (`begin` … `commit` on that connection) never interleaves with another query.
 */
import {
  type CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely';
import type { InOrderConnection } from '../local/batch.js';
import { type WorkerLink, WorkerSqliteError } from './link.js';

export class WorkerSqliteDialect implements Dialect {
  /** `close` ends the worker once the database is closed (Kysely's `destroy`, the till's `close()`). */
  constructor(
    private readonly link: WorkerLink,
    private readonly close: () => Promise<void>,
  ) {}

  createDriver(): Driver {
    return new WorkerSqliteDriver(new WorkerSqliteConnection(this.link), this.close);
  }
  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler();
  }
  createAdapter(): DialectAdapter {
    return new SqliteAdapter();
  }
  createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new SqliteIntrospector(db);
  }
}

class WorkerSqliteDriver implements Driver {
  private readonly mutex = new Mutex();

  constructor(
    private readonly connection: WorkerSqliteConnection,
    private readonly close: () => Promise<void>,
  ) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.mutex.lock();
    return this.connection;
  }
  async releaseConnection(): Promise<void> {
    this.mutex.unlock();
  }

  async beginTransaction(): Promise<void> {
    this.connection.begin();
  }
  async commitTransaction(): Promise<void> {
    await this.connection.end('commit');
  }
  async rollbackTransaction(): Promise<void> {
    await this.connection.end('rollback');
  }

  async destroy(): Promise<void> {
    await this.close();
  }
}

class WorkerSqliteConnection implements InOrderConnection {
  /**
   * `pending`: a transaction began but its `begin` is not sent yet; it goes with the transaction's
   * first statement, in one message (a round trip to the worker less for every transaction).
   */
  private transaction: 'none' | 'pending' | 'open' = 'none';

  constructor(private readonly link: WorkerLink) {}

  begin(): void {
    this.transaction = 'pending';
  }

  /** Commit or roll back; a transaction that never ran a statement never began in the worker. */
  async end(how: 'commit' | 'rollback'): Promise<void> {
    const was = this.transaction;
    this.transaction = 'none';
    if (was === 'open') await this.link.request({ op: 'exec', sql: how, params: [] });
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const step = { sql: query.sql, params: query.parameters };
    if (this.transaction !== 'pending') return ((await this.link.request({ op: 'exec', ...step })) ?? { rows: [] }) as QueryResult<R>;
    try {
      const [, result] = await this.link.batch([{ sql: 'begin', params: [] }, step]);
      this.transaction = 'open';
      return result as QueryResult<R>;
    } catch (e) {
      // Past `begin` the transaction is open, for the caller's rollback; a refused `begin` opened none.
      this.transaction = e instanceof WorkerSqliteError && e.step === 0 ? 'none' : 'open';
      throw e;
    }
  }

  /**
   * Several statements in one message (`local/batch.ts`), with the `begin` still to send ahead of
   * them and, when `commit`, the commit after them: a transaction's writes and its end in one round
   * trip. A failed step leaves the transaction open for the caller's rollback, as one statement does.
   */
  async runInOrder(queries: readonly CompiledQuery[], { commit }: { commit: boolean }): Promise<QueryResult<unknown>[]> {
    const begin = this.transaction === 'pending';
    const end = commit && this.transaction !== 'none';
    const steps = queries.map((q) => ({ sql: q.sql, params: q.parameters }));
    if (begin) steps.unshift({ sql: 'begin', params: [] });
    if (end) steps.push({ sql: 'commit', params: [] });
    try {
      const results = await this.link.batch(steps);
      if (begin) this.transaction = 'open';
      if (end) this.transaction = 'none';
      return results.slice(begin ? 1 : 0, (begin ? 1 : 0) + queries.length) as QueryResult<unknown>[];
    } catch (e) {
      if (begin) this.transaction = e instanceof WorkerSqliteError && e.step === 0 ? 'none' : 'open';
      throw e;
    }
  }

  // biome-ignore lint/correctness/useYield: Kysely's Driver interface wants a generator; this driver has no streams to give.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming queries is not supported by the worker SQLite driver');
  }
}

/** One holder at a time, the others in arrival order. */
class Mutex {
  private tail: Promise<void> = Promise.resolve();
  private release: (() => void) | null = null;

  async lock(): Promise<void> {
    const before = this.tail;
    let release!: () => void;
    this.tail = new Promise((resolve) => (release = resolve));
    await before;
    this.release = release;
  }

  unlock(): void {
    const release = this.release;
    this.release = null;
    release?.();
  }
}
