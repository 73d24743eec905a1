/**
 * Kysely's SQLite driver prepares every query afresh, and preparing costs more than running most
 * of our queries. This wraps a better-sqlite3 database (typed structurally, so `shared` needs no
 * driver) to keep statements by SQL text and reuse them: queries are parameterised, so the set is
 * small, and the driver runs each statement to completion synchronously, so one statement is never
 * in use twice at once. Used by the server's SQLite and the till's replica.
 *
 * A statement that answers rows reads them as arrays and makes each an object here (`rowMaker`):
 * better-sqlite3 builds its row objects a property at a time through V8's API, which took about
 * twice as long as reading the arrays, and left objects slower to read and to serialise (issue 53,
 * session 33: docs/benchmarks.md).
 */
export interface Preparing {
  prepare(text: string): unknown;
  close(): unknown;
}

/** What a statement of better-sqlite3 offers that answers rows: its columns, and reading them as arrays. */
interface RowStatement {
  reader: boolean;
  columns(): Array<{ name: string }>;
  raw(on: boolean): unknown;
  all(...params: unknown[]): unknown[];
  iterate(...params: unknown[]): IterableIterator<unknown>;
  get(...params: unknown[]): unknown;
  run(...params: unknown[]): unknown;
}

export function cachingStatements<D extends Preparing>(db: D, max = 2000): Pick<D, 'prepare' | 'close'> {
  const cache = new Map<string, ReturnType<D['prepare']>>();
  return {
    close: () => db.close(),
    prepare(text: string) {
      let stmt = cache.get(text);
      if (!stmt) {
        stmt = arrayRows(db.prepare(text)) as ReturnType<D['prepare']>;
        if (cache.size >= max) cache.delete(cache.keys().next().value!);
        cache.set(text, stmt);
      }
      return stmt;
    },
  } as Pick<D, 'prepare' | 'close'>;
}

/**
 * A function making a row's object from its array, for these column names: an object literal, so
 * every row of the statement shares one shape (fast to read and to serialise). A name repeated
 * keeps its first place and its last value, as better-sqlite3's own objects do. `null` for a name
 * an object literal cannot hold as a plain property (`__proto__` sets the prototype).
 */
export function rowMaker(names: readonly string[]): ((values: readonly unknown[]) => Record<string, unknown>) | null {
  if (names.includes('__proto__')) return null;
  // The names are the database's (the SQL's own aliases and columns), quoted as JSON strings.
  return new Function('v', `return { ${names.map((n, i) => `${JSON.stringify(n)}: v[${i}]`).join(', ')} };`) as (
    values: readonly unknown[],
  ) => Record<string, unknown>;
}

/** A statement answering rows as objects made by `rowMaker`; others (and one whose columns cannot be) as they are. */
function arrayRows(prepared: unknown): unknown {
  const stmt = prepared as RowStatement;
  if (!stmt.reader || typeof stmt.raw !== 'function') return prepared;
  const make = rowMaker(stmt.columns().map((c) => c.name));
  if (!make) return prepared;
  stmt.raw(true);
  return {
    reader: true,
    columns: () => stmt.columns(),
    run: (...params: unknown[]) => stmt.run(...params),
    all(...params: unknown[]) {
      const rows = stmt.all(...params);
      for (let i = 0; i < rows.length; i++) rows[i] = make(rows[i] as unknown[]);
      return rows;
    },
    get(...params: unknown[]) {
      const row = stmt.get(...params) as unknown[] | undefined;
      return row === undefined ? undefined : make(row);
    },
    *iterate(...params: unknown[]) {
      for (const row of stmt.iterate(...params)) yield make(row as unknown[]);
    },
  };
}
