/** Reads of the batch ledger for the controlled-drug and disposal registers (issue 14). */
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/database.js';

export interface Span {
  storeId: string;
  /** Instants [start, end). */
  start: number;
  end: number;
}

/** The product's stock in the store at `before`: the sum of the ledger's stock changes until then. */
export async function stockBefore(db: Kysely<Database>, storeId: string, productId: string, before: number): Promise<number> {
  const row = await db
    .selectFrom('batch_movements')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('stock_change'), eb.lit(0)).as('n'))
    .where('store_id', '=', storeId)
    .where('product_id', '=', productId)
    .where('created_at', '<', before)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Ledger lines of the store in the span, with their batch, references and who; time then id order. */
export function ledgerLines(db: Kysely<Database>, span: Span) {
  return db
    .selectFrom('batch_movements as m')
    .innerJoin('batches as b', 'b.id', 'm.batch_id')
    .innerJoin('products as p', 'p.id', 'm.product_id')
    .leftJoin('transactions as t', 't.id', 'm.transaction_id')
    .leftJoin('deliveries as d', 'd.id', 'm.delivery_id')
    .leftJoin('users as u', 'u.id', 'm.user_id')
    .selectAll('m')
    .select([
      'b.lot_number',
      'b.expiry_date',
      'b.cost_price',
      'p.name as product_name',
      'p.generic_name',
      'p.strength',
      't.receipt_number',
      'd.invoice_number',
      'u.first_name',
      'u.last_name',
    ])
    .where('m.store_id', '=', span.storeId)
    .where('m.created_at', '>=', span.start)
    .where('m.created_at', '<', span.end)
    .orderBy('m.created_at')
    .orderBy('m.id');
}

export type LedgerLine = Awaited<ReturnType<ReturnType<typeof ledgerLines>['execute']>>[number];
