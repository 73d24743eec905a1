/**
 * A delivery's goods in and out of the store's stock, through the inventory's one stock-moving
 * function, so tills hear of it by the change log and websocket like any other stock change.
 * Every qty here is in counts (issue 51): the lines were stored so.
 */
import { type Unit, unitScale } from '@duka/shared';
import { noteChange } from '../../../db/change-log.js';
import type { AuthedContext } from '../../../lib/context.js';
import { ServiceError, ValidationError } from '../../../lib/errors.js';
import { type LotLine, receiveLot, returnLot } from '../../pharmacy/pharmacy.exports.js';
import { recordPrice, insertAdjustment } from '../../inventory/inventory.exports.js';
import { changeStockLevel } from '../../stock-levels/stock-levels.exports.js';
import { linesOf, updateProductCost } from '../deliveries.queries.js';
import type { DeliveryRow } from '../../../db/tables/suppliers.table.js';

const label = (d: DeliveryRow, supplierName: string) => `delivery ${d.invoice_number ?? d.id} from ${supplierName}`;

/** A line's cost of one of the product's unit, cents: a pack's cost spread over what it holds, to the cent (half up). */
const unitCostOf = (l: { unit_cost: number; pack_units: number | null; unit: Unit | null }) =>
  l.pack_units === null ? Number(l.unit_cost) : Math.round((Number(l.unit_cost) * unitScale(l.unit ?? 'piece')) / Number(l.pack_units));

/**
 * Lines merged per product (and per lot for batch-tracked products), in product-id order (the lock
 * order every stock writer uses); `index` is the first line merged, to name it.
 */
async function mergedLines(ctx: AuthedContext, delivery: DeliveryRow) {
  type Merged = {
    productId: string;
    name: string;
    tracked: boolean;
    unit: Unit;
    lot: string | null;
    expiry: string | null;
    qty: number;
    unitCost: number;
    cost: number | null;
    index: number;
  };
  const merged = new Map<string, Merged>();
  for (const [i, l] of (await linesOf(ctx.db, [delivery])).entries()) {
    if (l.product_name === null) {
      const field = `lines.${i}.product_id`;
      throw new ServiceError('NOT_FOUND', 'the product of a line was deleted; edit the lines first', {
        errors: [{ code: 'NOT_FOUND', field, message: 'product not found' }],
      });
    }
    const key = `${l.product_id}/${l.lot_number ?? ''}`;
    const seen = merged.get(key) ?? {
      productId: l.product_id,
      name: l.product_name,
      tracked: l.track_batches === 1,
      unit: l.unit ?? 'piece',
      lot: l.lot_number,
      expiry: l.expiry_date,
      qty: 0,
      unitCost: unitCostOf(l),
      cost: null,
      index: i,
    };
    if (seen.expiry !== l.expiry_date)
      throw new ValidationError(`lines.${i}.expiry_date`, `lot ${l.lot_number} has two expiry dates on this delivery`);
    // A line in packs adds its packs × the pack's units (as recorded): a carton of 24 adds 24.
    seen.qty += Number(l.qty) * Number(l.pack_units ?? 1);
    if (l.update_cost === 1) seen.cost = unitCostOf(l);
    merged.set(key, seen);
  }
  return [...merged.values()].sort((a, b) => a.productId.localeCompare(b.productId) || (a.lot ?? '').localeCompare(b.lot ?? ''));
}

const lotLine = (d: DeliveryRow, line: Awaited<ReturnType<typeof mergedLines>>[number]): LotLine => ({
  orgId: d.org_id,
  storeId: d.store_id,
  product: { id: line.productId, name: line.name },
  lotNumber: line.lot,
  expiryDate: line.expiry,
  qty: line.qty,
  unitCost: line.unitCost,
  supplierId: d.supplier_id,
  deliveryId: d.id,
  field: `lines.${line.index}`,
});

/**
 * Add the delivery's lines to its store's stock, once. The claim is a conditional UPDATE of
 * `stock_added_at` (only where it is still null): of two requests marking one delivery delivered
 * at the same moment, only one claims it (on Postgres the second waits for the first's row lock and
 * then finds it set), so stock can never be added twice. Inside the caller's transaction.
 */
export async function addDeliveryStock(ctx: AuthedContext, d: DeliveryRow, supplierName: string): Promise<boolean> {
  const now = ctx.clock.now();
  const claimed = await ctx.db
    .updateTable('deliveries')
    .set({ stock_added_at: now })
    .where('org_id', '=', d.org_id)
    .where('id', '=', d.id)
    .where('stock_added_at', 'is', null)
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) === 0) return false;
  for (const line of await mergedLines(ctx, d)) {
    const qty = line.tracked
      ? await receiveLot(ctx, lotLine(d, line))
      : await changeStockLevel(ctx, {
          orgId: d.org_id,
          storeId: d.store_id,
          productId: line.productId,
          productName: line.name,
          delta: line.qty,
          unit: line.unit,
        });
    await insertAdjustment(ctx, {
      productId: line.productId,
      qtyChange: line.qty,
      qtyAfter: qty,
      reason: 'delivery',
      note: label(d, supplierName),
    });
    if (line.cost === null) continue;
    const product = await updateProductCost(ctx.db, d.org_id, line.productId, line.cost, now);
    if (product) {
      await recordPrice(ctx, product);
      noteChange(ctx, d.org_id, { entity: 'product', id: product.id });
    }
  }
  return true;
}

/** Take a returned delivery's lines back out of stock (409 INSUFFICIENT_STOCK if they were sold), once. */
export async function removeDeliveryStock(ctx: AuthedContext, d: DeliveryRow, supplierName: string): Promise<boolean> {
  const released = await ctx.db
    .updateTable('deliveries')
    .set({ stock_added_at: null })
    .where('org_id', '=', d.org_id)
    .where('id', '=', d.id)
    .where('stock_added_at', 'is not', null)
    .executeTakeFirst();
  if (Number(released.numUpdatedRows) === 0) return false;
  for (const line of await mergedLines(ctx, d)) {
    const qty = line.tracked
      ? await returnLot(ctx, lotLine(d, line))
      : await changeStockLevel(ctx, {
          orgId: d.org_id,
          storeId: d.store_id,
          productId: line.productId,
          productName: line.name,
          delta: -line.qty,
          field: 'status',
          unit: line.unit,
        });
    await insertAdjustment(ctx, {
      productId: line.productId,
      qtyChange: -line.qty,
      qtyAfter: qty,
      reason: 'delivery_returned',
      note: label(d, supplierName),
    });
  }
  return true;
}
