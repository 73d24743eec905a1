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
 * Index `columns` of `table` by word, for "a word starts with" search of 1 or 2 letters or digits
 * (server/src/db/dialect.ts `wordSearch`). SQLite: an external-content FTS5 table `<table>_words`
 * (unicode61 words, case folded, accents kept, prefix indexes of 1 and 2 characters), kept in step
 * by triggers as createTextSearch's is (keyed on rowid). Postgres: a GIN index `ix__<table>__words`
 * on the columns' `simple` words, `-./:@+` read as spaces, the very expression `wordSearch` matches.
 * Existing rows are indexed. Re-runnable (a SQLite migration is not one transaction).
 */
export async function createWordSearch(db: Kysely<any>, table: string, columns: string[]): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    const text = columns.map((c) => `coalesce(${c}, '')`).join(" || ' ' || ");
    await sql
      .raw(
        `create index if not exists ix__${table}__words on ${table} using gin (to_tsvector('simple'::regconfig, translate(${text}, '-./:@+', '      ')))`,
      )
      .execute(db);
    return;
  }
  await dropWordSearch(db, table);
  const words = `${table}_words`;
  const cols = columns.join(', ');
  const news = columns.map((c) => `new.${c}`).join(', ');
  const olds = columns.map((c) => `old.${c}`).join(', ');
  const statements = [
    `create virtual table ${words} using fts5(${cols}, content='${table}', content_rowid='rowid', tokenize='unicode61 remove_diacritics 0', prefix='1 2')`,
    `create trigger ${words}_ai after insert on ${table} begin insert into ${words}(rowid, ${cols}) values (new.rowid, ${news}); end`,
    `create trigger ${words}_ad after delete on ${table} begin insert into ${words}(${words}, rowid, ${cols}) values ('delete', old.rowid, ${olds}); end`,
    `create trigger ${words}_au after update of ${cols} on ${table} begin ` +
      `insert into ${words}(${words}, rowid, ${cols}) values ('delete', old.rowid, ${olds}); ` +
      `insert into ${words}(rowid, ${cols}) values (new.rowid, ${news}); end`,
    `insert into ${words}(${words}) values ('rebuild')`,
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}

/** Undo createWordSearch (if present). */
export async function dropWordSearch(db: Kysely<any>, table: string): Promise<void> {
  const words = `${table}_words`;
  const statements =
    dialectOf(db) === 'postgres'
      ? [`drop index if exists ix__${table}__words`]
      : [
          `drop trigger if exists ${words}_ai`,
          `drop trigger if exists ${words}_ad`,
          `drop trigger if exists ${words}_au`,
          `drop table if exists ${words}`,
        ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}

/**
 * Make a column that every row now fills NOT NULL. PostgreSQL alters it in place; SQLite cannot
 * change a column's nullability without rebuilding its table, so there the writes keep the rule.
 */
export async function setNotNull(db: Kysely<any>, table: string, column: string): Promise<void> {
  if (dialectOf(db) === 'postgres') await sql`alter table ${sql.table(table)} alter column ${sql.ref(column)} set not null`.execute(db);
}

const quoted = (columns: string[]) => columns.map((c) => `"${c}"`).join(', ');

/**
 * Make `columns` the primary key (named `name`) of `table`. PostgreSQL alters it in place. SQLite
 * cannot: a key declared as a table constraint (`constraint "<name>" primary key (…)`) is changed by
 * building the table anew, filling it and swapping it in (safe only where no foreign key points at
 * the table); a key declared on its column (`"id" text primary key`) is kept as it is.
 */
export async function setPrimaryKey(db: Kysely<any>, table: string, name: string, columns: string[]): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    await sql
      .raw(`alter table "${table}" drop constraint "${name}", add constraint "${name}" primary key (${quoted(columns)})`)
      .execute(db);
    return;
  }
  const { rows } = await sql<{ type: string; sql: string | null }>`select type, sql from sqlite_master where tbl_name = ${table}`.execute(
    db,
  );
  const ddl = rows.find((r) => r.type === 'table')!.sql!;
  const key = new RegExp(`constraint "${name}" primary key \\([^)]*\\)`);
  if (!key.test(ddl)) return;
  let next = ddl
    .replace(key, `constraint "${name}" primary key (${quoted(columns)})`)
    .replace(`CREATE TABLE "${table}"`, `CREATE TABLE "${table}__rebuilt"`);
  // A key's columns are NOT NULL; SQLite only enforces it when the column says so.
  for (const c of columns) next = next.replace(`"${c}" text,`, `"${c}" text not null,`);
  const { rows: cols } = await sql<{ name: string }>`select name from pragma_table_info(${table})`.execute(db);
  const all = quoted(cols.map((c) => c.name));
  await sql.raw(next).execute(db);
  await sql.raw(`insert into "${table}__rebuilt" (${all}) select ${all} from "${table}"`).execute(db);
  await sql.raw(`drop table "${table}"`).execute(db);
  await sql.raw(`alter table "${table}__rebuilt" rename to "${table}"`).execute(db);
  for (const index of rows.filter((r) => r.type === 'index' && r.sql)) await sql.raw(index.sql!).execute(db);
}

/** Add a foreign key on PostgreSQL. SQLite cannot add one to an existing table: its tables keep those they were made with. */
export async function addForeignKey(
  db: Kysely<any>,
  table: string,
  name: string,
  columns: string[],
  parent: string,
  parentColumns: string[],
) {
  if (dialectOf(db) !== 'postgres') return;
  await sql
    .raw(
      `alter table "${table}" add constraint "${name}" foreign key (${quoted(columns)}) references "${parent}" (${quoted(parentColumns)})`,
    )
    .execute(db);
}

/** Drop a foreign key on PostgreSQL; on SQLite it stays (see addForeignKey). */
export async function dropForeignKey(db: Kysely<any>, table: string, name: string) {
  if (dialectOf(db) !== 'postgres') return;
  await sql.raw(`alter table "${table}" drop constraint "${name}"`).execute(db);
}

/**
 * A unique index on `(org_id, id)` where the primary key is not that already: SQLite, whose tables
 * keep `id` as their key, for a statement that names the key as PostgreSQL has it (an insert's
 * `on conflict (org_id, id)`). `drop` removes it.
 */
export async function orgIdIndex(db: Kysely<any>, table: string, drop = false): Promise<void> {
  if (dialectOf(db) === 'postgres') return;
  if (drop) await sql.raw(`drop index "uq__${table}__id"`).execute(db);
  else await sql.raw(`create unique index "uq__${table}__id" on "${table}" ("org_id", "id")`).execute(db);
}
