/**
 * A stage's writes in one go: compiled statements run in order on the transaction's connection,
 * none waiting for the one before to come back. A connection that takes several statements at
 * once (the browser's worker: one message instead of a round trip each) has `runInOrder`; any
 * other (better-sqlite3 in Node) runs them one after the other, synchronously inside.
 *
 * `commit`: these are the transaction's last statements, and its commit may go with them (the
 * browser sends begin…writes…commit as one message); Kysely's own commit then has nothing left to
 * do. A failed step stops the rest and leaves the transaction open for Kysely's rollback, so a
 * failure anywhere takes back everything the transaction wrote.
 */
import type { CompiledQuery, DatabaseConnection, QueryResult } from 'kysely';
import type { LocalExec } from './db.js';

export interface InOrderConnection extends DatabaseConnection {
  runInOrder(queries: readonly CompiledQuery[], o: { commit: boolean }): Promise<QueryResult<unknown>[]>;
}

const inOrder = (c: DatabaseConnection): c is InOrderConnection => 'runInOrder' in c;

export async function runInOrder(db: LocalExec, queries: readonly CompiledQuery[], o = { commit: false }): Promise<QueryResult<unknown>[]> {
  if (!queries.length) return [];
  // The executor is Kysely's internal API, the one way to the transaction's own connection.
  return db.getExecutor().provideConnection(async (connection) => {
    if (inOrder(connection)) return connection.runInOrder(queries, o);
    const results: QueryResult<unknown>[] = [];
    for (const query of queries) results.push(await connection.executeQuery(query));
    return results;
  });
}
