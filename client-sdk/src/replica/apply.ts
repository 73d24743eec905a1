/**
 * Writing the server's rows into the replica: one function per entity for an upsert or a delete,
 * shared by pull and bootstrap. Each row is kept as the JSON the server sent, with the columns the
 * local reads filter on.
 */
import type { Change } from '@duka/shared';
import { type Kysely, sql } from 'kysely';
import type { LocalTrx } from '../local/db.js';
import { mapRun, type ReplicaTable, type Spec } from './rows.js';

/** Rows per INSERT: well under SQLite's bound-parameter limit for the widest table. */
const CHUNK = 500;

type Upsert = Pick<Change, 'entity' | 'op' | 'id' | 'data'>;

export function applyChange(trx: LocalTrx, c: Upsert): Promise<void> {
  return applyChanges(trx, [c]);
}

/**
 * Apply changes in order. Runs of upserts of one entity go in multi-row INSERTs (a bootstrap of
 * 50,000 products is a hundred statements, not a hundred thousand); deletes go one by one.
 */
export async function applyChanges(trx: LocalTrx, changes: readonly Upsert[]): Promise<void> {
  for (let i = 0; i < changes.length; ) {
    const first = changes[i]!;
    if (first.op === 'delete' || !first.data) {
      await removeRow(trx, first.entity, first.id);
      i++;
      continue;
    }
    let j = i;
    while (j < changes.length && changes[j]!.entity === first.entity && changes[j]!.op === 'upsert' && changes[j]!.data) j++;
    await upsertRun(trx, changes.slice(i, j));
    i = j;
  }
}

/**
 * Where a run of upserts goes: the replica's table itself, or (a bootstrap's download) a staging
 * table shaped like it, told the columns and key of the rows it takes before the first of them.
 */
export interface RowTarget {
  table(trx: LocalTrx, spec: { table: ReplicaTable; key: readonly string[] }, columns: readonly string[]): Promise<string>;
}
export type { ReplicaTable } from './rows.js';
const REPLICA: RowTarget = { table: async (_trx, spec) => spec.table };

/**
 * A bootstrap's staging: the same rows as `applyChanges` would write, into `target`'s tables
 * (upserts only: a snapshot has no deletes; a row sent twice ends as its last version).
 */
export async function stageUpserts(trx: LocalTrx, changes: readonly Upsert[], target: RowTarget): Promise<void> {
  for (let i = 0; i < changes.length; ) {
    let j = i;
    while (j < changes.length && changes[j]!.entity === changes[i]!.entity) j++;
    await upsertRun(trx, changes.slice(i, j), target);
    i = j;
  }
}

async function upsertRun(trx: LocalTrx, run: readonly Upsert[], target: RowTarget = REPLICA): Promise<void> {
  for (const { spec, rows } of mapRun(run)) await upsertRows(trx, spec, rows, target);
}

async function upsertRows(trx: LocalTrx, spec: Spec, rows: Array<Record<string, unknown>>, target: RowTarget): Promise<void> {
  if (!rows.length) return;
  const db = trx as unknown as Kysely<Record<string, Record<string, unknown>>>;
  const columns = Object.keys(rows[0]!);
  const table = await target.table(trx, spec, columns);
  const updated = columns.filter((col) => !spec.key.includes(col));
  for (let i = 0; i < rows.length; i += CHUNK) {
    await db
      .insertInto(table)
      .values(rows.slice(i, i + CHUNK))
      .onConflict((oc) =>
        oc.columns(spec.key as never).doUpdateSet(Object.fromEntries(updated.map((col) => [col, sql.ref(`excluded.${col}`)]))),
      )
      .execute();
  }
}

async function removeRow(trx: LocalTrx, entity: string, id: string): Promise<void> {
  switch (entity) {
    case 'category':
      await trx.deleteFrom('categories').where('id', '=', id).execute();
      return;
    case 'product':
      await trx.deleteFrom('products').where('id', '=', id).execute();
      await trx.deleteFrom('stock').where('product_id', '=', id).execute();
      return;
    case 'stock':
      await trx.deleteFrom('stock').where('product_id', '=', id).execute();
      return;
    case 'customer':
      await trx.deleteFrom('customers').where('id', '=', id).execute();
      return;
    case 'credit_tab':
      await trx.deleteFrom('credit_tabs').where('id', '=', id).execute();
      return;
    case 'transaction':
      // Gone from the till's set (older than 30 days, another store's): a refused local sale stays.
      await trx.deleteFrom('transactions').where('id', '=', id).where('sync_state', '!=', 'rejected').execute();
      return;
    case 'notification':
      await trx.deleteFrom('notifications').where('id', '=', id).execute();
      return;
    case 'batch':
      await trx.deleteFrom('batches').where('id', '=', id).execute();
      return;
    default:
      await trx.deleteFrom('rows').where('entity', '=', entity).where('id', '=', id).execute();
  }
}

/** The tables a bootstrap empties and fills again whole (`transactions` keeps the till's own sales). */
export const EMPTIED_BY_BOOTSTRAP = [
  'rows',
  'categories',
  'products',
  'stock',
  'customers',
  'credit_tabs',
  'notifications',
  'batches',
] as const;

/** Empty what a bootstrap replaces: every server row, but not the till's own unsynced or refused sales. */
export async function clearReplica(trx: LocalTrx): Promise<void> {
  for (const table of EMPTIED_BY_BOOTSTRAP) {
    await trx.deleteFrom(table).execute();
  }
  await trx.deleteFrom('transactions').where('sync_state', '=', 'synced').execute();
}

export const parseData = <T = Record<string, unknown>>(json: string): T => JSON.parse(json) as T;
