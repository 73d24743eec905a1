/**
 * Deliveries belong to the store that receives them (the token's active store). Status moves:
 * expected → delivered | partial | cancelled; partial → delivered | returned | cancelled;
 * delivered → returned. Becoming `delivered` adds the lines to stock once; a delivered delivery
 * that is returned takes them out again.
 */
import { newId, fromCents, lineAmount, toCents, type Unit } from '@duka/shared';
import type {
  CreateSupplierDeliveryInput,
  Delivery,
  DeliveryLineInput,
  DeliveryStatus,
  ListDeliveriesQuery,
  PageMeta,
  UpdateDeliveryInput,
} from '@duka/shared';
import type { Updateable } from 'kysely';
import { withTransaction } from '../../../db/transaction.js';
import { recordAudit } from '../../../lib/audit.js';
import type { AuthedContext } from '../../../lib/context.js';
import { BusinessRuleError, InvalidStateError, NotFoundError, ServiceError, ValidationError } from '../../../lib/errors.js';
import { orgPacksById, orgProductsById } from '../../inventory/inventory.exports.js';
import { countOf, itemsOf } from '../../stock-levels/stock-levels.exports.js';
import { withIdempotency } from '../../../lib/idempotency.js';
import {
  findDelivery,
  insertDelivery,
  insertDeliveryLines,
  lockStoreDelivery,
  type StoreScope,
  storeDeliveries,
  toDeliveries,
} from '../deliveries.queries.js';
import { owing } from '../suppliers.queries.js';
import type { DeliveryTable } from '../../../db/tables/suppliers.table.js';
import { addDeliveryStock, removeDeliveryStock } from './delivery-stock.js';
import { requireSupplier } from './suppliers.js';
import { requirePower, requireStore } from '../../../lib/auth/authorize.js';
import { countedPage } from '../../../db/page.js';

const MOVES: Record<DeliveryStatus, DeliveryStatus[]> = {
  expected: ['delivered', 'partial', 'cancelled'],
  partial: ['delivered', 'returned', 'cancelled'],
  delivered: ['returned'],
  returned: [],
  cancelled: [],
};

/** A line as stored: `qty` in the product's counts (or, by the pack, whole packs), with the product's unit and the pack's units. */
export type CountedLine = DeliveryLineInput & { unit: Unit; pack_units: number | null };

/**
 * Every line's product is a stocked product of the organisation, and a line's pack one of its packs
 * (404 / 400 naming the line), its qty one of the product's unit (whole packs by the pack); answers
 * the lines with their qty in counts (packs by the pack) and their packs' units.
 */
async function checkLines(ctx: AuthedContext, orgId: string, lines: DeliveryLineInput[]): Promise<CountedLine[]> {
  if (lines.length === 0) return [];
  const [products, packs] = await Promise.all([
    orgProductsById(
      ctx,
      orgId,
      lines.map((l) => l.product_id),
    ),
    orgPacksById(
      ctx.db,
      orgId,
      lines.flatMap((l) => l.pack_id ?? []),
    ),
  ]);
  lines.forEach((l, i) => {
    if (l.pack_id && packs.get(l.pack_id)?.product_id !== l.product_id) {
      const field = `lines.${i}.pack_id`;
      throw new ServiceError('NOT_FOUND', 'pack not found', {
        errors: [{ code: 'NOT_FOUND', field, message: 'is not a pack of this product' }],
      });
    }
  });

  return lines.map((l, i) => {
    const p = products.get(l.product_id);
    const field = `lines.${i}.product_id`;
    if (!p)
      throw new ServiceError('NOT_FOUND', 'product not found', { errors: [{ code: 'NOT_FOUND', field, message: 'product not found' }] });
    if (p.is_service === 1) throw new ValidationError(field, 'is a service, which has no stock');
    if ((l.lot_number === undefined) !== (l.expiry_date === undefined)) {
      throw new ValidationError(
        `lines.${i}.${l.lot_number === undefined ? 'lot_number' : 'expiry_date'}`,
        'a lot needs both its number and its expiry date',
      );
    }
    if (l.lot_number !== undefined && p.track_batches !== 1)
      throw new ValidationError(`lines.${i}.lot_number`, `${p.name} does not track batches`);
    const pack = l.pack_id ? packs.get(l.pack_id)! : undefined;
    const qty = countOf(l.qty, pack ? 'piece' : p.unit, `lines.${i}.qty`);
    return { ...l, qty, unit: p.unit, pack_units: pack ? pack.units : null };
  });
}

/** A line by the pack costs its packs × the pack's cost; a loose one its quantity × the unit cost (a measured line rounded once). */
const linesTotal = (lines: CountedLine[]) =>
  lines.reduce(
    (sum, l) => sum + (l.pack_units === null ? lineAmount(toCents(l.unit_cost), l.qty, l.unit) : toCents(l.unit_cost) * l.qty),
    0,
  );
/** Pieces count one each (a carton its pieces); a line of a measured product (25.5 kg of sugar) is one item. */
const linesQty = (lines: CountedLine[]) => lines.reduce((sum, l) => sum + itemsOf(l.qty * (l.pack_units ?? 1), l.unit), 0);

async function requireDelivery(ctx: AuthedContext, id: string) {
  const row = await findDelivery(ctx.db, requireStore(ctx), id);
  if (!row) throw new NotFoundError('delivery');
  return row;
}

async function answer(ctx: AuthedContext, scope: StoreScope, id: string): Promise<Delivery> {
  return (await toDeliveries(ctx.db, [(await findDelivery(ctx.db, scope, id))!]))[0]!;
}

export async function listDeliveries(
  ctx: AuthedContext,
  q: ListDeliveriesQuery,
  supplierId?: string,
): Promise<{ items: Delivery[]; meta: PageMeta }> {
  const scope = requireStore(ctx);
  if (supplierId) await requireSupplier(ctx, supplierId);
  const supplier = supplierId ?? q.supplier;
  const base = storeDeliveries(ctx.db, scope)
    .$if(!!supplier, (qb) => qb.where('deliveries.supplier_id', '=', supplier!))
    .$if(q.unpaid === true, (qb) => qb.where(owing).where((eb) => eb('deliveries.total_value', '>', eb.ref('deliveries.paid_amount'))))
    .$if(q.unpaid === false, (qb) => qb.where('deliveries.is_paid', '=', 1));
  const { rows, meta } = await countedPage(base, base.orderBy('deliveries.delivery_date', 'desc').orderBy('deliveries.id', 'desc'), q);
  return { items: await toDeliveries(ctx.db, rows), meta };
}

export async function getDelivery(ctx: AuthedContext, id: string): Promise<Delivery> {
  return (await toDeliveries(ctx.db, [await requireDelivery(ctx, id)]))[0]!;
}

/**
 * A delivery from `supplierId` to the active store. Without `total_value` / `items_count` they are
 * the lines' sums. Created as `delivered`, its lines go into stock in the same transaction.
 */
export async function createDelivery(ctx: AuthedContext, supplierId: string, input: CreateSupplierDeliveryInput): Promise<Delivery> {
  const { orgId, storeId } = requireStore(ctx);
  const supplier = await requireSupplier(ctx, supplierId);
  const lines = await checkLines(ctx, orgId, input.lines ?? []);
  const status = input.status ?? 'expected';
  if (status === 'returned') throw new ValidationError('status', 'a new delivery cannot be returned');
  if (input.is_paid) requirePower(ctx, 'mark_delivery_paid');
  return withTransaction(ctx, async (tx) => {
    const now = tx.clock.now();
    const id = newId();
    const row = await insertDelivery(
      tx.db,
      {
        id,
        org_id: orgId,
        store_id: storeId,
        supplier_id: supplierId,
        invoice_number: input.invoice_number ?? null,
        delivery_date: input.delivery_date ? Date.parse(input.delivery_date) : now,
        items_count: input.items_count ?? linesQty(lines),
        total_value: input.total_value === undefined ? linesTotal(lines) : toCents(input.total_value),
        status,
        is_paid: input.is_paid ? 1 : 0,
        notes: input.notes ?? null,
        created_by: tx.actor.userId,
      },
      now,
    );
    await insertDeliveryLines(tx.db, orgId, id, lines);
    if (status === 'delivered') await addDeliveryStock(tx, row, supplier.name);
    await recordAudit(tx, {
      action: 'delivery.create',
      description:
        `Recorded ${status} delivery ${row.invoice_number ?? ''} from ${supplier.name}, TZS ${fromCents(row.total_value)}`.replace(
          '  ',
          ' ',
        ),
      entity: 'delivery',
      entityId: id,
    });
    return answer(tx, { orgId, storeId }, id);
  });
}

/** POST with an optional Idempotency-Key: a retried request does not record the delivery twice. */
export async function createDeliveryOnce(
  ctx: AuthedContext,
  supplierId: string,
  input: CreateSupplierDeliveryInput,
  key: string | undefined,
  route: string,
) {
  const out = await withIdempotency(ctx, { key, route, body: { supplierId, input } }, async (tx) => ({
    status: 200,
    body: await createDelivery(tx, supplierId, input),
  }));
  return { delivery: out.body as Delivery, replayed: out.replayed };
}

/**
 * Any delivery field except the supplier. The row is locked first and every rule is checked
 * against what is committed, so two PATCHes marking it delivered at once add stock once.
 */
export async function updateDelivery(ctx: AuthedContext, id: string, input: UpdateDeliveryInput): Promise<Delivery> {
  const { orgId, storeId } = requireStore(ctx);
  const found = await requireDelivery(ctx, id);
  const lines = input.lines ? await checkLines(ctx, orgId, input.lines) : undefined;
  return withTransaction(ctx, async (tx) => {
    const before = await lockStoreDelivery(tx, { orgId, storeId }, id);
    if (!before) throw new NotFoundError('delivery');
    // Paid (or unpaid) by hand, without a payment on the books: checked against the locked row.
    if (input.is_paid !== undefined && (input.is_paid ? 1 : 0) !== before.is_paid) requirePower(tx, 'mark_delivery_paid');
    const status = input.status ?? (before.status as DeliveryStatus);
    if (status !== before.status && !MOVES[before.status as DeliveryStatus].includes(status)) {
      throw new InvalidStateError(`a ${before.status} delivery cannot become ${status}`);
    }
    if (input.lines && before.stock_added_at !== null)
      throw new InvalidStateError('its stock was already added; its lines can no longer change');
    const paid = Number(before.paid_amount);
    if ((status === 'returned' || status === 'cancelled') && status !== before.status && paid > 0) {
      throw new BusinessRuleError(
        `TZS ${fromCents(paid)} was already paid on this delivery; it cannot be ${status}`,
        'BUSINESS_RULE',
        'status',
      );
    }
    const total = input.total_value !== undefined ? toCents(input.total_value) : lines ? linesTotal(lines) : Number(before.total_value);
    if (total < paid)
      throw new BusinessRuleError(`TZS ${fromCents(paid)} was already paid; total_value cannot be less`, 'BUSINESS_RULE', 'total_value');
    // A flag set by hand stays until unset by hand; one set because payments covered the total follows the total.
    const manual = before.is_paid === 1 && paid < Number(before.total_value);
    const isPaid = (input.is_paid ?? manual) || (paid > 0 && paid >= total);
    const set: Updateable<DeliveryTable> = {
      invoice_number: input.invoice_number,
      delivery_date: input.delivery_date === undefined ? undefined : Date.parse(input.delivery_date),
      items_count: input.items_count ?? (lines ? linesQty(lines) : undefined),
      total_value: total,
      status,
      is_paid: isPaid ? 1 : 0,
      notes: input.notes,
      updated_at: tx.clock.now(),
    };
    await tx.db
      .updateTable('deliveries')
      .set(Object.fromEntries(Object.entries(set).filter(([, v]) => v !== undefined)))
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .execute();
    if (lines) {
      await tx.db.deleteFrom('delivery_lines').where('org_id', '=', orgId).where('delivery_id', '=', id).execute();
      await insertDeliveryLines(tx.db, orgId, id, lines);
    }
    if (status === 'delivered' && before.status !== 'delivered') await addDeliveryStock(tx, before, found.supplier_name);
    if (status === 'returned' && before.status === 'delivered') await removeDeliveryStock(tx, before, found.supplier_name);
    await recordAudit(tx, {
      action: 'delivery.update',
      description:
        status !== before.status ? `Delivery from ${found.supplier_name} is now ${status}` : `Updated delivery from ${found.supplier_name}`,
      entity: 'delivery',
      entityId: id,
    });
    return answer(tx, { orgId, storeId }, id);
  });
}

/** Soft delete, only for a delivery whose stock was never added and that has no payment. */
export async function deleteDelivery(ctx: AuthedContext, id: string): Promise<void> {
  const scope = requireStore(ctx);
  await requireDelivery(ctx, id);
  await withTransaction(ctx, async (tx) => {
    const before = await lockStoreDelivery(tx, scope, id);
    if (!before) throw new NotFoundError('delivery');
    if (before.stock_added_at !== null) throw new InvalidStateError('its stock was added to the store; mark it returned instead');
    if (Number(before.paid_amount) > 0) throw new InvalidStateError('it has payments; it cannot be deleted');
    const now = tx.clock.now();
    await tx.db
      .updateTable('deliveries')
      .set({ deleted_at: now, updated_at: now })
      .where('org_id', '=', scope.orgId)
      .where('id', '=', id)
      .execute();
    await recordAudit(tx, {
      action: 'delivery.delete',
      description: `Deleted delivery ${before.invoice_number ?? id}`,
      entity: 'delivery',
      entityId: id,
    });
  });
}
