/** `priceLines`: prices, wholesale tiers, discount and tax, by the shared `priceSale` over the replica's products. */
import { type PricedSale, priceSale, pricedProduct } from '@duka/shared';
import type { ResolvedSale } from './draft.js';

export function priceLines(sale: ResolvedSale): PricedSale {
  return priceSale({
    lines: sale.lines.map((l) => ({ product: pricedProduct(sale.products.get(l.product_id)!), qty: l.qty })),
    discount_bp: sale.discountBp,
    price_mode: sale.mode,
    vat_enabled: sale.shop.store.vat_enabled,
  });
}
