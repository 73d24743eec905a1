/**
 * The one way a batch changes (issue 14). Every change to a batch's units or status goes through
 * `moveBatch`, which updates the row, appends its line to the movement ledger and moves the
 * product's stock by the change in sellable units, so that the stock of a batch-tracked product is
 * the sum of its sellable batches, always (the registers are read from the same ledger).
 *
 * Locks: the product's stock row is the lock for its batches. A writer first moves or locks that
 * row (`lockStock`), in product-id order like every stock writer, then reads and writes batches.
 */
import { type BatchMovementKind, type BatchStatus, newId } from '@duka/shared';
import { sql } from 'kysely';
import { noteChange } from '../../../db/change-log.js';
import type { BatchRow } from '../../../db/tables/batches.table.js';
import type { ServiceContext } from '../../../lib/context.js';
import { localDate } from '../../../lib/time.js';
import { changeStockLevel } from '../../inventory/services/stock.js';

/**
 * The lot that takes units an offline sale dispensed beyond every batch's count: a main batch that
 * never expires, sellable, whose units go negative, so stock still equals the sum of sellable
 * batches; the owner sets it right with a stock count (an adjustment naming it).
 */
export const UNALLOCATED_LOT = 'UNALLOCATED';
const UNALLOCATED_EXPIRY = '9999-12-31';

export interface BatchMove {
  kind: BatchMovementKind;
  /** Signed change of the row's units. */
  qty: number;
  /** The status after the move (default: unchanged). */
  status?: BatchStatus;
  transactionId?: string;
  deliveryId?: string;
  recallId?: string;
  reason?: string;
  method?: string;
  witness?: string;
  note?: string;
  /** JSON-able detail (a correction's before and after). */
  details?: unknown;
  /** Fields changed besides units and status (a correction of lot or expiry). */
  set?: Partial<Pick<BatchRow, 'lot_number' | 'expiry_date'>>;
}

const sellableUnits = (status: BatchStatus, qty: number) => (status === 'sellable' ? qty : 0);

/**
 * Apply one move to `batch` (read in this transaction, after `lockStock`) and return the row after
 * it with the stock change it made. `applyStock: false` leaves the stock to the caller, who moves
 * it once for several batches of a product (a sale line spanning lots).
 */
export async function moveBatch(ctx: ServiceContext, batch: BatchRow, move: BatchMove, opts: { productName: string; applyStock?: boolean }): Promise<{ row: BatchRow; stockChange: number }> {
  const now = ctx.clock.now();
  const status = move.status ?? batch.status;
  const stockChange = sellableUnits(status, batch.qty_on_hand + move.qty) - sellableUnits(batch.status, batch.qty_on_hand);
  // A new expiry date makes the alert already sent wrong: the expiry job alerts again when due.
  const rearm = move.set?.expiry_date !== undefined && move.set.expiry_date !== batch.expiry_date ? { expiry_alerted_at: null } : {};
  const row = await ctx.db
    .updateTable('batches')
    .set((eb) => ({ qty_on_hand: eb('qty_on_hand', '+', move.qty), status, updated_at: now, ...move.set, ...rearm }))
    .where('id', '=', batch.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  await ctx.db
    .insertInto('batch_movements')
    .values({
      id: newId(),
      org_id: batch.org_id,
      store_id: batch.store_id,
      product_id: batch.product_id,
      batch_id: batch.id,
      kind: move.kind,
      qty: move.qty,
      qty_after: row.qty_on_hand,
      stock_change: stockChange,
      status_from: batch.status,
      status_to: status,
      transaction_id: move.transactionId ?? null,
      delivery_id: move.deliveryId ?? null,
      recall_id: move.recallId ?? null,
      reason: move.reason ?? null,
      method: move.method ?? null,
      witness: move.witness ?? null,
      note: move.note ?? null,
      details: move.details === undefined ? null : JSON.stringify(move.details),
      user_id: ctx.actor?.userId ?? null,
      created_at: now,
    })
    .execute();
  if (stockChange !== 0 && opts.applyStock !== false) {
    await changeStockLevel(ctx, { orgId: batch.org_id, storeId: batch.store_id, productId: batch.product_id, productName: opts.productName, delta: stockChange, allowNegative: true });
  }
  noteChange(ctx, batch.org_id, { entity: 'batch', id: batch.id, storeId: batch.store_id });
  return { row, stockChange };
}

/** A new batch row holding nothing yet; its units arrive by `moveBatch`, so the ledger has them. */
export async function createBatch(
  ctx: ServiceContext,
  b: Pick<BatchRow, 'org_id' | 'store_id' | 'product_id' | 'lot_number' | 'expiry_date' | 'status'> &
    Partial<Pick<BatchRow, 'cost_price' | 'supplier_id' | 'delivery_id' | 'source_batch_id' | 'transaction_id'>>,
): Promise<BatchRow> {
  const now = ctx.clock.now();
  return ctx.db
    .insertInto('batches')
    .values({
      id: newId(),
      cost_price: 0,
      supplier_id: null,
      delivery_id: null,
      source_batch_id: null,
      transaction_id: null,
      ...b,
      qty_on_hand: 0,
      received_at: now,
      expiry_alerted_at: null,
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Take the product's stock row lock (creating the row at 0 when missing) so that batch reads and
 * writes of this product in this store are serialised. SQLite has one writer: the update is enough.
 */
export async function lockStock(ctx: ServiceContext, storeId: string, productId: string): Promise<void> {
  const now = ctx.clock.now();
  const locked = await ctx.db
    .updateTable('product_stock')
    .set({ qty: sql<number>`qty` })
    .where('store_id', '=', storeId)
    .where('product_id', '=', productId)
    .executeTakeFirst();
  if (Number(locked.numUpdatedRows) > 0) return;
  await ctx.db.insertInto('product_stock').values({ store_id: storeId, product_id: productId, qty: 0, updated_at: now }).onConflict((oc) => oc.columns(['store_id', 'product_id']).doNothing()).execute();
  await ctx.db.updateTable('product_stock').set({ qty: sql<number>`qty` }).where('store_id', '=', storeId).where('product_id', '=', productId).execute();
}

/** The main (non-quarantine) batches of a product in a store, any status: what FEFO chooses from. */
export function mainBatches(ctx: ServiceContext, storeId: string, productId: string): Promise<BatchRow[]> {
  return ctx.db.selectFrom('batches').selectAll().where('store_id', '=', storeId).where('product_id', '=', productId).where('source_batch_id', 'is', null).orderBy('id').execute();
}

/** The store's main batch of a lot, if any. */
export function findLot(ctx: ServiceContext, storeId: string, productId: string, lotNumber: string): Promise<BatchRow | undefined> {
  return ctx.db
    .selectFrom('batches')
    .selectAll()
    .where('store_id', '=', storeId)
    .where('product_id', '=', productId)
    .where('lot_number', '=', lotNumber)
    .where('source_batch_id', 'is', null)
    .executeTakeFirst();
}

/** The store's unallocated batch of a product (see UNALLOCATED_LOT), created on first need. */
export async function unallocatedBatch(ctx: ServiceContext, orgId: string, storeId: string, productId: string): Promise<BatchRow> {
  return (
    (await findLot(ctx, storeId, productId, UNALLOCATED_LOT)) ??
    createBatch(ctx, { org_id: orgId, store_id: storeId, product_id: productId, lot_number: UNALLOCATED_LOT, expiry_date: UNALLOCATED_EXPIRY, status: 'sellable' })
  );
}

/** Today (`YYYY-MM-DD`) in the organisation's time zone at `at`: the day batch expiry is judged by. */
export async function orgToday(ctx: ServiceContext, orgId: string, at: number): Promise<string> {
  const org = await ctx.db.selectFrom('organisations').select('timezone').where('id', '=', orgId).executeTakeFirstOrThrow();
  return localDate(at, org.timezone);
}
