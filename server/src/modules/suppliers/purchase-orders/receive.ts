/**
 * Receiving a purchase order: the lines that came become one delivery, made by the delivery code
 * (stock in, lots, cost prices, the supplier's balance: all as any delivery), and are added to what
 * each order line has received, in one transaction. More than a line still owes is refused (409
 * naming the line): an over-delivery is recorded as a delivery of its own, so the order keeps
 * saying what was ordered. docs/back-office.md "Purchase orders".
 */
import {
  type DeliveryLineInput,
  fromCents,
  type PurchaseOrder,
  type PurchaseOrderStatus,
  type ReceivePurchaseOrderInput,
} from '@duka/shared';
import { withTransaction } from '../../../db/transaction.js';
import { recordAudit } from '../../../lib/audit.js';
import type { AuthedContext } from '../../../lib/context.js';
import { InvalidStateError, ServiceError, ValidationError } from '../../../lib/errors.js';
import { orgPacksById } from '../../inventory/inventory.exports.js';
import { countOf } from '../../stock-levels/stock-levels.exports.js';
import { createDelivery } from '../services/deliveries.js';
import { orderReference } from './answer.js';
import { getPurchaseOrder, requireOrder } from './purchase-orders.js';
import * as q from './purchase-orders.queries.js';

const RECEIVABLE: PurchaseOrderStatus[] = ['draft', 'sent', 'partly_received'];

const fieldError = (code: 'CONFLICT' | 'NOT_FOUND', field: string, message: string) =>
  new ServiceError(code, `${field} ${message}`, { errors: [{ code, field, message }] });

/** Each received line against its order line: the delivery's line, and the counts it adds to the order line. */
async function matchLines(ctx: AuthedContext, orgId: string, orderId: string, input: ReceivePurchaseOrderInput) {
  const ordered = new Map((await q.linesOf(ctx.db, orgId, [orderId])).map((l) => [l.product_id, l]));
  const packs = await orgPacksById(
    ctx.db,
    orgId,
    input.lines.flatMap((l) => l.pack_id ?? ordered.get(l.product_id)?.pack_id ?? []),
  );
  const seen = new Set<string>();
  return input.lines.map((l, i) => {
    const line = ordered.get(l.product_id);
    if (!line) throw new ValidationError(`lines.${i}.product_id`, 'is not on this purchase order');
    if (seen.has(l.product_id)) throw new ValidationError(`lines.${i}.product_id`, 'is received twice: one line per product');
    seen.add(l.product_id);
    const packId = l.pack_id === undefined ? line.pack_id : l.pack_id;
    const pack = packId === null ? undefined : packs.get(packId);
    if (packId !== null && pack?.product_id !== l.product_id)
      throw fieldError('NOT_FOUND', `lines.${i}.pack_id`, 'is not a pack of this product');
    const count = pack ? countOf(l.qty, 'piece', `lines.${i}.qty`) * pack.units : countOf(l.qty, line.unit ?? 'piece', `lines.${i}.qty`);
    const owed = line.qty - line.received;
    if (count > owed) throw fieldError('CONFLICT', `lines.${i}.qty`, `is more than the ${line.product_name} still owed on this order`);
    const asOrdered = packId === line.pack_id;
    if (l.unit_cost === undefined && !asOrdered)
      throw new ValidationError(`lines.${i}.unit_cost`, 'is required when a line is received otherwise than it was ordered');
    const delivered: DeliveryLineInput = {
      product_id: l.product_id,
      qty: l.qty,
      unit_cost: l.unit_cost ?? fromCents(line.unit_cost),
      update_cost: input.update_cost ?? true,
      ...(packId === null ? {} : { pack_id: packId }),
      ...(l.lot_number === undefined ? {} : { lot_number: l.lot_number }),
      ...(l.expiry_date === undefined ? {} : { expiry_date: l.expiry_date }),
    };
    return { lineId: line.id, count, delivered };
  });
}

export async function receivePurchaseOrder(ctx: AuthedContext, id: string, input: ReceivePurchaseOrderInput): Promise<PurchaseOrder> {
  return withTransaction(ctx, async (tx) => {
    const { key } = await requireOrder(tx, id);
    const order = (await q.lockOrder(tx, key, id))!;
    if (!RECEIVABLE.includes(order.status))
      throw new InvalidStateError(`this purchase order is ${order.status.replace('_', ' ')}: nothing more is received against it`);
    const lines = await matchLines(tx, key.orgId, id, input);
    const reference = orderReference(id);
    const delivery = await createDelivery(tx, order.supplier_id, {
      status: 'delivered',
      invoice_number: input.invoice_number ?? null,
      notes: input.notes ?? `Against purchase order ${reference}`,
      lines: lines.map((l) => l.delivered),
    });
    for (const l of lines) await q.addReceived(tx.db, key.orgId, l.lineId, l.count);
    const now = tx.clock.now();
    await q.linkDelivery(tx.db, key.orgId, id, delivery.id, now);
    const all = (await q.linesOf(tx.db, key.orgId, [id])).every((l) => l.received >= l.qty);
    const status = all ? 'received' : 'partly_received';
    await q.updateOrder(tx.db, { ...key, id }, { status, updated_at: now });
    await recordAudit(tx, {
      action: 'purchase_order.receive',
      description: `Received ${lines.length} lines of purchase order ${reference}, TZS ${delivery.total_value}; it is ${status.replace('_', ' ')}`,
      entity: 'purchase_order',
      entityId: id,
    });
    return getPurchaseOrder(tx, id);
  });
}
