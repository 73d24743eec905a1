/**
 * Rebuilds every tenant table of a migrated, empty PostgreSQL database as `PARTITION BY HASH`
 * on its organisation, in `partitions` parts (issue 36's `postgres-by-org` project). PostgreSQL then
 * refuses, as a database distributed by organisation would, any primary key or unique index that
 * does not contain the organisation column: a migration that adds one fails here first.
 *
 * Each table is made anew from the catalogue's own definitions (columns, defaults and checks by
 * `LIKE`, then its primary key, indexes and foreign keys as `pg_get_*def` prints them), so nothing
 * here lists a table's shape.
 */
import type pg from 'pg';
import { TABLE_SCOPE, tenantKeyOf } from '../../server/src/db/table-scope.js';

const q = (name: string) => `"${name}"`;

export async function partitionByOrg(client: pg.ClientBase, partitions = 4): Promise<string[]> {
  const tables = Object.keys(TABLE_SCOPE).filter((table) => tenantKeyOf(table) !== null);
  const { rows: foreignKeys } = await client.query<{ table: string; name: string; def: string }>(
    `select conrelid::regclass::text as table, conname as name, pg_get_constraintdef(oid) as def
       from pg_constraint where contype = 'f' and connamespace = 'public'::regnamespace`,
  );
  for (const fk of foreignKeys) await client.query(`alter table ${q(fk.table)} drop constraint ${q(fk.name)}`);

  for (const table of tables) {
    const key = tenantKeyOf(table)!;
    const { rows: primary } = await client.query<{ name: string; def: string }>(
      `select conname as name, pg_get_constraintdef(oid) as def from pg_constraint where contype = 'p' and conrelid = $1::regclass`,
      [table],
    );
    const { rows: indexes } = await client.query<{ def: string }>(
      `select pg_get_indexdef(x.indexrelid) as def from pg_index x where x.indrelid = $1::regclass and not x.indisprimary`,
      [table],
    );
    const rebuilt = `${table}__by_org`;
    await client.query(
      `create table ${q(rebuilt)} (like ${q(table)} including defaults including constraints including generated) partition by hash (${q(key)})`,
    );
    for (let i = 0; i < partitions; i++) {
      await client.query(
        `create table ${q(`${table}_p${i}`)} partition of ${q(rebuilt)} for values with (modulus ${partitions}, remainder ${i})`,
      );
    }
    await client.query(`insert into ${q(rebuilt)} select * from ${q(table)}`);
    await client.query(`drop table ${q(table)}`);
    await client.query(`alter table ${q(rebuilt)} rename to ${q(table)}`);
    for (const p of primary) await client.query(`alter table ${q(table)} add constraint ${q(p.name)} ${p.def}`);
    for (const index of indexes) await client.query(index.def);
  }

  for (const fk of foreignKeys) await client.query(`alter table ${q(fk.table)} add constraint ${q(fk.name)} ${fk.def}`);
  return tables;
}
