/**
 * Price history: one row each time a product's prices or tax rate change. Sync reconciliation
 * prices an offline sale at the row in force at the moment of the sale (`priceAt`).
 */
import { newId } from '@duka/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/database.js';
import type { ServiceContext } from '../../../lib/context.js';
import type { ProductRow } from '../inventory.table.js';

export async function recordPrice(ctx: ServiceContext, p: ProductRow): Promise<void> {
  await ctx.db
    .insertInto('product_prices')
    .values({
      id: newId(),
      org_id: p.org_id,
      product_id: p.id,
      selling_price: p.selling_price,
      wholesale_price: p.wholesale_price,
      cost_price: p.cost_price,
      tax_rate: p.tax_rate,
      effective_from: ctx.clock.now(),
      changed_by: ctx.actor?.userId ?? null,
    })
    .execute();
}

/** The prices in force at `at` (epoch ms), or undefined before the product existed. */
export function priceAt(db: Kysely<Database>, productId: string, at: number) {
  return db
    .selectFrom('product_prices')
    .selectAll()
    .where('product_id', '=', productId)
    .where('effective_from', '<=', at)
    .orderBy('effective_from', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}
