/**
 * A sale's lots (issue 39): the ledger's dispensing lines, which name the sale and keep the lot as
 * sold; read by receipts, refunds and voids, the prescription register and the sync pull.
 */
import type { ExpressionBuilder, Kysely } from 'kysely';
import type { Database } from '../../../db/database.js';

/** A lot a sale line took units from, as sold. */
export interface SaleLot {
  transaction_id: string;
  product_id: string;
  batch_id: string;
  lot_number: string;
  expiry_date: string;
  qty: number;
}

/** A dispensing line of the ledger as a sale's lot: the sale names it, `-qty` the units taken. */
const dispensingLines = (db: Kysely<Database>) => db.selectFrom('batch_movements as m').where('m.kind', '=', 'dispensed');

/**
 * Whether the outer query's sale (`transactions`) took units from any lot: a flag a reader of many
 * sales selects with them, so `dispensedLots` runs only for the sales that did (a plain shop's never).
 */
export const saleTookLots = (eb: ExpressionBuilder<Database, 'transactions'>) =>
  eb
    .exists(
      eb
        .selectFrom('batch_movements as m')
        .select('m.id')
        .whereRef('m.org_id', '=', 'transactions.org_id')
        .whereRef('m.transaction_id', '=', 'transactions.id')
        .where('m.kind', '=', 'dispensed'),
    )
    .as('took_lots');

/**
 * The lots these sales took their units from, as sold (number and expiry then), in the order they
 * were taken: what receipts, prescriptions and the sync pull print per line.
 */
export async function dispensedLots(db: Kysely<Database>, orgIds: string[], saleIds: string[]): Promise<SaleLot[]> {
  const rows = await dispensingLines(db)
    .select(['m.transaction_id', 'm.product_id', 'm.batch_id', 'm.lot_number', 'm.expiry_date', 'm.qty'])
    .where('m.org_id', 'in', orgIds)
    .where('m.transaction_id', 'in', saleIds)
    .orderBy('m.id')
    .execute();
  return rows.map((r) => ({
    transaction_id: r.transaction_id!,
    product_id: r.product_id,
    batch_id: r.batch_id,
    lot_number: r.lot_number!,
    expiry_date: r.expiry_date!,
    qty: -Number(r.qty),
  }));
}

/** The batches a sale took its units from, each with the units taken and its product's name; by product, then as taken. */
export function saleLots(db: Kysely<Database>, sale: { id: string; org_id: string }) {
  return dispensingLines(db)
    .innerJoin('batches as b', (j) => j.onRef('b.id', '=', 'm.batch_id').onRef('b.org_id', '=', 'm.org_id'))
    .innerJoin('products as p', (j) => j.onRef('p.id', '=', 'm.product_id').onRef('p.org_id', '=', 'm.org_id'))
    .selectAll('b')
    .select((eb) => [eb.neg(eb.ref('m.qty')).as('line_qty'), 'p.name as product_name'])
    .where('m.org_id', '=', sale.org_id)
    .where('m.transaction_id', '=', sale.id)
    .orderBy('m.product_id')
    .orderBy('m.id')
    .execute();
}
