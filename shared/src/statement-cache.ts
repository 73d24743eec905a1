/**
 * Kysely's SQLite driver prepares every query afresh, and preparing costs more than running most
 * of our queries. This wraps a better-sqlite3 database (typed structurally, so `shared` needs no
 * driver) to keep statements by SQL text and reuse them: queries are parameterised, so the set is
 * small, and the driver runs each statement to completion synchronously, so one statement is never
 * in use twice at once. Used by the server's SQLite and the till's replica.
 */
export interface Preparing {
  prepare(text: string): unknown;
  close(): unknown;
}

export function cachingStatements<D extends Preparing>(db: D, max = 2000): Pick<D, 'prepare' | 'close'> {
  const cache = new Map<string, ReturnType<D['prepare']>>();
  return {
    close: () => db.close(),
    prepare(text: string) {
      let stmt = cache.get(text);
      if (!stmt) {
        stmt = db.prepare(text) as ReturnType<D['prepare']>;
        if (cache.size >= max) cache.delete(cache.keys().next().value!);
        cache.set(text, stmt);
      }
      return stmt;
    },
  } as Pick<D, 'prepare' | 'close'>;
}
