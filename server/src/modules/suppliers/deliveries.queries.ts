/** A store's deliveries from suppliers: reading them with their lines, writing them, locking one, and what receiving them writes. */
import { fromCents, fromCount, newId, toCents } from '@duka/shared';
import type { Delivery, DeliveryLineInput, DeliveryStatus, Unit } from '@duka/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { forUpdate } from '../../db/dialect.js';
import { iso, isoOrNull } from '../../lib/clock.js';
import type { ServiceContext } from '../../lib/context.js';
import type { DeliveryRow } from '../../db/tables/suppliers.table.js';
import { owedCents } from './suppliers.queries.js';

/** A store of an organisation: what a delivery belongs to. */
export interface StoreScope {
  orgId: string;
  storeId: string;
}

/** Deliveries of the store not deleted, with their supplier's name. */
export function storeDeliveries(db: Kysely<Database>, scope: StoreScope) {
  return db
    .selectFrom('deliveries')
    .innerJoin('suppliers', (j) =>
      j.onRef('suppliers.id', '=', 'deliveries.supplier_id').onRef('suppliers.org_id', '=', 'deliveries.org_id'),
    )
    .selectAll('deliveries')
    .select('suppliers.name as supplier_name')
    .where('deliveries.org_id', '=', scope.orgId)
    .where('deliveries.store_id', '=', scope.storeId)
    .where('deliveries.deleted_at', 'is', null);
}

export type DeliveryWithSupplierRow = DeliveryRow & { supplier_name: string };

export function findDelivery(db: Kysely<Database>, scope: StoreScope, id: string): Promise<DeliveryWithSupplierRow | undefined> {
  return storeDeliveries(db, scope).where('deliveries.id', '=', id).executeTakeFirst();
}

export interface LineWithName {
  id: string;
  delivery_id: string;
  product_id: string;
  /** Null once the product was deleted. */
  product_name: string | null;
  qty: number;
  unit_cost: number;
  update_cost: number;
  lot_number: string | null;
  expiry_date: string | null;
  /** Null once the product was deleted. */
  track_batches: number | null;
  pack_id: string | null;
  pack_units: number | null;
  /** The product's unit (`qty` is in its counts); null once the product was deleted. */
  unit: Unit | null;
}

/** The lines of these deliveries (as read, each naming its organisation). */
export function linesOf(db: Kysely<Database>, deliveries: ReadonlyArray<Pick<DeliveryRow, 'id' | 'org_id'>>): Promise<LineWithName[]> {
  if (deliveries.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('delivery_lines')
    .leftJoin('products', (j) =>
      j.onRef('products.id', '=', 'delivery_lines.product_id').onRef('products.org_id', '=', 'delivery_lines.org_id'),
    )
    .selectAll('delivery_lines')
    .select(['products.name as product_name', 'products.track_batches', 'products.unit'])
    .where('delivery_lines.org_id', 'in', [...new Set(deliveries.map((d) => d.org_id))])
    .where(
      'delivery_lines.delivery_id',
      'in',
      deliveries.map((d) => d.id),
    )
    .orderBy('delivery_lines.delivery_id')
    .orderBy('delivery_lines.id')
    .execute();
}

export async function toDeliveries(db: Kysely<Database>, rows: DeliveryWithSupplierRow[]): Promise<Delivery[]> {
  const lines = await linesOf(db, rows);
  return rows.map((row) => ({
    id: row.id,
    supplier_id: row.supplier_id,
    supplier_name: row.supplier_name,
    store_id: row.store_id,
    invoice_number: row.invoice_number,
    delivery_date: iso(Number(row.delivery_date)),
    items_count: Number(row.items_count),
    total_value: fromCents(Number(row.total_value)),
    paid_amount: fromCents(Number(row.paid_amount)),
    balance: fromCents(owedCents(row)),
    status: row.status as DeliveryStatus,
    is_paid: row.is_paid === 1,
    notes: row.notes,
    lines: lines
      .filter((l) => l.delivery_id === row.id)
      .map((l) => ({
        id: l.id,
        product_id: l.product_id,
        product_name: l.product_name ?? '(deleted product)',
        // By the pack, whole packs; loose, counts of the product's unit.
        qty: l.pack_id === null ? fromCount(Number(l.qty), l.unit ?? 'piece') : Number(l.qty),
        unit_cost: fromCents(Number(l.unit_cost)),
        update_cost: l.update_cost === 1,
        lot_number: l.lot_number,
        expiry_date: l.expiry_date,
        pack: l.pack_id === null ? null : { id: l.pack_id, units: fromCount(Number(l.pack_units), l.unit ?? 'piece') },
      })),
    stock_added_at: isoOrNull(row.stock_added_at === null ? null : Number(row.stock_added_at)),
    created_by: row.created_by,
    created_at: iso(Number(row.created_at)),
    updated_at: iso(Number(row.updated_at)),
  }));
}

/** The columns of a new delivery that its creator decides; the rest start empty. */
export type NewDelivery = Pick<
  DeliveryRow,
  | 'id'
  | 'org_id'
  | 'store_id'
  | 'supplier_id'
  | 'invoice_number'
  | 'delivery_date'
  | 'items_count'
  | 'total_value'
  | 'status'
  | 'is_paid'
  | 'notes'
  | 'created_by'
>;

/** A new delivery, nothing paid on it and its stock not yet added; the row as written. */
export function insertDelivery(db: Kysely<Database>, d: NewDelivery, now: number): Promise<DeliveryRow> {
  return db
    .insertInto('deliveries')
    .values({
      id: d.id,
      org_id: d.org_id,
      store_id: d.store_id,
      supplier_id: d.supplier_id,
      invoice_number: d.invoice_number,
      delivery_date: d.delivery_date,
      items_count: d.items_count,
      total_value: d.total_value,
      status: d.status,
      is_paid: d.is_paid,
      paid_amount: 0,
      notes: d.notes,
      stock_added_at: null,
      created_by: d.created_by,
      created_at: now,
      updated_at: now,
      deleted_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The delivery's lines as given (qty already in counts, or whole packs by the pack; money to cents), in one statement; none, no statement. */
export async function insertDeliveryLines(
  db: Kysely<Database>,
  orgId: string,
  deliveryId: string,
  lines: Array<DeliveryLineInput & { pack_units: number | null }>,
): Promise<void> {
  if (lines.length === 0) return;
  await db
    .insertInto('delivery_lines')
    .values(
      lines.map((l) => ({
        id: newId(),
        org_id: orgId,
        delivery_id: deliveryId,
        product_id: l.product_id,
        qty: l.qty,
        unit_cost: toCents(l.unit_cost),
        update_cost: l.update_cost ? 1 : 0,
        lot_number: l.lot_number ?? null,
        expiry_date: l.expiry_date ?? null,
        pack_id: l.pack_id ?? null,
        pack_units: l.pack_units,
      })),
    )
    .execute();
}

/** Delivery `id` of the store, not deleted, locked until the transaction ends (Postgres). */
export function lockStoreDelivery(ctx: ServiceContext, scope: StoreScope, id: string): Promise<DeliveryRow | undefined> {
  return forUpdate(
    ctx.dialect,
    ctx.db
      .selectFrom('deliveries')
      .selectAll()
      .where('org_id', '=', scope.orgId)
      .where('id', '=', id)
      .where('store_id', '=', scope.storeId)
      .where('deleted_at', 'is', null),
  ).executeTakeFirst();
}

/**
 * A delivery line's unit cost becomes the product's cost price; the product as updated, or
 * undefined when it already had that cost.
 */
export function updateProductCost(db: Kysely<Database>, orgId: string, productId: string, cost: number, now: number) {
  return db
    .updateTable('products')
    .set({ cost_price: cost, updated_at: now })
    .where('id', '=', productId)
    .where('org_id', '=', orgId)
    .where('cost_price', '!=', cost)
    .returningAll()
    .executeTakeFirst();
}
