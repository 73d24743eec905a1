/**
 * The one way stock moves: adjustments, sales, refunds, voids, deliveries and the batch ledger all
 * call `changeStockLevel` inside their transaction. An area of its own, below inventory and pharmacy:
 * the batch ledger moves stock, and inventory's adjustment of a batch-tracked product goes through
 * the ledger, so neither area may own the mover.
 */
import { fromCount, type Unit } from '@duka/shared';
import type { InsertResult, Kysely } from 'kysely';
import { noteChange } from '../../db/change-log.js';
import type { Database } from '../../db/database.js';
import type { ServiceContext } from '../../lib/context.js';
import { BusinessRuleError, InsufficientStockError } from '../../lib/errors.js';

/**
 * The most units a store may hold of one product, the ceiling of a product's opening stock. Postgres
 * keeps stock in a 32-bit integer (2,147,483,647), so without it repeated large additions answered
 * 500 there while SQLite took them.
 */
export const MAX_STOCK = 1_000_000_000;

export interface StockChange {
  orgId: string;
  storeId: string;
  productId: string;
  productName: string;
  delta: number;
  /** Offline sales already happened: they may take stock below zero (recorded as oversold). */
  allowNegative?: boolean;
  /** Names the request field in an INSUFFICIENT_STOCK error (e.g. `lines.0.qty`). */
  field?: string;
  /** The product's unit, for the error's figures (`delta` is in counts whatever it is); piece when left out. */
  unit?: Unit;
}

/**
 * Move stock by `delta` and return the new level. The check and the write are one conditional
 * UPDATE, so two concurrent sales of the last unit cannot both succeed.
 */
export async function changeStockLevel(ctx: ServiceContext, change: StockChange): Promise<number> {
  const now = ctx.clock.now();
  const apply = () => {
    let update = ctx.db
      .updateTable('product_stock')
      .set((eb) => ({ qty: eb('qty', '+', change.delta), updated_at: now }))
      .where('org_id', '=', change.orgId)
      .where('store_id', '=', change.storeId)
      .where('product_id', '=', change.productId);
    if (!change.allowNegative && change.delta < 0) update = update.where('qty', '>=', -change.delta);
    if (change.delta > 0) update = update.where('qty', '<=', MAX_STOCK - change.delta);
    return update.returning('qty').executeTakeFirst();
  };
  let row = await apply();
  if (!row) {
    // No row yet for this store (or not enough stock): create the row at 0 and try once more.
    const created = await insertMissingStockRows(ctx.db, change, [change.productId], now);
    if (Number(created.numInsertedOrUpdatedRows ?? 0) > 0) row = await apply();
  }
  if (!row) {
    const current = await ctx.db
      .selectFrom('product_stock')
      .select('qty')
      .where('org_id', '=', change.orgId)
      .where('store_id', '=', change.storeId)
      .where('product_id', '=', change.productId)
      .executeTakeFirst();
    const unit = change.unit ?? 'piece';
    const now = fromCount(Number(current?.qty ?? 0), unit);
    if (change.delta > 0)
      throw new BusinessRuleError(
        `stock of ${change.productName} would pass ${fromCount(MAX_STOCK, unit).toLocaleString('en')} ${unit === 'piece' ? 'units' : unit} (${now.toLocaleString('en')} now)`,
        'BUSINESS_RULE',
        change.field,
      );
    throw new InsufficientStockError(change.productName, now, change.field);
  }
  noteChange(ctx, change.orgId, { entity: 'stock', id: change.productId, storeId: change.storeId });
  return row.qty;
}

/**
 * A stock row at 0 for each of `productIds` in the store that has none yet (one statement; rows that
 * exist are left alone), so that what follows can lock every row it needs.
 */
export function insertMissingStockRows(
  db: Kysely<Database>,
  where: { orgId: string; storeId: string },
  productIds: string[],
  now: number,
): Promise<InsertResult> {
  return db
    .insertInto('product_stock')
    .values(productIds.map((id) => ({ org_id: where.orgId, store_id: where.storeId, product_id: id, qty: 0, updated_at: now })))
    .onConflict((oc) => oc.columns(['org_id', 'store_id', 'product_id']).doNothing())
    .executeTakeFirst();
}
