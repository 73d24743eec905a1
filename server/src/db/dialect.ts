/**
 * The only runtime code that knows which database it is talking to. Everything else uses the
 * Kysely builder and the helpers here. (Migrations have their own twin: migrations/_helpers.ts.)
 */
import { type RawBuilder, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';

export type DialectName = 'sqlite' | 'postgres';

/**
 * The field a unique-constraint violation is about, or null if `err` is something else.
 * Unique indexes are named `uq__<table>__<field>` so Postgres errors can be traced; SQLite names
 * the columns (`UNIQUE constraint failed: products.org_id, products.sku`), the field is the last.
 */
export function uniqueViolationField(err: unknown): string | null {
  const e = err as { code?: string; constraint?: string; message?: string };
  if (e?.code === '23505') return e.constraint?.split('__')[2] ?? 'id';
  if (e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
    const cols = e.message?.split('failed: ')[1]?.split(', ') ?? [];
    return cols[cols.length - 1]?.split('.')[1] ?? 'id';
  }
  return null;
}

/**
 * Lock the selected rows until the transaction ends. SQLite has one writer at a time and Kysely
 * serialises its single connection, so there is nothing to lock there.
 */
export function forUpdate<DB, TB extends keyof DB, O>(dialect: DialectName, qb: SelectQueryBuilder<DB, TB, O>) {
  return dialect === 'postgres' ? qb.forUpdate() : qb;
}

/**
 * `column` contains `text`, ignoring case, with `%`, `_` and `\` in the text matched literally.
 * Postgres: ILIKE. SQLite: LIKE, which already ignores ASCII case (names here are Latin script).
 */
export function containsText(dialect: DialectName, column: string, text: string): RawBuilder<SqlBool> {
  const pattern = `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
  const op = sql.raw(dialect === 'postgres' ? 'ilike' : 'like');
  return sql<SqlBool>`${sql.ref(column)} ${op} ${pattern} escape '\\'`;
}

/**
 * Any of `columns` of `alias` (a table indexed with createTextSearch) contains `text`, ignoring
 * case. SQLite answers from the FTS5 trigram index (texts of 3 characters or more; shorter ones
 * scan); Postgres' ILIKE uses the pg_trgm indexes by itself.
 */
export function textSearch(dialect: DialectName, target: { table: string; alias: string; columns: string[] }, text: string): RawBuilder<SqlBool> {
  if (dialect === 'sqlite' && [...text].length >= 3) {
    const fts = sql.table(`${target.table}_fts`);
    return sql<SqlBool>`${sql.ref(`${target.alias}.rowid`)} in (select rowid from ${fts} where ${fts} match ${`"${text.replace(/"/g, '""')}"`})`;
  }
  const each = target.columns.map((c) => containsText(dialect, `${target.alias}.${c}`, text));
  return sql<SqlBool>`(${sql.join(each, sql` or `)})`;
}

/** A Postgres deadlock (40P01) or serialization failure (40001): the whole transaction may be run again. */
export function isRetryableTransactionError(err: unknown): boolean {
  const code = (err as { code?: string })?.code;
  return code === '40P01' || code === '40001';
}
