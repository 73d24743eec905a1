/**
 * Price history: one row each time a product's prices or tax rate change. Sync reconciliation
 * prices an offline sale at the row in force at the moment of the sale (sync/push/services/reconcile.ts).
 */
import { newId } from '@duka/shared';
import type { ServiceContext } from '../../../lib/context.js';
import type { ProductRow } from '../../../db/tables/inventory.table.js';

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
