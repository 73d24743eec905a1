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
  await db.schema
    .createIndex(`ix__${table}__${columns.join('_')}`)
    .on(table)
    .columns(columns)
    .execute();
}

export { sql };

/**
 * Index `columns` of `table` for case-insensitive "contains" search. SQLite: an external-content
 * FTS5 table `<table>_fts` with the trigram tokenizer, kept in step by triggers (keyed on rowid:
 * after a manual VACUUM, rebuild it with `INSERT INTO <table>_fts(<table>_fts) VALUES('rebuild')`).
 * Postgres: pg_trgm GIN indexes, which ILIKE '%…%' uses; skipped, with a notice, where the
 * extension cannot be installed (search then still works, unindexed).
 */
export async function createTextSearch(db: Kysely<any>, table: string, columns: string[]): Promise<void> {
  const fts = `${table}_fts`;
  const cols = columns.join(', ');
  const news = columns.map((c) => `new.${c}`).join(', ');
  const olds = columns.map((c) => `old.${c}`).join(', ');
  if (dialectOf(db) === 'sqlite') {
    await sql
      .raw(`create virtual table ${fts} using fts5(${cols}, content='${table}', content_rowid='rowid', tokenize='trigram')`)
      .execute(db);
    await sql
      .raw(`create trigger ${fts}_ai after insert on ${table} begin insert into ${fts}(rowid, ${cols}) values (new.rowid, ${news}); end`)
      .execute(db);
    await sql
      .raw(
        `create trigger ${fts}_ad after delete on ${table} begin insert into ${fts}(${fts}, rowid, ${cols}) values ('delete', old.rowid, ${olds}); end`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger ${fts}_au after update of ${cols} on ${table} begin ` +
          `insert into ${fts}(${fts}, rowid, ${cols}) values ('delete', old.rowid, ${olds}); ` +
          `insert into ${fts}(rowid, ${cols}) values (new.rowid, ${news}); end`,
      )
      .execute(db);
    await sql.raw(`insert into ${fts}(${fts}) values ('rebuild')`).execute(db);
    return;
  }
  const indexes = columns
    .map((c) => `create index if not exists ix__${table}__${c}_trgm on ${table} using gin (${c} gin_trgm_ops);`)
    .join(' ');
  await sql
    .raw(
      `do $$ begin
         begin create extension if not exists pg_trgm; exception when others then raise notice 'pg_trgm unavailable: text search is unindexed'; end;
         if exists (select 1 from pg_extension where extname = 'pg_trgm') then ${indexes} end if;
       end $$`,
    )
    .execute(db);
}

/** Undo createTextSearch. */
export async function dropTextSearch(db: Kysely<any>, table: string, columns: string[]): Promise<void> {
  const fts = `${table}_fts`;
  const statements =
    dialectOf(db) === 'sqlite'
      ? [`drop trigger ${fts}_ai`, `drop trigger ${fts}_ad`, `drop trigger ${fts}_au`, `drop table ${fts}`]
      : columns.map((c) => `drop index if exists ix__${table}__${c}_trgm`);
  for (const statement of statements) await sql.raw(statement).execute(db);
}

/**
 * Move `table`'s text search from the columns `from` to the columns `to` (what createTextSearch
 * made), existing rows indexed. Re-runnable, since a SQLite migration is not one transaction: a
 * run cut short is finished by the next. SQLite: the FTS5 table and its triggers are dropped if
 * present and built anew over `to`. Postgres: the indexes of columns leaving the search are
 * dropped; those of `to` are created if missing, so the ones kept are not rebuilt.
 */
export async function replaceTextSearch(db: Kysely<any>, table: string, from: string[], to: string[]): Promise<void> {
  const fts = `${table}_fts`;
  const drops =
    dialectOf(db) === 'sqlite'
      ? [
          `drop trigger if exists ${fts}_ai`,
          `drop trigger if exists ${fts}_ad`,
          `drop trigger if exists ${fts}_au`,
          `drop table if exists ${fts}`,
        ]
      : from.filter((c) => !to.includes(c)).map((c) => `drop index if exists ix__${table}__${c}_trgm`);
  for (const statement of drops) await sql.raw(statement).execute(db);
  await createTextSearch(db, table, to);
}

/**
 * Make a column that every row now fills NOT NULL. PostgreSQL alters it in place; SQLite cannot
 * change a column's nullability without rebuilding its table, so there the writes keep the rule.
 */
export async function setNotNull(db: Kysely<any>, table: string, column: string): Promise<void> {
  if (dialectOf(db) === 'postgres') await sql`alter table ${sql.table(table)} alter column ${sql.ref(column)} set not null`.execute(db);
}
