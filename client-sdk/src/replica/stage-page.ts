/**
 * A bootstrap page staged where the database is (issue 53): a browser's SQLite worker decodes the
 * page the main thread downloaded (its bytes handed over, not copied), maps its rows with the one
 * mapping there is (`rows.ts`) and inserts them into the TEMP staging tables (`stage.ts`), inside
 * one savepoint: a page that fails stages nothing of itself. Two steps, so the main thread hears
 * the page's token as soon as the page is parsed (the next page downloads while this one is
 * inserted); then only counts and which staging tables hold rows (what the swap copies).
 */
import type { PageHead, StagedPage, StagedTable } from '../local/storage.js';
import { mapRun, type Upserted } from './rows.js';

export type { PageHead, StagedPage, StagedTable };

/** What staging needs of the worker's connection: plain SQL, and a statement kept prepared (the same text every page) to run with parameters. */
export interface StageConnection {
  exec(sql: string): void;
  statement(sql: string): (params: unknown[]) => void;
}

const id = (name: string) => `"${name.replaceAll('"', '""')}"`;
// Not `bootstrap_rows` for `rows`: a TEMP table of that name would hide the main one of pre-53 tills.
export const stageName = (table: string): string => `stage_${table}`;

/** The staging table for `table`'s rows: untyped columns keep each value as mapped, the replica's own columns convert on the copy. */
export function stageTableSql(s: StagedTable): string {
  return `create temp table if not exists ${id(stageName(s.table))} (${s.columns.map(id).join(', ')}, primary key (${s.key.map(id).join(', ')}))`;
}

/**
 * A run's rows into the staging table in one statement: the rows go in as one JSON text of arrays
 * (column order) and SQLite takes them apart itself, in row order, so a row already there (sent
 * again by a later page) takes the new version. Each row is made binary JSON once (the CTE), so
 * its columns are read from it without parsing its text once a column. Binding every value from
 * JavaScript took about twice the CPU (issue 53, session 29: docs/benchmarks.md).
 */
export function stageInsertSql(s: StagedTable): string {
  const cols = s.columns.map(id).join(', ');
  const updated = s.columns.filter((c) => !s.key.includes(c));
  const onConflict = updated.length ? `do update set ${updated.map((c) => `${id(c)} = excluded.${id(c)}`).join(', ')}` : 'do nothing';
  const values = s.columns.map((_, i) => `r ->> ${i}`).join(', ');
  // `where true`: SQLite's parser needs it between a SELECT and an ON CONFLICT clause.
  return `with page(r) as materialized (select jsonb(value) from json_each(?)) insert into temp.${id(stageName(s.table))} (${cols}) select ${values} from page where true on conflict (${s.key.map(id).join(', ')}) ${onConflict}`;
}

/** A page's bytes as the server answered them (the success envelope), checked for the snapshot page's shape. */
export function decodePage(bytes: ArrayBuffer): DecodedPage {
  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder().decode(bytes));
  } catch (e) {
    throw new Error(`the bootstrap page is not JSON (${e instanceof Error ? e.message : String(e)})`);
  }
  const page = (body as { data?: Record<string, unknown> } | null)?.data;
  const fault = !page
    ? 'it has no data'
    : !Array.isArray(page.rows)
      ? 'its rows are not a list'
      : typeof page.cursor !== 'string'
        ? 'its cursor is not a string'
        : typeof page.total !== 'number'
          ? 'its total is not a number'
          : page.page_token !== null && typeof page.page_token !== 'string'
            ? 'its page_token is neither a string nor null'
            : (page.rows as unknown[]).findIndex((r) => !isRow(r)) >= 0
              ? `its row ${(page.rows as unknown[]).findIndex((r) => !isRow(r))} has no entity and id`
              : null;
  if (fault) throw new Error(`the bootstrap page is not a snapshot page: ${fault}`);
  return page as unknown as DecodedPage;
}

const isRow = (r: unknown): boolean => {
  const c = r as Upserted | null;
  return typeof c?.entity === 'string' && typeof c.id === 'string';
};

/** A decoded page: its head and its rows. */
export type DecodedPage = PageHead & { rows: Upserted[] };

/** Map and stage a decoded page, all of it or none of it. */
export function stagePage(page: DecodedPage, db: StageConnection): StagedPage {
  const tables = new Map<string, StagedTable>();
  db.exec('savepoint stage_page');
  try {
    for (let i = 0; i < page.rows.length; ) {
      let j = i;
      while (j < page.rows.length && page.rows[j]!.entity === page.rows[i]!.entity) j++;
      for (const { spec, rows } of mapRun(page.rows.slice(i, j))) {
        const s: StagedTable = { table: spec.table, key: spec.key, columns: Object.keys(rows[0]!) };
        if (!tables.has(s.table)) db.exec(stageTableSql(s));
        tables.set(s.table, s);
        insertRows(db, s, rows);
      }
      i = j;
    }
    db.exec('release stage_page');
  } catch (e) {
    db.exec('rollback to stage_page');
    db.exec('release stage_page');
    throw e;
  }
  return { page_token: page.page_token, cursor: page.cursor, total: page.total, rows: page.rows.length, tables: [...tables.values()] };
}

function insertRows(db: StageConnection, s: StagedTable, rows: Array<Record<string, unknown>>): void {
  db.statement(stageInsertSql(s))([JSON.stringify(rows.map((r) => s.columns.map((c) => r[c])))]);
}
