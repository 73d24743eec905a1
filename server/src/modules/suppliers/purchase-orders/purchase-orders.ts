/**
 * Purchase orders (issue 52): a draft for a supplier and the active store, sent to the supplier by
 * SMS through the outbox, cancelled; receiving is receive.ts. docs/back-office.md "Purchase orders".
 * Every verb needs the `suppliers` permission (the one deliveries take) and sees only the active
 * store's orders: another organisation's or store's id is 404.
 */
import {
  type CreatePurchaseOrderInput,
  fromCents,
  lineAmount,
  type ListPurchaseOrdersQuery,
  newId,
  type PageMeta,
  type PurchaseOrder,
  toCents,
} from '@duka/shared';
import { countedPage } from '../../../db/page.js';
import { withTransaction } from '../../../db/transaction.js';
import { recordAudit } from '../../../lib/audit.js';
import { requirePermission, requireStore } from '../../../lib/auth/authorize.js';
import type { AuthedContext } from '../../../lib/context.js';
import { InvalidStateError, NotFoundError, ServiceError, ValidationError } from '../../../lib/errors.js';
import { orgPacksById, orgProductsById } from '../../inventory/inventory.exports.js';
import { countOf, MAX_STOCK } from '../../stock-levels/stock-levels.exports.js';
import type { StoreScope } from '../deliveries.queries.js';
import { requireSupplier } from '../services/suppliers.js';
import { toOrders } from './answer.js';
import * as q from './purchase-orders.queries.js';

/** The active store's order, or 404; the permission is checked first, so one without it learns nothing of which ids exist. */
export async function requireOrder(ctx: AuthedContext, id: string) {
  const key = requireStore(ctx);
  requirePermission(ctx, 'suppliers');
  const row = await q.findOrder(ctx.db, key, id);
  if (!row) throw new NotFoundError('purchase order');
  return { key, row };
}

export async function getPurchaseOrder(ctx: AuthedContext, id: string): Promise<PurchaseOrder> {
  const { key, row } = await requireOrder(ctx, id);
  return (await toOrders(ctx.db, key.orgId, [row]))[0]!;
}

export async function listPurchaseOrders(
  ctx: AuthedContext,
  query: ListPurchaseOrdersQuery,
): Promise<{ items: PurchaseOrder[]; meta: PageMeta }> {
  const key = requireStore(ctx);
  requirePermission(ctx, 'suppliers');
  const base = q.filteredOrders(ctx.db, key, query);
  const { rows, meta } = await countedPage(
    base,
    base.orderBy('purchase_orders.created_at', 'desc').orderBy('purchase_orders.id', 'desc'),
    query,
  );
  return { items: await toOrders(ctx.db, key.orgId, rows), meta };
}

const notFound = (field: string, what: string) =>
  new ServiceError('NOT_FOUND', `${what} not found`, { errors: [{ code: 'NOT_FOUND', field, message: `${what} not found` }] });

/** The lines as stored: each product once, stocked; a pack one of its product's; qty in counts; the expected cost in cents. */
async function orderLines(ctx: AuthedContext, orgId: string, orderId: string, input: CreatePurchaseOrderInput['lines']) {
  const [products, packs] = await Promise.all([
    orgProductsById(
      ctx,
      orgId,
      input.map((l) => l.product_id),
    ),
    orgPacksById(
      ctx.db,
      orgId,
      input.flatMap((l) => l.pack_id ?? []),
    ),
  ]);
  const seen = new Set<string>();
  let total = 0;
  const lines = input.map((l, i) => {
    const p = products.get(l.product_id);
    if (!p) throw notFound(`lines.${i}.product_id`, 'product');
    if (p.is_service === 1) throw new ValidationError(`lines.${i}.product_id`, 'is a service, which has no stock');
    if (seen.has(l.product_id)) throw new ValidationError(`lines.${i}.product_id`, 'is on the order already: one line per product');
    seen.add(l.product_id);
    const pack = l.pack_id ? packs.get(l.pack_id) : undefined;
    if (l.pack_id && pack?.product_id !== l.product_id) throw notFound(`lines.${i}.pack_id`, 'pack');
    const packCount = pack ? countOf(l.qty, 'piece', `lines.${i}.qty`) : 0;
    const qty = pack ? packCount * pack.units : countOf(l.qty, p.unit, `lines.${i}.qty`);
    if (qty > MAX_STOCK) throw new ValidationError(`lines.${i}.qty`, 'is more than any store may hold');
    const cost = toCents(l.unit_cost);
    // By the pack: its packs × one pack's cost; loose: as a delivery line costs (a measured line rounded once).
    total += pack ? cost * packCount : lineAmount(cost, qty, p.unit);
    return {
      org_id: orgId,
      id: newId(),
      purchase_order_id: orderId,
      position: i,
      product_id: l.product_id,
      pack_id: pack ? pack.id : null,
      pack_units: pack ? pack.units : null,
      qty,
      unit_cost: cost,
      received: 0,
    };
  });
  return { lines, total };
}

export async function createPurchaseOrder(ctx: AuthedContext, input: CreatePurchaseOrderInput): Promise<PurchaseOrder> {
  const key = requireStore(ctx);
  requirePermission(ctx, 'suppliers');
  const supplier = await requireSupplier(ctx, input.supplier_id);
  return withTransaction(ctx, (tx) => draftOrder(tx, key, supplier, input));
}

/** Writes a draft for the store (any of the organisation's, checked by the caller) in the caller's transaction; audited. */
export async function draftOrder(
  tx: AuthedContext,
  { orgId, storeId }: StoreScope,
  supplier: { id: string; name: string },
  input: CreatePurchaseOrderInput,
): Promise<PurchaseOrder> {
  const id = newId();
  const { lines, total } = await orderLines(tx, orgId, id, input.lines);
  const now = tx.clock.now();
  await q.insertOrder(
    tx.db,
    {
      org_id: orgId,
      id,
      store_id: storeId,
      supplier_id: supplier.id,
      status: 'draft',
      note: input.note ?? null,
      total_value: total,
      outbox_id: null,
      sent_to: null,
      sent_at: null,
      cancelled_at: null,
      created_by: tx.actor.userId,
      created_at: now,
      updated_at: now,
    },
    lines,
  );
  await recordAudit(tx, {
    action: 'purchase_order.create',
    description: `Drafted a purchase order of ${lines.length} lines to ${supplier.name}, TZS ${fromCents(total)}`,
    entity: 'purchase_order',
    entityId: id,
  });
  return (await toOrders(tx.db, orgId, [(await q.findOrder(tx.db, { orgId, storeId }, id))!]))[0]!;
}

/** Cancels a draft, sent or partly received order: what was received stays. Cancelling again answers the same; a received one is 409. */
export async function cancelPurchaseOrder(ctx: AuthedContext, id: string): Promise<PurchaseOrder> {
  return withTransaction(ctx, async (tx) => {
    const { key } = await requireOrder(tx, id);
    const row = (await q.lockOrder(tx, key, id))!;
    if (row.status === 'cancelled') return getPurchaseOrder(tx, id);
    if (row.status === 'received') throw new InvalidStateError('this purchase order was received in full: it can no longer be cancelled');
    const now = tx.clock.now();
    await q.updateOrder(tx.db, { ...key, id }, { status: 'cancelled', cancelled_at: now, updated_at: now });
    await recordAudit(tx, {
      action: 'purchase_order.cancel',
      description: `Cancelled a ${row.status.replace('_', ' ')} purchase order`,
      entity: 'purchase_order',
      entityId: id,
    });
    return getPurchaseOrder(tx, id);
  });
}
