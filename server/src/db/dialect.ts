/**
 * The only runtime code that knows which database it is talking to. Everything else uses the
 * Kysely builder and the helpers here. (Migrations have their own twin: migrations/_helpers.ts.)
 */
import {
  CompiledQuery,
  type Insertable,
  type Kysely,
  PostgresAdapter,
  type RawBuilder,
  type SelectQueryBuilder,
  type SqlBool,
  sql,
} from 'kysely';
import type { Database } from './database.js';
import type { ChangeLogTable } from './tables/change-log.table.js';
import { counting, noteWait } from './statement-count.js';

export type DialectName = 'sqlite' | 'postgres';

/**
 * Embedded SQLite has one server process (several instances need Postgres): at that server's
 * start, whatever a server process left claimed in the database was a dead process's.
 */
export const soleServer = (dialect: DialectName): boolean => dialect === 'sqlite';

/**
 * The time, epoch ms, by which leases and claims shared between server instances are judged: the
 * database's clock on Postgres (clock_timestamp(), the statement's moment, not the transaction's
 * start), so instances whose clocks disagree still agree on who holds what. SQLite has one server
 * process, whose clock (`processNow`, the injected one) is the only clock there is.
 */
export function databaseNow(dialect: DialectName, processNow: number): RawBuilder<number> {
  return dialect === 'postgres' ? sql<number>`(extract(epoch from clock_timestamp()) * 1000)::bigint` : sql<number>`${processNow}`;
}

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
 * What the database refused about the data itself, as opposed to a fault: a constraint (unique,
 * foreign key, check, not null) or a value it cannot hold (a number out of its column's range, a
 * malformed value). 'constraint' and 'value', or null for anything else (a lost connection, a
 * deadlock, a bug), which must stay a fault. The push uses it to reject one mutation and go on; the
 * error renderer to answer a 4xx where a rule in the code was missing.
 */
export function databaseRefusal(err: unknown): 'constraint' | 'value' | null {
  const code = (err as { code?: unknown })?.code;
  if (typeof code !== 'string') return null;
  // Postgres SQLSTATE classes: 23 integrity constraint violation, 22 data exception.
  if (/^23[0-9A-Z]{3}$/.test(code)) return 'constraint';
  if (/^22[0-9A-Z]{3}$/.test(code)) return 'value';
  // A trigger's abort is not one of our constraints (ours raise nothing): a fault, like Postgres' RAISE.
  if (code.startsWith('SQLITE_CONSTRAINT') && code !== 'SQLITE_CONSTRAINT_TRIGGER') return 'constraint';
  if (code === 'SQLITE_MISMATCH' || code === 'SQLITE_TOOBIG' || code === 'SQLITE_RANGE') return 'value';
  return null;
}

/**
 * Lock the selected rows until the transaction ends. SQLite has one writer at a time and Kysely
 * serialises its single connection, so there is nothing to lock there.
 *
 * On Postgres the lock is FOR NO KEY UPDATE, what an UPDATE of non-key columns takes (every
 * locked read here updates counters, quantities or balances, never a key). FOR UPDATE would
 * also block the FOR KEY SHARE that a foreign-key check takes on its parent row: a sale holding
 * its store's row, and a stock write holding a stock row while its insert's foreign key waits
 * for that store row, deadlocked in the 500-till soak.
 */
export function forUpdate<DB, TB extends keyof DB, O>(dialect: DialectName, qb: SelectQueryBuilder<DB, TB, O>) {
  return dialect === 'postgres' ? qb.forNoKeyUpdate() : qb;
}

/**
 * Queue transactions that name the same `key` until each ends (Postgres: a transaction-scoped
 * advisory lock on the key's hash). SQLite runs one writing transaction at a time already. For a
 * rule no row can hold ("one drafting per store") where locking a hot row would stall sales.
 */
export async function lockKey(dialect: DialectName, db: Kysely<Database>, key: string): Promise<void> {
  if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(hashtext(${key}))`.execute(db);
}

/**
 * Run reads that take row locks, reporting how long they took as the request's wait for the
 * database (COUNT_STATEMENTS, x-db-wait-ms): on Postgres a locking read's time is the wait for
 * locks others hold. SQLite waits for its one writer before the transaction starts (counted there),
 * so its locking reads are plain reads.
 */
export async function lockWait<T>(dialect: DialectName, reads: () => Promise<T>): Promise<T> {
  if (dialect !== 'postgres' || !counting()) return reads();
  const started = performance.now();
  try {
    return await reads();
  } finally {
    noteWait(performance.now() - started);
  }
}

/**
 * `<column> = orgId` beside a lookup whose own key finds the rows (ids, a store and product), for
 * issue 36. PostgreSQL: the plain comparison, which a database placed by organisation routes by.
 * SQLite: `+<column> = ?`, the unary plus keeping the planner off the indexes led by org_id, which
 * missing statistics, or statistics taken while each organisation had one row, make look as
 * selective as the key: it then walked a whole catalogue for 3 ids (docs/operations.md, the adjust
 * drift). The organisation is checked on each row the key found. The tenant-scope check counts it.
 */
export function orgIdCheck(dialect: DialectName, column: string, orgId: string): RawBuilder<SqlBool> {
  return dialect === 'sqlite' ? sql<SqlBool>`+${sql.ref(column)} = ${orgId}` : sql<SqlBool>`${sql.ref(column)} = ${orgId}`;
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
export function textSearch(
  dialect: DialectName,
  target: { table: string; alias: string; columns: string[] },
  text: string,
): RawBuilder<SqlBool> {
  if (dialect === 'sqlite' && [...text].length >= 3) {
    const fts = sql.table(`${target.table}_fts`);
    return sql<SqlBool>`${sql.ref(`${target.alias}.rowid`)} in (select rowid from ${fts} where ${fts} match ${`"${text.replace(/"/g, '""')}"`})`;
  }
  const each = target.columns.map((c) => containsText(dialect, `${target.alias}.${c}`, text));
  return sql<SqlBool>`(${sql.join(each, sql` or `)})`;
}

/**
 * `columns` of `alias`, as words: their text with `-./:@+` read as spaces (so that both databases cut
 * "SKU-4711" into "sku" and "4711"; PostgreSQL's parser alone would read "-4711"). PostgreSQL's
 * createWordSearch index is on this very expression (migrations/_helpers.ts): keep the two alike.
 */
const pgWords = (alias: string, columns: string[]) =>
  `to_tsvector('simple'::regconfig, translate(${columns.map((c) => `coalesce(${alias}.${c}, '')`).join(" || ' ' || ")}, '-./:@+', '      '))`;

/**
 * A word of one of `columns` of `alias` (a table indexed with createWordSearch) starts with `term`,
 * any case; `term` is letters and digits only (what both word indexes take as one word). SQLite:
 * the FTS5 table `<table>_words` (unicode61 words, prefix indexes); Postgres: the GIN index on the
 * columns' `simple` words, a prefix query.
 */
export function wordSearch(
  dialect: DialectName,
  target: { table: string; alias: string; columns: string[] },
  term: string,
): RawBuilder<SqlBool> {
  if (!/^[\p{L}\p{N}]+$/u.test(term)) throw new Error('wordSearch takes letters and digits only');
  if (dialect === 'sqlite') {
    const words = sql.table(`${target.table}_words`);
    return sql<SqlBool>`${sql.ref(`${target.alias}.rowid`)} in (select rowid from ${words} where ${words} match ${`"${term}"*`})`;
  }
  return sql<SqlBool>`${sql.raw(pgWords(target.alias, target.columns))} @@ to_tsquery('simple'::regconfig, ${`${term}:*`})`;
}

/** A Postgres deadlock (40P01) or serialization failure (40001): the whole transaction may be run again. */
export function isRetryableTransactionError(err: unknown): boolean {
  const code = (err as { code?: string })?.code;
  return code === '40P01' || code === '40001';
}

/**
 * The database could not take the statement now, though nothing is wrong with it: SQLite's file
 * locked by another process past busy_timeout (someone's sqlite3 shell, a copy taken without the
 * backup API), Postgres out of connections or starting up. Answered 503 with Retry-After.
 */
export function isBusyDatabaseError(err: unknown): boolean {
  const code = (err as { code?: string })?.code;
  return (
    typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED') || code === '53300' || code === '57P03')
  );
}

/** Node's errors for a peer gone away or out of reach (the database, or the pooler in front of it). */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** What node-postgres says, without a code, of a connection that failed or timed out. */
const LOST_CONNECTION =
  /^(Connection terminated|Client has encountered a connection error|Client was closed|timeout exceeded when trying to connect)/;

/**
 * The database is out of reach: shut down or restarting (57P01, 57P02), a connection exception
 * (class 08, which is also what PgBouncer answers when its server connection died or it cannot
 * reach the server: "server conn crashed?"), the network refusing or resetting, or a connection
 * node-postgres lost. Nothing was committed unless the answer was lost after a COMMIT, which a
 * till's retry of the same mutation ids settles. Answered 503 with Retry-After, and the pool
 * reconnects on its own once the database is back.
 */
export function isUnreachableDatabaseError(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  const code = typeof e?.code === 'string' ? e.code : '';
  if (code === '57P01' || code === '57P02' || code.startsWith('08') || NETWORK_CODES.has(code)) return true;
  return typeof e?.message === 'string' && LOST_CONNECTION.test(e.message);
}

export const onPostgres = (db: Kysely<Database>) => db.getExecutor().adapter instanceof PostgresAdapter;

/** Bound parameters per statement: under SQLite's 32,766 (Postgres takes the rows as one JSON parameter). */
const MAX_PARAMETERS = 30_000;

/**
 * A write that can go with others in one statement (`writeTogether`): its statements, one on
 * Postgres (none when there is nothing to write), on SQLite as many as its parameter bound needs.
 */
export interface Write {
  statements(db: Kysely<Database>): CompiledQuery[];
}

/**
 * Send writes that nothing between them reads (issue 49: a push holds its store's lock while it
 * writes, so each round trip there is paid by every till of the store). On Postgres they go as ONE
 * statement, each write a data-modifying CTE of it: one round trip and one parse instead of one per
 * write. The writes then share one snapshot, so none may read what another writes or change a row
 * another changes; foreign keys are checked at the statement's end, so a row may reference one a
 * sibling inserts. SQLite runs in-process (no round trip): one after another, in order.
 */
export async function writeTogether(db: Kysely<Database>, writes: Write[]): Promise<void> {
  const statements = writes.flatMap((w) => w.statements(db));
  if (!onPostgres(db) || statements.length < 2) {
    for (const s of statements) await db.executeQuery(s);
    return;
  }
  const parameters: unknown[] = [];
  const texts = statements.map((s) => {
    const offset = parameters.length;
    parameters.push(...s.parameters);
    return offset ? s.sql.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + offset}`) : s.sql;
  });
  const main = texts.pop()!;
  await db.executeQuery(CompiledQuery.raw(`with ${texts.map((t, i) => `w${i} as (${t})`).join(', ')} ${main}`, parameters));
}

/** A statement built with Kysely (on the transaction's handle), as a `Write`. */
export const queryWrite = (query: { compile(): CompiledQuery }): Write => ({ statements: () => [query.compile()] });

/**
 * Insert many rows in as few statements as each database allows: a pushed batch of sales writes
 * its lines in one statement, not one per sale. SQLite takes a multi-row VALUES list (cheap to
 * prepare in-process). Postgres parses and plans a statement of thousands of parameters slowly, so
 * there the rows go as one JSON array, turned into rows of the table's own column types by
 * `json_populate_recordset` (columns the rows leave out keep their defaults).
 */
export async function insertRows<T extends keyof Database & string>(
  db: Kysely<Database>,
  table: T,
  rows: Array<Insertable<Database[T]>>,
): Promise<void> {
  await writeTogether(db, [insertWrite(table, rows)]);
}

/** `insertRows` as a `Write`, to send with others. */
export function insertWrite<T extends keyof Database & string>(table: T, rows: Array<Insertable<Database[T]>>): Write {
  return {
    statements(db) {
      if (rows.length === 0) return [];
      if (onPostgres(db)) {
        const columns = sql.join(Object.keys(rows[0] as object).map((k) => sql.ref(k)));
        return [
          sql`insert into ${sql.table(table)} (${columns}) select ${columns} from json_populate_recordset(null::${sql.table(table)}, ${JSON.stringify(rows)}::json)`.compile(
            db,
          ),
        ];
      }
      // SQLite: the statement text is written here rather than through the builder, which makes an
      // object per value (a push of 100 batch-tracked sales inserts 600 ledger rows of 21 columns) for
      // the same SQL. A column some rows leave out is NULL in them, as the builder writes it for SQLite.
      const columns = [...new Set(rows.flatMap((r) => Object.keys(r as object)))];
      const head = `insert into ${quoted(table)} (${columns.map(quoted).join(', ')}) values `;
      const tuple = `(${columns.map(() => '?').join(', ')})`;
      const perStatement = Math.max(1, Math.floor(MAX_PARAMETERS / columns.length));
      const out: CompiledQuery[] = [];
      for (let at = 0; at < rows.length; at += perStatement) {
        const slice = rows.slice(at, at + perStatement) as Array<Record<string, unknown>>;
        const parameters: unknown[] = [];
        for (const row of slice) for (const c of columns) parameters.push(row[c] ?? null);
        out.push(CompiledQuery.raw(head + Array(slice.length).fill(tuple).join(', '), parameters));
      }
      return out;
    },
  };
}

/**
 * The change log's write (db/change-log.ts): the organisation's version moved on by as many rows,
 * and the rows inserted numbered after its old value (`version` in a row: 1 for the first, 2 …);
 * answers the new version. On Postgres one statement (issue 49): the insert reads the version from
 * the update's CTE. The update holds the organisation row's lock until commit either way.
 */
export async function logChanges(db: Kysely<Database>, orgId: string, rows: Array<Insertable<ChangeLogTable>>): Promise<number> {
  if (onPostgres(db)) {
    const columns = ['org_id', 'version', 'entity', 'entity_id', 'op', 'store_id', 'created_at'];
    const taken = sql.join(columns.map((c) => (c === 'version' ? sql`v.version - ${rows.length} + r.version` : sql.ref(`r.${c}`))));
    const { rows: out } = await sql<{
      version: number;
    }>`with v as (update organisations set version = version + ${rows.length} where id = ${orgId} returning version), w as (insert into change_log (${sql.join(columns.map((c) => sql.ref(c)))}) select ${taken} from v, json_populate_recordset(null::change_log, ${JSON.stringify(rows)}::json) as r) select version from v`.execute(
      db,
    );
    if (!out[0]) throw new Error(`no organisation ${orgId} to log changes of`);
    return Number(out[0].version);
  }
  const { version } = await db
    .updateTable('organisations')
    .set((eb) => ({ version: eb('version', '+', rows.length) }))
    .where('id', '=', orgId)
    .returning('version')
    .executeTakeFirstOrThrow();
  await insertRows(
    db,
    'change_log',
    rows.map((r) => ({ ...r, version: version - rows.length + r.version })),
  );
  return version;
}

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** One row's change for `updateRows`: the row's key, what to add to the counted column, what to set the other to. */
export interface RowChange {
  key: string;
  add: number;
  set?: string;
}

/**
 * Change many rows of a table in one statement, each by its own amounts (a pushed batch's stock per
 * product, its lots' units and statuses): `add` is added to column `spec.add`, `set` (when the spec
 * names a column for it) replaces it. The changes are joined in as a derived table (SQLite: a
 * VALUES list; Postgres: arrays unnested), so the cost grows with the rows, not their square as a
 * CASE over hundreds of keys would.
 */
export async function updateRows(
  db: Kysely<Database>,
  table: 'product_stock' | 'batches',
  spec: UpdateSpec,
  changes: RowChange[],
): Promise<void> {
  await writeTogether(db, [updateWrite(table, spec, changes)]);
}

type UpdateSpec = { key: string; add: string; set?: string; where?: RawBuilder<SqlBool>; now: number };

/** `updateRows` as a `Write`, to send with others. */
export function updateWrite(table: 'product_stock' | 'batches', spec: UpdateSpec, changes: RowChange[]): Write {
  return { statements: (db) => updateStatements(db, table, spec, changes) };
}

function updateStatements(
  db: Kysely<Database>,
  table: 'product_stock' | 'batches',
  spec: UpdateSpec,
  changes: RowChange[],
): CompiledQuery[] {
  if (changes.length === 0) return [];
  const t = sql.table(table);
  const col = (c: string) => sql.ref(`${table}.${c}`);
  const assign = sql.join(
    [
      sql`${sql.ref(spec.add)} = ${col(spec.add)} + d.delta`,
      ...(spec.set ? [sql`${sql.ref(spec.set)} = d.value`] : []),
      sql`updated_at = ${spec.now}`,
    ],
    sql`, `,
  );
  const where = sql`${col(spec.key)} = d.k${spec.where ? sql` and ${spec.where}` : sql``}`;
  if (onPostgres(db)) {
    const value = spec.set ? sql`, unnest(${changes.map((c) => c.set ?? null)}::text[]) as value` : sql``;
    return [
      sql`update ${t} set ${assign} from (select unnest(${changes.map((c) => c.key)}::text[]) as k, unnest(${changes.map((c) => c.add)}::integer[]) as delta${value}) as d where ${where}`.compile(
        db,
      ),
    ];
  }
  // 3 parameters a row: slices stay far under SQLite's bound.
  const out: CompiledQuery[] = [];
  for (let at = 0; at < changes.length; at += 5_000) {
    const rows = sql.join(changes.slice(at, at + 5_000).map((c) => sql`(${c.key}, ${c.add}, ${c.set ?? null})`));
    out.push(
      sql`update ${t} set ${assign} from (select column1 as k, column2 as delta, column3 as value from (values ${rows})) as d where ${where}`.compile(
        db,
      ),
    );
  }
  return out;
}
