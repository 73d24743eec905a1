/**
 * One table's rows from SQLite into PostgreSQL, in batches, each value converted to its PostgreSQL
 * column's type.
 *
 * The migrations give both databases the same column types (migrations/_helpers.ts): text ids,
 * bigint epoch ms and cents, smallint 0/1 flags, JSON as text, double precision. What differs is
 * SQLite's typing by value: an integer is read exactly as a BigInt (never through a double) and
 * sent as its decimal text, which PostgreSQL parses into the column's integer type; a value a
 * column cannot hold (a fraction in an integer column, bytes in a text one, a NUL character that
 * PostgreSQL's text refuses) stops the move with the table, column and row named.
 */
import type SQLite from 'better-sqlite3';
import type pg from 'pg';
import { MoveError } from './source.js';
import { ident, type TargetColumn, type TargetTable } from './target.js';

type Convert = (v: unknown) => unknown;

const INTEGER = /^(smallint|integer|bigint)$/;
const FLOAT = /^(double precision|real|numeric)$/;
const TEXT = /^(text|character varying|character)$/;

function converter(table: string, col: TargetColumn): Convert {
  const refuse = (v: unknown, why: string): never => {
    throw new MoveError(`${table}.${col.name}: ${why} (${String(v).slice(0, 40)})`);
  };
  if (INTEGER.test(col.type)) {
    return (v) => {
      if (v === null || typeof v === 'bigint') return v === null ? null : v.toString();
      if (typeof v === 'number' && Number.isInteger(v)) return String(v);
      if (typeof v === 'string' && /^-?\d+$/.test(v.trim())) return v.trim();
      return refuse(v, `not an integer`);
    };
  }
  if (FLOAT.test(col.type)) {
    return (v) => {
      if (v === null || typeof v === 'number') return v;
      if (typeof v === 'bigint') return v.toString();
      if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return v;
      return refuse(v, 'not a number');
    };
  }
  if (TEXT.test(col.type)) {
    return (v) => {
      if (v === null) return null;
      if (typeof v === 'string') return v.includes('\u0000') ? refuse(v, 'text with a NUL character, which PostgreSQL cannot store') : v;
      if (typeof v === 'bigint' || typeof v === 'number') return String(v);
      return refuse('bytes', 'binary data in a text column');
    };
  }
  // A type a future migration brings is met here first, before anything is copied.
  throw new MoveError(`${table}.${col.name} is of type ${col.type}, which the move does not know how to convert`);
}

/** PostgreSQL takes at most 65,535 parameters in one statement. */
const MAX_PARAMETERS = 65_000;

export interface CopyOptions {
  /** Rows per INSERT (fewer when the table is wide). */
  batch: number;
}

/**
 * Copy `table` (the target's description of it) from `sqlite` into `client`'s open transaction;
 * answers the rows copied. Columns the source lacks keep the target's defaults; a column the target
 * lacks is refused (the two schemas must be the same migrations). Self-references are written in a
 * second pass, once every row they may point at is there.
 */
export async function copyTable(
  sqlite: SQLite.Database,
  client: pg.ClientBase,
  table: TargetTable,
  sourceColumns: string[],
  o: CopyOptions,
): Promise<number> {
  const extra = sourceColumns.filter((c) => !table.columns.some((t) => t.name === c));
  if (extra.length) throw new MoveError(`${table.name} has columns PostgreSQL's schema lacks: ${extra.join(', ')}`);
  const columns = table.columns.filter((c) => sourceColumns.includes(c.name));
  const convert = columns.map((c) => converter(table.name, c));
  const self = columns.map((c) => table.selfRefs.includes(c.name));
  const keyAt = columns.findIndex((c) => c.name === table.key);
  const orgAt = columns.findIndex((c) => c.name === 'org_id');
  const perInsert = Math.max(1, Math.min(o.batch, Math.floor(MAX_PARAMETERS / columns.length)));
  const head = `insert into ${ident(table.name)} (${columns.map((c) => ident(c.name)).join(', ')}) values `;
  const later: Array<[key: unknown, org: unknown, column: number, value: unknown]> = [];

  const read = sqlite
    .prepare(`select ${columns.map((c) => ident(c.name)).join(', ')} from ${ident(table.name)}`)
    .raw(true)
    .safeIntegers(true);
  let rows: unknown[][] = [];
  let copied = 0;
  const flush = async () => {
    if (!rows.length) return;
    const params: unknown[] = [];
    const tuples = rows.map((row) => `(${row.map((v) => (params.push(v), `$${params.length}`)).join(', ')})`);
    try {
      await client.query(head + tuples.join(', '), params);
    } catch (err) {
      throw new MoveError(`copying ${table.name} (rows ${copied + 1}–${copied + rows.length}): ${(err as Error).message}`);
    }
    copied += rows.length;
    rows = [];
  };
  for (const raw of read.iterate() as Iterable<unknown[]>) {
    const row = raw.map((v, i) => convert[i]!(v));
    for (let i = 0; i < row.length; i++) {
      if (self[i] && row[i] !== null) {
        later.push([row[keyAt], orgAt >= 0 ? row[orgAt] : null, i, row[i]]);
        row[i] = null;
      }
    }
    rows.push(row);
    if (rows.length >= perInsert) await flush();
  }
  await flush();
  for (const [key, org, i, value] of later) {
    const inOrg = orgAt >= 0 ? ' and org_id = $3' : '';
    await client.query(`update ${ident(table.name)} set ${ident(columns[i]!.name)} = $1 where ${ident(table.key!)} = $2${inOrg}`, [
      value,
      key,
      ...(orgAt >= 0 ? [org] : []),
    ]);
  }
  return copied;
}
