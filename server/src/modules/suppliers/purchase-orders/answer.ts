/** A purchase order as answered: counts become the product's unit, cents shillings; per line ordered, received and owed. */
import { fromCents, fromCount, type PurchaseOrder, type PurchaseOrderStatus } from '@duka/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/database.js';
import { iso, isoOrNull } from '../../../lib/clock.js';
import { deliveriesOf, linesOf, type OrderLine, type OrderWithSupplierRow } from './purchase-orders.queries.js';

/** What the supplier reads in the message and the shop on its screens. */
export const orderReference = (id: string) => `PO-${id.slice(0, 8).toUpperCase()}`;

function toLine(l: OrderLine): PurchaseOrder['lines'][number] {
  const unit = l.unit ?? 'piece';
  const count = (n: number) => fromCount(n, unit);
  return {
    id: l.id,
    product_id: l.product_id,
    product_name: l.product_name ?? '(deleted product)',
    unit,
    pack: l.pack_id === null ? null : { id: l.pack_id, name: l.pack_name ?? '(deleted pack)', units: count(l.pack_units!) },
    // By the pack, whole packs (counts ÷ a pack's counts is whole: the order was written that way).
    qty: l.pack_units === null ? count(l.qty) : l.qty / l.pack_units,
    unit_cost: fromCents(l.unit_cost),
    ordered: count(l.qty),
    received: count(l.received),
    owed: count(Math.max(0, l.qty - l.received)),
  };
}

export async function toOrders(db: Kysely<Database>, orgId: string, rows: OrderWithSupplierRow[]): Promise<PurchaseOrder[]> {
  const ids = rows.map((r) => r.id);
  const [lines, deliveries] = await Promise.all([linesOf(db, orgId, ids), deliveriesOf(db, orgId, ids)]);
  return rows.map((row) => ({
    id: row.id,
    reference: orderReference(row.id),
    supplier_id: row.supplier_id,
    supplier_name: row.supplier_name,
    store_id: row.store_id,
    status: row.status as PurchaseOrderStatus,
    note: row.note,
    total_value: fromCents(Number(row.total_value)),
    lines: lines.filter((l) => l.purchase_order_id === row.id).map(toLine),
    delivery_ids: deliveries.filter((d) => d.purchase_order_id === row.id).map((d) => d.delivery_id),
    sent_to: row.sent_to,
    // An address always holds an @ and a phone in E.164 never does: the channel needs no column of its own.
    sent_via: row.sent_to === null ? null : row.sent_to.includes('@') ? 'email' : 'sms',
    sent_at: isoOrNull(row.sent_at === null ? null : Number(row.sent_at)),
    cancelled_at: isoOrNull(row.cancelled_at === null ? null : Number(row.cancelled_at)),
    created_by: row.created_by,
    created_at: iso(Number(row.created_at)),
    updated_at: iso(Number(row.updated_at)),
  }));
}
