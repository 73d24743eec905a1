/**
 * Whether a product has history that counts of it were kept in (issue 51: its unit is fixed from
 * then on): a sale line, a stock adjustment, a delivery line, a lot movement, or stock in a store.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';

type Moved = 'transaction_lines' | 'stock_adjustments' | 'delivery_lines' | 'batch_movements';
const MOVED: Moved[] = ['transaction_lines', 'stock_adjustments', 'delivery_lines', 'batch_movements'];

export async function productHasHistory(db: Kysely<Database>, orgId: string, productId: string): Promise<boolean> {
  const one = (table: Moved) =>
    db.selectFrom(table).select('product_id').where('org_id', '=', orgId).where('product_id', '=', productId).limit(1).executeTakeFirst();
  const stocked = db
    .selectFrom('product_stock')
    .select('product_id')
    .where('org_id', '=', orgId)
    .where('product_id', '=', productId)
    .where('qty', '<>', 0)
    .limit(1)
    .executeTakeFirst();
  const found = await Promise.all([...MOVED.map(one), stocked]);
  return found.some((row) => row !== undefined);
}
