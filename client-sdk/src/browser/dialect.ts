/**
 * A Kysely dialect over SQLite in a worker: Kysely's own SQLite adapter, compiler and
 * introspector, and a driver whose one connection posts each statement to the worker. Like
 * Kysely's `SqliteDriver`, the single connection is handed out under a mutex, so a transaction
 * (`begin` … `commit` on that connection) never interleaves with another query.
 */
import {
  CompiledQuery,
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
import type { WorkerLink } from './link.js';

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

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin'));
  }
  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }
  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async destroy(): Promise<void> {
    await this.close();
  }
}

class WorkerSqliteConnection implements DatabaseConnection {
  constructor(private readonly link: WorkerLink) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.link.request({ op: 'exec', sql: query.sql, params: query.parameters });
    return (result ?? { rows: [] }) as QueryResult<R>;
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
