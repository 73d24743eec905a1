/**
 * Writing the server's rows into the replica: one function per entity for an upsert or a delete,
 * shared by pull and bootstrap. Each row is kept as the JSON the server sent, with the columns the
 * local reads filter on.
 */
import { toCents, Unit, unitScale } from '@duka/shared';
import type { Change } from '@duka/shared';
import { type Kysely, sql } from 'kysely';
import type { LocalTrx } from '../local/db.js';

type Data = Record<string, unknown>;
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** One entity's rows in the replica: its table, its key, and the columns local reads filter on. */
interface Spec {
  table: 'categories' | 'products' | 'customers' | 'credit_tabs' | 'transactions' | 'notifications' | 'stock' | 'batches' | 'rows';
  key: string[];
  row(id: string, d: Data, data: string, entity: string): Record<string, unknown>;
}

const SPECS: Record<string, Spec> = {
  category: {
    table: 'categories',
    key: ['id'],
    row: (id, d, data) => ({ id, name: String(d.name ?? ''), sort_order: Number(d.sort_order ?? 0), data }),
  },
  product: {
    table: 'products',
    key: ['id'],
    row: (id, d, data) => ({
      id,
      name: String(d.name ?? ''),
      sku: str(d.sku),
      barcode: str(d.barcode),
      category_id: str(d.category_id),
      is_active: d.is_active === false ? 0 : 1,
      generic_name: str(d.generic_name),
      data,
    }),
  },
  // In counts (issue 51): the product's, or the stock change's, unit says how many a unit is.
  stock: { table: 'stock', key: ['product_id'], row: (id, d) => ({ product_id: id, qty: countOf(Number(d.stock ?? 0), d.unit) }) },
  customer: {
    table: 'customers',
    key: ['id'],
    row: (id, d, data) => ({
      id,
      name: String(d.name ?? ''),
      phone: str(d.phone),
      outstanding: toCents(Number(d.outstanding_balance ?? 0)),
      data,
    }),
  },
  credit_tab: {
    table: 'credit_tabs',
    key: ['id'],
    row: (id, d, data) => ({ id, customer_id: String(d.customer_id), created_at: String(d.created_at ?? ''), data }),
  },
  transaction: {
    table: 'transactions',
    key: ['id'],
    row: (id, d, data) => ({
      id,
      created_at: String(d.created_at ?? ''),
      client_receipt_number: str(d.client_receipt_number),
      number: typeof d.number === 'number' ? d.number : null,
      receipt_number: str(d.receipt_number),
      status: String(d.status ?? ''),
      sync_state: 'synced',
      data,
    }),
  },
  // The server's row replaces the till's copy, quantity included: pulls wait for an empty queue,
  // so the server has booked every sale this till took from the batch by then.
  batch: {
    table: 'batches',
    key: ['id'],
    row: (id, d, data) => ({
      id,
      product_id: String(d.product_id),
      lot_number: String(d.lot_number ?? ''),
      expiry_date: String(d.expiry_date ?? ''),
      status: String(d.status ?? ''),
      // In counts, as the till's sales move it (issue 51): the server answers it in the batch's `unit`.
      qty_on_hand: countOf(Number(d.qty_on_hand ?? 0), d.unit),
      received_at: Date.parse(String(d.received_at)) || 0,
      data,
    }),
  },
  notification: {
    table: 'notifications',
    key: ['id'],
    row: (id, d, data) => ({ id, created_at: String(d.created_at ?? ''), is_read: d.is_read === true ? 1 : 0, data }),
  },
};
const OTHER: Spec = { table: 'rows', key: ['entity', 'id'], row: (id, _d, data, entity) => ({ entity, id, data }) };

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
export type ReplicaTable = Spec['table'];
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
  const entity = run[0]!.entity;
  const spec = SPECS[entity] ?? OTHER;
  const rows = run.map((c) => spec.row(c.id, c.data ?? {}, JSON.stringify(c.data ?? {}), entity));
  await upsertRows(trx, spec, rows, target);
  if (entity === 'product') {
    // The product carries its store level as read with it: as fresh as a `stock` change.
    const levels = run
      .filter((c) => c.data!.is_service !== true && typeof c.data!.stock === 'number')
      .map((c) => SPECS.stock!.row(c.id, c.data!, '', 'stock'));
    await upsertRows(trx, SPECS.stock!, levels, target);
  }
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

export const parseData = <T = Data>(json: string): T => JSON.parse(json) as T;

/** A level as the server answers it (in the unit; none named: a piece) as the replica's exact count. */
function countOf(stock: number, unit: unknown): number {
  const u = Unit.safeParse(unit ?? 'piece');
  return Math.round(stock * unitScale(u.success ? u.data : 'piece'));
}
