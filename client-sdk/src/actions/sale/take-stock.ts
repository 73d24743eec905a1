/**
 * `takeStock`: the counts each product's level falls by (a service takes none; a product sold both
 * by the pack and loose takes the two together, issue 51), and the lots a batch-tracked line takes
 * them from, by the shop type's policy (FEFO, per base unit). Planned here, moved by `writeSale`
 * with the sale: a till may oversell plain stock, as the server books it offline.
 */
import type { PricedSale } from '@duka/shared';
import type { LocalTrx } from '../../local/db.js';
import type { ResolvedSale, TakenStock } from './draft.js';
import type { SalePolicy } from './policy.js';

export async function takeStock(trx: LocalTrx, sale: ResolvedSale, priced: PricedSale, policy: SalePolicy): Promise<TakenStock> {
  const lots = await policy.takeLots(trx, sale);
  const stock: Record<string, number> = {};
  for (const l of priced.lines) {
    if (!sale.products.get(l.product_id)!.is_service) stock[l.product_id] = (stock[l.product_id] ?? 0) + l.qty;
  }
  return { stock, lots };
}
