/** Reads of the batch ledger for the controlled-drug and disposal registers (issue 14). */
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/database.js';

export interface Span {
  orgId: string;
  storeId: string;
  /** Instants [start, end). */
  start: number;
  end: number;
}

/** The product's stock in the store when the span starts: the sum of the ledger's stock changes until then. */
export async function stockBefore(db: Kysely<Database>, span: Span, productId: string): Promise<number> {
  const row = await db
    .selectFrom('batch_movements')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('stock_change'), eb.lit(0)).as('n'))
    .where('org_id', '=', span.orgId)
    .where('store_id', '=', span.storeId)
    .where('product_id', '=', productId)
    .where('created_at', '<', span.start)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Ledger lines of the store in the span, with their batch, references and who; time then id order. */
export function ledgerLines(db: Kysely<Database>, span: Span) {
  return db
    .selectFrom('batch_movements as m')
    .innerJoin('batches as b', (j) => j.onRef('b.id', '=', 'm.batch_id').onRef('b.org_id', '=', 'm.org_id'))
    .innerJoin('products as p', (j) => j.onRef('p.id', '=', 'm.product_id').onRef('p.org_id', '=', 'm.org_id'))
    .leftJoin('transactions as t', (j) => j.onRef('t.id', '=', 'm.transaction_id').onRef('t.org_id', '=', 'm.org_id'))
    .leftJoin('deliveries as d', (j) => j.onRef('d.id', '=', 'm.delivery_id').onRef('d.org_id', '=', 'm.org_id'))
    .leftJoin('users as u', 'u.id', 'm.user_id')
    .selectAll('m')
    .select([
      'b.lot_number',
      'b.expiry_date',
      'b.cost_price',
      'p.name as product_name',
      'p.unit',
      'p.generic_name',
      'p.strength',
      't.receipt_number',
      'd.invoice_number',
      'u.first_name',
      'u.last_name',
    ])
    .where('m.org_id', '=', span.orgId)
    .where('m.store_id', '=', span.storeId)
    .where('m.created_at', '>=', span.start)
    .where('m.created_at', '<', span.end)
    .orderBy('m.created_at')
    .orderBy('m.id');
}

export type LedgerLine = Awaited<ReturnType<ReturnType<typeof ledgerLines>['execute']>>[number];
