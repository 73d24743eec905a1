/** The rows reorder suggestions are made from: the store's sales over the window, and each product's last supplier. */
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/database.js';
import { keptCounts, soldSalesOfStore } from '../../stock-levels/stock-levels.exports.js';

type Window = { orgId: string; storeId: string; from: number; to: number; productIds?: string[] };

/**
 * Counts sold per product in the store, of sales booked in (from, to] that still count (paid, on
 * credit), less what refunds of part of those same sales gave back. A sale refunded whole is
 * `refunded` and not counted at all; a void one neither.
 */
export async function soldInWindow(db: Kysely<Database>, w: Window): Promise<Map<string, number>> {
  const sold = await soldSalesOfStore(db, w)
    .innerJoin('transaction_lines as tl', (j) => j.onRef('tl.org_id', '=', 't.org_id').onRef('tl.transaction_id', '=', 't.id'))
    .where('t.created_at', '>', w.from)
    .where('t.created_at', '<=', w.to)
    .$if(w.productIds !== undefined, (qb) => qb.where('tl.product_id', 'in', w.productIds!))
    .groupBy('tl.product_id')
    .select((eb) => ['tl.product_id', eb.fn.sum<number | string>(keptCounts('tl', 't')).as('qty')])
    .execute();
  return new Map(sold.map((r) => [r.product_id, Number(r.qty)]));
}

export type LastSupplier = { supplierId: string; name: string; leadTimeDays: number | null };

/**
 * Each product's supplier: the one of its latest delivery to any store of the organisation (by
 * delivery date, then when it was recorded), not cancelled nor deleted, from a supplier not
 * deleted. Duka keeps no supplier on a product: the last one who brought it is who to ask.
 */
export async function lastSuppliers(db: Kysely<Database>, orgId: string, productIds: string[]): Promise<Map<string, LastSupplier>> {
  const out = new Map<string, LastSupplier>();
  for (let i = 0; i < productIds.length; i += 500) {
    for (const [id, supplier] of await lastSuppliersOf(db, orgId, productIds.slice(i, i + 500))) out.set(id, supplier);
  }
  return out;
}

async function lastSuppliersOf(db: Kysely<Database>, orgId: string, productIds: string[]): Promise<Map<string, LastSupplier>> {
  const out = new Map<string, LastSupplier>();
  if (productIds.length === 0) return out;
  const rows = await db
    .selectFrom('delivery_lines as dl')
    .innerJoin('deliveries as d', (j) => j.onRef('d.org_id', '=', 'dl.org_id').onRef('d.id', '=', 'dl.delivery_id'))
    .innerJoin('suppliers as s', (j) => j.onRef('s.org_id', '=', 'd.org_id').onRef('s.id', '=', 'd.supplier_id'))
    .where('dl.org_id', '=', orgId)
    .where('dl.product_id', 'in', productIds)
    .where('d.deleted_at', 'is', null)
    .where('d.status', '!=', 'cancelled')
    .where('s.deleted_at', 'is', null)
    .select(['dl.product_id', 's.id', 's.name', 's.lead_time_days'])
    .orderBy('d.delivery_date', 'desc')
    .orderBy('d.created_at', 'desc')
    .orderBy('d.id', 'desc')
    .execute();
  for (const r of rows) {
    if (!out.has(r.product_id)) out.set(r.product_id, { supplierId: r.id, name: r.name, leadTimeDays: r.lead_time_days });
  }
  return out;
}

/**
 * What the store has ordered of each product and not yet received, in counts: what open purchase
 * orders (sent or partly received) still owe, and what drafts hold. A draft is what the owner has
 * decided to order: counted too, so drafting the suggestions (or by hand) takes them off the list
 * and drafting again makes no second order; cancelling the draft puts them back. A cancelled or
 * received order never comes (again).
 */
export async function owedOnOrders(
  db: Kysely<Database>,
  orgId: string,
  storeId: string,
  productIds: string[],
): Promise<{ owed: Map<string, number>; drafted: Map<string, number> }> {
  const out = { owed: new Map<string, number>(), drafted: new Map<string, number>() };
  if (productIds.length === 0) return out;
  const rows = await db
    .selectFrom('purchase_order_lines as l')
    .innerJoin('purchase_orders as o', (j) => j.onRef('o.org_id', '=', 'l.org_id').onRef('o.id', '=', 'l.purchase_order_id'))
    .where('l.org_id', '=', orgId)
    .where('o.store_id', '=', storeId)
    .where('o.status', 'in', ['draft', 'sent', 'partly_received'])
    .where('l.product_id', 'in', productIds)
    .select(['o.status', 'l.product_id', 'l.qty', 'l.received'])
    .execute();
  for (const r of rows) {
    const into = r.status === 'draft' ? out.drafted : out.owed;
    into.set(r.product_id, (into.get(r.product_id) ?? 0) + Math.max(0, Number(r.qty) - Number(r.received)));
  }
  return out;
}
