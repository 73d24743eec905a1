/**
 * Local effects of a queued action and how to take them back. Counters (stock, what a customer
 * owes) move by deltas, so undoing one action never erases another's; rows whose state an action
 * replaces (a refunded sale) are restored from a snapshot. The undo is stored with the mutation and
 * run if the server rejects it.
 */
import { fromCents } from '@duka/shared';
import { type CompiledQuery, sql } from 'kysely';
import { compiledOnce } from './compiled.js';
import type { LocalTrx } from './db.js';

type RestorableTable = 'transactions' | 'customers' | 'credit_tabs' | 'notifications';

export interface Undo {
  /** Units to add back per product. */
  stock?: Record<string, number>;
  /** Units to add back per batch (a pharmacy sale's lots). */
  batches?: Record<string, number>;
  /** Cents to add to what each customer owes. */
  outstanding?: Record<string, number>;
  /** Rows to put back as they were before the action (`row: null`: the action created it). */
  restore?: Array<{ table: RestorableTable; id: string; row: Record<string, unknown> | null }>;
  /** A sale made by this action: kept, marked refused. */
  rejectSale?: string;
  /** Shift movements this action recorded: the server refused the money's move, so the X report drops it. */
  movements?: string[];
}

/** Move a product's local level; services (no stock row and `is_service`) are left alone. */
export function moveStock(trx: LocalTrx, productId: string, delta: number): Promise<void> {
  return moveStocks(trx, { [productId]: delta });
}

/** The stock upsert of `count` rows, compiled once per count (a sale of 5 products: one SQL text, built once). */
const stockUpsert = (count: number) =>
  compiledOnce(Array.from({ length: count }, (_, i) => [`p${i}`, `q${i}`]).flat(), (db, v: Record<string, never>) =>
    db
      .insertInto('stock')
      .values(Array.from({ length: count }, (_, i) => ({ product_id: v[`p${i}`]!, qty: v[`q${i}`]! })))
      .onConflict((oc) => oc.column('product_id').doUpdateSet({ qty: sql<number>`stock.qty + excluded.qty` })),
  );
const stockUpserts = new Map<number, ReturnType<typeof stockUpsert>>();

/** Move several products' levels by their deltas in one statement (a sale's lines). */
export async function moveStocks(trx: LocalTrx, deltas: Record<string, number>): Promise<void> {
  const upsert = stockMoves(trx, deltas);
  if (upsert) await trx.executeQuery(upsert);
}

/** `moveStocks`' one statement, to run with others (`runInOrder`); none when nothing moves. */
export function stockMoves(trx: LocalTrx, deltas: Record<string, number>): CompiledQuery | undefined {
  const rows = Object.entries(deltas).filter(([, qty]) => qty !== 0);
  if (!rows.length) return undefined;
  let upsert = stockUpserts.get(rows.length);
  if (!upsert) stockUpserts.set(rows.length, (upsert = stockUpsert(rows.length)));
  const values: Record<string, unknown> = {};
  rows.forEach(([productId, qty], i) => {
    values[`p${i}`] = productId;
    values[`q${i}`] = qty;
  });
  return upsert.compile(trx, values);
}

/** Move batches' local quantities by their deltas; a batch the replica no longer holds is skipped. */
export async function moveBatches(trx: LocalTrx, deltas: Record<string, number>): Promise<void> {
  for (const update of batchMoves(trx, deltas)) await trx.executeQuery(update);
}

/** `moveBatches`' statements, to run with others (`runInOrder`). */
export function batchMoves(trx: LocalTrx, deltas: Record<string, number>): CompiledQuery[] {
  return Object.entries(deltas)
    .filter(([, qty]) => qty !== 0)
    .map(([id, qty]) =>
      trx
        .updateTable('batches')
        .set({ qty_on_hand: sql<number>`qty_on_hand + ${qty}` })
        .where('id', '=', id)
        .compile(),
    );
}

/** Move what a customer owes, in the column and in the row's JSON. */
export async function moveOutstanding(trx: LocalTrx, customerId: string, deltaCents: number): Promise<void> {
  if (deltaCents === 0) return;
  const row = await trx.selectFrom('customers').select(['outstanding', 'data']).where('id', '=', customerId).executeTakeFirst();
  if (!row) return;
  const outstanding = row.outstanding + deltaCents;
  const data = { ...JSON.parse(row.data), outstanding_balance: fromCents(outstanding) };
  await trx
    .updateTable('customers')
    .set({ outstanding, data: JSON.stringify(data) })
    .where('id', '=', customerId)
    .execute();
}

/** The row as it is now, for an Undo's `restore`. */
export async function snapshot(trx: LocalTrx, table: RestorableTable, id: string): Promise<Record<string, unknown> | null> {
  return ((await trx.selectFrom(table).selectAll().where('id', '=', id).executeTakeFirst()) as Record<string, unknown> | undefined) ?? null;
}

export async function runUndo(trx: LocalTrx, undo: Undo): Promise<void> {
  for (const [productId, delta] of Object.entries(undo.stock ?? {})) await moveStock(trx, productId, delta);
  await moveBatches(trx, undo.batches ?? {});
  for (const [customerId, delta] of Object.entries(undo.outstanding ?? {})) await moveOutstanding(trx, customerId, delta);
  for (const r of [...(undo.restore ?? [])].reverse()) {
    let row = r.row;
    if (row && r.table === 'transactions') {
      // The sale may have been numbered since (its own mutation went first): only its state goes back.
      const now = await trx
        .selectFrom('transactions')
        .select(['number', 'receipt_number', 'sync_state', 'data'])
        .where('id', '=', r.id)
        .executeTakeFirst();
      if (now) {
        const { number, receipt_number, sync_state } = now;
        row = {
          ...row,
          number,
          receipt_number,
          sync_state,
          data: JSON.stringify({ ...JSON.parse(String(row.data)), number, receipt_number, sync_state }),
        };
      }
    }
    if (row && r.table === 'customers') {
      // What the customer owes moved by deltas since (other sales, payments): keep today's figure.
      const now = await trx.selectFrom('customers').select(['outstanding', 'data']).where('id', '=', r.id).executeTakeFirst();
      if (now)
        row = {
          ...row,
          outstanding: now.outstanding,
          data: JSON.stringify({ ...JSON.parse(String(row.data)), outstanding_balance: fromCents(now.outstanding) }),
        };
    }
    await trx.deleteFrom(r.table).where('id', '=', r.id).execute();
    if (row)
      await trx
        .insertInto(r.table)
        .values(row as never)
        .execute();
  }
  if (undo.movements?.length) await trx.deleteFrom('shift_movements').where('id', 'in', undo.movements).execute();
  if (undo.rejectSale) {
    const row = await trx.selectFrom('transactions').select('data').where('id', '=', undo.rejectSale).executeTakeFirst();
    if (row) {
      const data = { ...JSON.parse(row.data), sync_state: 'rejected' };
      await trx
        .updateTable('transactions')
        .set({ sync_state: 'rejected', data: JSON.stringify(data) })
        .where('id', '=', undo.rejectSale)
        .execute();
    }
  }
}
