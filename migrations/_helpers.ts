/**
 * Column helpers shared by every migration: the one place migrations look at the dialect.
 *
 * Storage conventions (identical on SQLite and PostgreSQL, so one query code path serves both):
 * - ids are text (UUID strings), so a malformed id in a query is a miss, never a type error;
 * - timestamps are epoch milliseconds in `bigint` (day buckets are integer arithmetic);
 * - money is integer minor units (cents) in `bigint`; percentages as basis points;
 * - flags are `smallint` 0/1 (better-sqlite3 cannot bind booleans);
 * - JSON is text.
 * SQLite's type affinity maps `bigint`/`smallint` to INTEGER and `double precision` to REAL.
 */
import { type ColumnDefinitionBuilder, type Kysely, PostgresAdapter, sql } from 'kysely';

export type Dialect = 'sqlite' | 'postgres';

export function dialectOf(db: Kysely<any>): Dialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

export const t = {
  id: 'text',
  text: 'text',
  int: 'integer',
  big: 'bigint',
  flag: 'smallint',
  real: 'double precision',
} as const;


/** A 0/1 flag with a default. */
export const flag = (value: 0 | 1) => (c: ColumnDefinitionBuilder) => c.notNull().defaultTo(value);

/** Unique index named so that a violation can be traced back to its field on both dialects. */
export async function uniqueIndex(db: Kysely<any>, table: string, columns: string[], field = columns[columns.length - 1]!) {
  await db.schema.createIndex(`uq__${table}__${field}`).on(table).columns(columns).unique().execute();
}

export async function index(db: Kysely<any>, table: string, columns: string[]) {
  await db.schema.createIndex(`ix__${table}__${columns.join('_')}`).on(table).columns(columns).execute();
}

export { sql };
