/** Purchase orders' rows: an order of a store with its supplier's name, its lines with their products and packs, its deliveries. */
import type { ListPurchaseOrdersQuery, Unit } from '@duka/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/database.js';
import { forUpdate, lockKey } from '../../../db/dialect.js';
import type { ServiceContext } from '../../../lib/context.js';
import type { PurchaseOrderLineTable, PurchaseOrderRow, PurchaseOrderTable } from '../../../db/tables/purchase-orders.table.js';
import type { StoreScope } from '../deliveries.queries.js';

/** Orders of the store, with their supplier's name. */
export function storeOrders(db: Kysely<Database>, scope: StoreScope) {
  return db
    .selectFrom('purchase_orders')
    .innerJoin('suppliers', (j) =>
      j.onRef('suppliers.id', '=', 'purchase_orders.supplier_id').onRef('suppliers.org_id', '=', 'purchase_orders.org_id'),
    )
    .selectAll('purchase_orders')
    .select('suppliers.name as supplier_name')
    .where('purchase_orders.org_id', '=', scope.orgId)
    .where('purchase_orders.store_id', '=', scope.storeId);
}

export type OrderWithSupplierRow = PurchaseOrderRow & { supplier_name: string };

export function findOrder(db: Kysely<Database>, scope: StoreScope, id: string): Promise<OrderWithSupplierRow | undefined> {
  return storeOrders(db, scope).where('purchase_orders.id', '=', id).executeTakeFirst();
}

export function filteredOrders(db: Kysely<Database>, scope: StoreScope, q: ListPurchaseOrdersQuery) {
  return storeOrders(db, scope)
    .$if(!!q.status, (qb) => qb.where('purchase_orders.status', '=', q.status!))
    .$if(!!q.supplier, (qb) => qb.where('purchase_orders.supplier_id', '=', q.supplier!));
}

/** Order `id` of the store, locked until the transaction ends (Postgres): receipts and cancels of one order queue. */
export function lockOrder(ctx: ServiceContext, scope: StoreScope, id: string): Promise<PurchaseOrderRow | undefined> {
  return forUpdate(
    ctx.dialect,
    ctx.db
      .selectFrom('purchase_orders')
      .selectAll()
      .where('org_id', '=', scope.orgId)
      .where('store_id', '=', scope.storeId)
      .where('id', '=', id),
  ).executeTakeFirst();
}

export interface OrderLine {
  id: string;
  purchase_order_id: string;
  product_id: string;
  product_name: string | null;
  unit: Unit | null;
  pack_id: string | null;
  pack_name: string | null;
  pack_units: number | null;
  qty: number;
  unit_cost: number;
  received: number;
}

/** The lines of these orders, in their order. */
export async function linesOf(db: Kysely<Database>, orgId: string, orderIds: string[]): Promise<OrderLine[]> {
  if (orderIds.length === 0) return [];
  const rows = await db
    .selectFrom('purchase_order_lines as l')
    .leftJoin('products', (j) => j.onRef('products.id', '=', 'l.product_id').onRef('products.org_id', '=', 'l.org_id'))
    .leftJoin('product_packs', (j) => j.onRef('product_packs.id', '=', 'l.pack_id').onRef('product_packs.org_id', '=', 'l.org_id'))
    .select([
      'l.id',
      'l.purchase_order_id',
      'l.product_id',
      'products.name as product_name',
      'products.unit',
      'l.pack_id',
      'product_packs.name as pack_name',
      'l.pack_units',
      'l.qty',
      'l.unit_cost',
      'l.received',
    ])
    .where('l.org_id', '=', orgId)
    .where('l.purchase_order_id', 'in', orderIds)
    .orderBy('l.purchase_order_id')
    .orderBy('l.position')
    .execute();
  return rows.map((r) => ({
    ...r,
    pack_units: r.pack_units === null ? null : Number(r.pack_units),
    qty: Number(r.qty),
    unit_cost: Number(r.unit_cost),
    received: Number(r.received),
  }));
}

/** The deliveries that received these orders, oldest first. */
export function deliveriesOf(db: Kysely<Database>, orgId: string, orderIds: string[]) {
  if (orderIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('purchase_order_deliveries')
    .select(['purchase_order_id', 'delivery_id'])
    .where('org_id', '=', orgId)
    .where('purchase_order_id', 'in', orderIds)
    .orderBy('received_at')
    .orderBy('delivery_id')
    .execute();
}

export async function insertOrder(db: Kysely<Database>, row: PurchaseOrderTable, lines: PurchaseOrderLineTable[]): Promise<void> {
  await db.insertInto('purchase_orders').values(row).execute();
  await db.insertInto('purchase_order_lines').values(lines).execute();
}

export async function updateOrder(db: Kysely<Database>, key: StoreScope & { id: string }, set: Partial<PurchaseOrderTable>) {
  await db.updateTable('purchase_orders').set(set).where('org_id', '=', key.orgId).where('id', '=', key.id).execute();
}

/** Adds `count` to what a line has received. */
export async function addReceived(db: Kysely<Database>, orgId: string, lineId: string, count: number): Promise<void> {
  await db
    .updateTable('purchase_order_lines')
    .set((eb) => ({ received: eb('received', '+', count) }))
    .where('org_id', '=', orgId)
    .where('id', '=', lineId)
    .execute();
}

export async function linkDelivery(db: Kysely<Database>, orgId: string, orderId: string, deliveryId: string, at: number): Promise<void> {
  await db
    .insertInto('purchase_order_deliveries')
    .values({ org_id: orgId, purchase_order_id: orderId, delivery_id: deliveryId, received_at: at })
    .execute();
}

/**
 * Drafting from suggestions one call at a time per store: the second call reads the first's
 * drafts, which count as on order, and drafts nothing twice. Not the store's row: every sale
 * locks that one.
 */
export const lockDrafting = (ctx: ServiceContext, storeId: string) => lockKey(ctx.dialect, ctx.db, `purchase-order-drafts:${storeId}`);
