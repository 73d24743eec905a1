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
import { forUpdate, insertRows, orgIdCheck, updateRows } from '../../../db/dialect.js';
import { updateMovedBatch } from './batches.queries.js';
import type { BatchRow } from '../../../db/tables/batches.table.js';
import type { ServiceContext } from '../../../lib/context.js';
import { localDate } from '../../../lib/time.js';
import { changeStockLevel, insertMissingStockRows } from '../../stock-levels/stock-levels.exports.js';

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
  /** Fields changed besides units and status (a correction of lot or expiry; a new expiry re-arms the alert). */
  set?: Partial<Pick<BatchRow, 'lot_number' | 'expiry_date'>>;
  /** Who moved it, when not the context's actor (one of several online sales written together). */
  userId?: string;
}

const sellableUnits = (status: BatchStatus, qty: number) => (status === 'sellable' ? qty : 0);

/**
 * A dispensing line is the sale's record of its lot, so it keeps the lot as sold: a correction of
 * the batch later must not change what the receipt printed or which sales a recall finds.
 */
const asSold = (kind: BatchMovementKind, batch: BatchRow) =>
  kind === 'dispensed' ? { lot_number: batch.lot_number, expiry_date: batch.expiry_date } : { lot_number: null, expiry_date: null };

/** A move of one batch, read in this transaction after `lockStock`. */
export interface BatchMoveOf {
  batch: BatchRow;
  move: BatchMove;
}

/**
 * Apply one move to `batch` (read in this transaction, after `lockStock`) and return the row after
 * it with the stock change it made. `applyStock: false` leaves the stock to the caller.
 */
export async function moveBatch(
  ctx: ServiceContext,
  batch: BatchRow,
  move: BatchMove,
  opts: { productName: string; applyStock?: boolean },
): Promise<{ row: BatchRow; stockChange: number }> {
  const [moved] = await moveBatches(ctx, [{ batch, move }], {
    productNames: new Map([[batch.product_id, opts.productName]]),
    applyStock: opts.applyStock,
  });
  return moved!;
}

/**
 * Apply several moves in three statements whatever their number: one UPDATE of the rows, one
 * INSERT of their ledger lines and, unless `applyStock: false`, one stock move per product. A batch
 * may be moved more than once (a pushed batch of sales taking units off one lot): its moves apply in
 * order, each ledger line with the units after it. A sale spanning lots of several medicines waits on the database as often as a sale of one:
 * under load a transaction's length is its number of round trips. The rows after the moves are
 * worked out here (the caller holds their lock), not read back.
 */
export async function moveBatches(
  ctx: ServiceContext,
  items: BatchMoveOf[],
  opts: { productNames: ReadonlyMap<string, string>; applyStock?: boolean },
): Promise<Array<{ row: BatchRow; stockChange: number }>> {
  if (items.length === 0) return [];
  const now = ctx.clock.now();
  const latest = new Map<string, BatchRow>();
  const moved = items.map(({ batch: given, move }) => {
    const batch = latest.get(given.id) ?? given;
    const status = move.status ?? batch.status;
    const stockChange = sellableUnits(status, batch.qty_on_hand + move.qty) - sellableUnits(batch.status, batch.qty_on_hand);
    // A new expiry date makes the alert already sent wrong: the expiry job alerts again when due.
    const rearm = move.set?.expiry_date !== undefined && move.set.expiry_date !== batch.expiry_date ? { expiry_alerted_at: null } : {};
    const row: BatchRow = { ...batch, ...move.set, ...rearm, qty_on_hand: batch.qty_on_hand + move.qty, status, updated_at: now };
    latest.set(batch.id, row);
    return { batch, move, row, stockChange };
  });
  // Every caller moves the batches of one organisation, in its own transaction.
  const orgId = items[0]!.batch.org_id;
  if (items.some((i) => i.batch.org_id !== orgId)) throw new Error('moves of batches of one organisation at a time');
  if (items.length === 1) {
    const { batch, move, row } = moved[0]!;
    await updateMovedBatch(ctx.db, orgId, batch.id, {
      qty: move.qty,
      status: row.status,
      now,
      set: move.set,
      alertCleared: row.expiry_alerted_at === null,
    });
  } else {
    if (items.some((i) => i.move.set)) throw new Error('a correction of lot or expiry moves one batch at a time');
    // Per batch: the sum of its moves and the status after the last.
    const change = new Map<string, number>();
    for (const m of moved) change.set(m.batch.id, (change.get(m.batch.id) ?? 0) + m.move.qty);
    // Status only when a move changes one: a sale's moves do not, and an unchanged indexed column
    // written anyway costs its indexes.
    const statusMoves = moved.some((m) => m.row.status !== m.batch.status);
    await updateRows(
      ctx.db,
      'batches',
      {
        key: 'id',
        add: 'qty_on_hand',
        ...(statusMoves ? { set: 'status' } : {}),
        where: orgIdCheck(ctx.dialect, 'batches.org_id', orgId),
        now,
      },
      [...change].map(([key, add]) => ({ key, add, set: latest.get(key)!.status })),
    );
  }
  await insertRows(
    ctx.db,
    'batch_movements',
    moved.map(({ batch, move, row, stockChange }) => ({
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
      status_to: row.status,
      transaction_id: move.transactionId ?? null,
      delivery_id: move.deliveryId ?? null,
      recall_id: move.recallId ?? null,
      reason: move.reason ?? null,
      method: move.method ?? null,
      witness: move.witness ?? null,
      note: move.note ?? null,
      details: move.details === undefined ? null : JSON.stringify(move.details),
      user_id: move.userId ?? ctx.actor?.userId ?? null,
      created_at: now,
      ...asSold(move.kind, batch),
    })),
  );
  if (opts.applyStock !== false) {
    const perProduct = new Map<string, { batch: BatchRow; delta: number }>();
    for (const m of moved)
      perProduct.set(`${m.batch.store_id}/${m.batch.product_id}`, {
        batch: m.batch,
        delta: (perProduct.get(`${m.batch.store_id}/${m.batch.product_id}`)?.delta ?? 0) + m.stockChange,
      });
    for (const [, { batch, delta }] of [...perProduct].sort(([a], [b]) => a.localeCompare(b))) {
      if (delta === 0) continue;
      const productName = opts.productNames.get(batch.product_id) ?? batch.product_id;
      await changeStockLevel(ctx, {
        orgId: batch.org_id,
        storeId: batch.store_id,
        productId: batch.product_id,
        productName,
        delta,
        allowNegative: true,
      });
    }
  }
  for (const row of latest.values()) noteChange(ctx, row.org_id, { entity: 'batch', id: row.id, storeId: row.store_id });
  return moved.map(({ row, stockChange }) => ({ row, stockChange }));
}

type NewBatch = Pick<BatchRow, 'org_id' | 'store_id' | 'product_id' | 'lot_number' | 'expiry_date' | 'status'> &
  Partial<Pick<BatchRow, 'cost_price' | 'supplier_id' | 'delivery_id' | 'source_batch_id' | 'transaction_id'>>;

/** A new batch row holding nothing yet (its units arrive by a move, so the ledger has them). */
export function newBatchRow(b: NewBatch, now: number): BatchRow {
  return {
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
  };
}

export async function createBatch(ctx: ServiceContext, b: NewBatch): Promise<BatchRow> {
  const row = newBatchRow(b, ctx.clock.now());
  await ctx.db.insertInto('batches').values(row).execute();
  return row;
}

/** A store's unallocated lot of a product, created when an offline sale first needs it (written with the sale). */
export function unallocatedRow(orgId: string, storeId: string, productId: string, now: number): BatchRow {
  return newBatchRow(
    {
      org_id: orgId,
      store_id: storeId,
      product_id: productId,
      lot_number: UNALLOCATED_LOT,
      expiry_date: UNALLOCATED_EXPIRY,
      status: 'sellable',
    },
    now,
  );
}

/**
 * Take the product's stock row lock (creating the row at 0 when missing) so that batch reads and
 * writes of this product in this store are serialised. SQLite has one writer: the update is enough.
 */
export async function lockStock(ctx: ServiceContext, orgId: string, storeId: string, productId: string): Promise<void> {
  const now = ctx.clock.now();
  const locked = await ctx.db
    .updateTable('product_stock')
    .set({ qty: sql<number>`qty` })
    .where('org_id', '=', orgId)
    .where('store_id', '=', storeId)
    .where('product_id', '=', productId)
    .executeTakeFirst();
  if (Number(locked.numUpdatedRows) > 0) return;
  await insertMissingStockRows(ctx.db, { orgId, storeId }, [productId], now);
  await ctx.db
    .updateTable('product_stock')
    .set({ qty: sql<number>`qty` })
    .where('org_id', '=', orgId)
    .where('store_id', '=', storeId)
    .where('product_id', '=', productId)
    .execute();
}

/**
 * Lock a batch-tracked product's row for an organisation-wide lot change: a recall and a delivery of
 * the same lot to another store then happen one after the other, so a delivery cannot slip a
 * recalled lot in while the recall runs. Taken before any stock row (product, then stock, as a
 * product edit that sets stock does).
 */
export async function lockProduct(ctx: ServiceContext, orgId: string, productId: string): Promise<void> {
  await forUpdate(
    ctx.dialect,
    ctx.db.selectFrom('products').select('id').where('org_id', '=', orgId).where('id', '=', productId),
  ).execute();
}

/** The store's unallocated batch of a product (see UNALLOCATED_LOT), created on first need. */

/** Today (`YYYY-MM-DD`) in the organisation's time zone at `at`: the day batch expiry is judged by. */
export async function orgToday(ctx: ServiceContext, orgId: string, at: number): Promise<string> {
  const org = await ctx.db.selectFrom('organisations').select('timezone').where('id', '=', orgId).executeTakeFirstOrThrow();
  return localDate(at, org.timezone);
}
