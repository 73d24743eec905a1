/**
 * What the move learns from the migrated PostgreSQL itself: its tables and column types, and the
 * order to fill them in, from its foreign keys. Nothing here is a list to keep up to date: a table
 * or key a later migration adds is in the catalogue the next move reads.
 */
import type pg from 'pg';
import { BOOKKEEPING, MoveError } from './source.js';

export interface TargetColumn {
  name: string;
  /** information_schema's data_type: `bigint`, `text`, `character varying`, … */
  type: string;
}

export interface TargetTable {
  name: string;
  columns: TargetColumn[];
  /** The primary key's one column besides `org_id`; needed only by a table that refers to itself. */
  key: string | null;
  /** Columns referring to this same table (a correction pointing at what it corrects). */
  selfRefs: string[];
}

export async function targetTables(client: pg.ClientBase): Promise<TargetTable[]> {
  const { rows: cols } = await client.query<{ table_name: string; column_name: string; data_type: string }>(
    `select c.table_name, c.column_name, c.data_type from information_schema.columns c
       join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
      where c.table_schema = 'public' and t.table_type = 'BASE TABLE' order by c.table_name, c.ordinal_position`,
  );
  const { rows: fks } = await client.query<{ child: string; parent: string; column: string }>(
    `select c.relname as child, p.relname as parent, a.attname as column
       from pg_constraint k join pg_class c on c.oid = k.conrelid join pg_class p on p.oid = k.confrelid
       join pg_attribute a on a.attrelid = k.conrelid and a.attnum = any (k.conkey)
      where k.contype = 'f' and k.connamespace = 'public'::regnamespace`,
  );
  // A key led by the organisation (migration 0031) is the organisation and one more column.
  const { rows: keys } = await client.query<{ table: string; column: string; n: number }>(
    `select c.relname as table, min(a.attname) as column, count(*)::int as n
       from pg_constraint k join pg_class c on c.oid = k.conrelid join pg_attribute a on a.attrelid = k.conrelid and a.attnum = any (k.conkey)
      where k.contype = 'p' and k.connamespace = 'public'::regnamespace and a.attname <> 'org_id' group by c.relname`,
  );
  const byTable = new Map<string, TargetTable>();
  for (const c of cols) {
    if (BOOKKEEPING.has(c.table_name)) continue;
    const t = byTable.get(c.table_name) ?? { name: c.table_name, columns: [], key: null, selfRefs: [] };
    t.columns.push({ name: c.column_name, type: c.data_type });
    byTable.set(c.table_name, t);
  }
  for (const k of keys) if (k.n === 1 && byTable.has(k.table)) byTable.get(k.table)!.key = k.column;
  const parents = new Map<string, Set<string>>([...byTable.keys()].map((n) => [n, new Set<string>()]));
  for (const fk of fks) {
    // A key within the organisation (migration 0031) names org_id too: the row's own, not a reference.
    if (fk.child === fk.parent) {
      if (fk.column !== 'org_id') byTable.get(fk.child)?.selfRefs.push(fk.column);
    } else parents.get(fk.child)?.add(fk.parent);
  }
  for (const t of byTable.values()) {
    if (t.selfRefs.length && !t.key)
      throw new MoveError(
        `${t.name} refers to itself but its primary key has more than one column besides org_id: the move cannot fill it`,
      );
  }
  return fillOrder(parents).map((n) => byTable.get(n)!);
}

/**
 * Tables so that every table comes after the tables its foreign keys point at (Kahn's algorithm,
 * alphabetical among equals so two moves of one schema run alike). A cycle between tables would
 * need deferred keys, which our schema does not use: it is refused by name.
 */
export function fillOrder(parents: Map<string, Set<string>>): string[] {
  const waiting = new Map([...parents].map(([n, ps]) => [n, new Set([...ps].filter((p) => parents.has(p)))]));
  const order: string[] = [];
  while (waiting.size) {
    const ready = [...waiting]
      .filter(([, ps]) => ps.size === 0)
      .map(([n]) => n)
      .sort();
    if (!ready.length) throw new MoveError(`these tables refer to each other in a cycle: ${[...waiting.keys()].sort().join(', ')}`);
    for (const n of ready) {
      order.push(n);
      waiting.delete(n);
      for (const ps of waiting.values()) ps.delete(n);
    }
  }
  return order;
}

/** Tenants or accounts in the target: a move never writes over a database in use. */
export async function targetHolds(client: pg.ClientBase): Promise<string | null> {
  const { rows } = await client.query<{ migrated: boolean }>(
    "select to_regclass('public.organisations') is not null and to_regclass('public.users') is not null as migrated",
  );
  if (!rows[0]!.migrated) return null;
  const { rows: counts } = await client.query<{ orgs: string; users: string }>(
    'select (select count(*) from organisations) as orgs, (select count(*) from users) as users',
  );
  const { orgs, users } = counts[0]!;
  return orgs !== '0' || users !== '0' ? `${orgs} organisation(s) and ${users} user(s)` : null;
}

/**
 * Sequences owned by a column (serial or identity) continue after the copied maximum. The schema
 * has none today (change-log versions and receipt numbers are counters in rows, copied as they
 * are); this keeps a later migration that adds one from handing out taken numbers.
 */
export async function advanceSequences(client: pg.ClientBase): Promise<void> {
  const { rows } = await client.query<{ seq: string; tbl: string; col: string }>(
    `select s.oid::regclass::text as seq, t.relname as tbl, a.attname as col
       from pg_class s join pg_depend d on d.objid = s.oid and d.classid = 'pg_class'::regclass and d.refclassid = 'pg_class'::regclass
       join pg_class t on t.oid = d.refobjid join pg_attribute a on a.attrelid = t.oid and a.attnum = d.refobjsubid
      where s.relkind = 'S' and s.relnamespace = 'public'::regnamespace`,
  );
  for (const r of rows) {
    await client.query(`select setval($1, coalesce((select max(${ident(r.col)}) from ${ident(r.tbl)}), 0) + 1, false)`, [r.seq]);
  }
}

export const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;
