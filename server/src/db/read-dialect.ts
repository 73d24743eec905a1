/**
 * A Kysely dialect for reads on SQLite's read pool (read-pool.ts): Kysely's own SQLite adapter,
 * compiler and introspector, and a driver whose connections post each statement to the pool, many
 * at once (each worker has a connection of its own). No transactions: writes, and reads that must
 * see a transaction's own writes, stay on the main handle. A statement no worker could answer is
 * read on `main`, the writer's connection.
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
import type { ReadPool } from './read-pool.js';

/** What the main connection must offer to take a read back: better-sqlite3's `prepare`. */
export interface MainReader {
  prepare(sql: string): { reader: boolean; all(params: readonly unknown[]): unknown[] };
}

export class ReadPoolDialect implements Dialect {
  constructor(
    private readonly pool: ReadPool,
    private readonly main: MainReader,
  ) {}

  createDriver(): Driver {
    return new ReadPoolDriver(new ReadPoolConnection(this.pool, this.main));
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

class ReadPoolDriver implements Driver {
  constructor(private readonly connection: ReadPoolConnection) {}

  async init(): Promise<void> {}
  // One connection object serves every caller at once: it holds no state between statements.
  async acquireConnection(): Promise<DatabaseConnection> {
    return this.connection;
  }
  async releaseConnection(): Promise<void> {}

  async beginTransaction(): Promise<void> {
    throw new Error('the read pool takes no transactions: use the main handle');
  }
  async commitTransaction(): Promise<void> {}
  async rollbackTransaction(): Promise<void> {}

  // The pool is the handle's to close (sqlite.ts): Kysely calls this only once a statement has run.
  async destroy(): Promise<void> {}
}

class ReadPoolConnection implements DatabaseConnection {
  constructor(
    private readonly pool: ReadPool,
    private readonly main: MainReader,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const rows = await this.pool.read(query.sql, query.parameters);
    if (rows) return { rows: rows as R[] };
    // No worker answered (none alive, or it died with the statement): the writer's connection reads it.
    const stmt = this.main.prepare(query.sql);
    if (!stmt.reader) throw new Error('the read pool runs reads only');
    return { rows: stmt.all(query.parameters) as R[] };
  }

  // biome-ignore lint/correctness/useYield: Kysely's Driver interface wants a generator; this driver has no streams to give.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming queries is not supported by the read pool');
  }
}
