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

/** Statements that change the schema: after one, a statement's columns are read again (below). */
const SCHEMA_CHANGE = /^\s*(create|alter|drop)\b/i;

export function cachingStatements<D extends Preparing>(db: D, max = 2000): Pick<D, 'prepare' | 'close'> {
  const cache = new Map<string, ReturnType<D['prepare']>>();
  const schema = { changes: 0 };
  return {
    close: () => db.close(),
    prepare(text: string) {
      // Counted when prepared: the driver runs it at once, before any other statement.
      if (SCHEMA_CHANGE.test(text)) schema.changes++;
      let stmt = cache.get(text);
      if (!stmt) {
        stmt = arrayRows(db.prepare(text), schema) as ReturnType<D['prepare']>;
        if (cache.size >= max) cache.delete(cache.keys().next().value!);
        cache.set(text, stmt);
      }
      return stmt;
    },
  } as Pick<D, 'prepare' | 'close'>;
}

type RowMaker = (values: readonly unknown[]) => Record<string, unknown>;

/**
 * A function making a row's object from its array, for these column names: an object literal, so
 * every row of the statement shares one shape (fast to read and to serialise). A name repeated
 * keeps its first place and its last value, as better-sqlite3's own objects do. A `__proto__`
 * column (which a literal would take for the prototype) gets the objects made a property at a
 * time, as better-sqlite3 makes them: it sets nothing.
 */
export function rowMaker(names: readonly string[]): RowMaker {
  if (names.includes('__proto__'))
    return (values) => {
      const row: Record<string, unknown> = {};
      for (let i = 0; i < names.length; i++) row[names[i]!] = values[i];
      return row;
    };
  // The names are the database's (the SQL's own aliases and columns), quoted as JSON strings.
  return new Function('v', `return { ${names.map((n, i) => `${JSON.stringify(n)}: v[${i}]`).join(', ')} };`) as RowMaker;
}

/**
 * A statement answering rows as objects made by `rowMaker`; one that answers none as it is. SQLite
 * prepares a statement again when the schema has changed, and `select *` then answers the table's
 * new columns: the maker is made again after a schema change made through this cache (the
 * migrations, the till's staging tables), or when a row comes with another number of columns.
 */
function arrayRows(prepared: unknown, schema: { changes: number }): unknown {
  const stmt = prepared as RowStatement;
  if (!stmt.reader || typeof stmt.raw !== 'function') return prepared;
  stmt.raw(true);
  let seen = 0;
  let width = 0;
  let make: RowMaker;
  const remake = () => {
    const names = stmt.columns().map((c) => c.name);
    [seen, width, make] = [schema.changes, names.length, rowMaker(names)];
    return make;
  };
  remake();
  // Read after the statement ran: its columns are those of the statement as SQLite prepared it again.
  const maker = (row: unknown[]) => (seen !== schema.changes || row.length !== width ? remake() : make);
  return {
    reader: true,
    columns: () => stmt.columns(),
    run: (...params: unknown[]) => stmt.run(...params),
    all(...params: unknown[]) {
      const rows = stmt.all(...params) as unknown[][];
      if (rows.length === 0) return rows;
      const m = maker(rows[0]!);
      for (let i = 0; i < rows.length; i++) (rows as unknown[])[i] = m(rows[i]!);
      return rows;
    },
    get(...params: unknown[]) {
      const row = stmt.get(...params) as unknown[] | undefined;
      return row === undefined ? undefined : maker(row)(row);
    },
    *iterate(...params: unknown[]) {
      for (const row of stmt.iterate(...params)) yield maker(row as unknown[])(row as unknown[]);
    },
  };
}
