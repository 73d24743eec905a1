/**
 * `priceLines`: prices, wholesale tiers, discount and tax, by the shared `priceSale` over the
 * replica's products, as the server prices. Quantities are counts (issue 51): a measured line is
 * priced per unit and rounded once on the line, a pack line by `packPrice` (the pack's own price,
 * else its units × the unit price), a price label's part at the label's amount. A piece product
 * names no unit, so its receipts stay as they were before units.
 */
import {
  isMeasured,
  type PricedProduct,
  type PricedSale,
  type PricingLine,
  type Product,
  priceSale,
  pricedProduct,
  toCents,
  toCount,
} from '@duka/shared';
import type { ResolvedSale } from './draft.js';

function pricedOf(p: Product): PricedProduct {
  const unit = p.unit ?? 'piece';
  if (!isMeasured(unit)) return pricedProduct(p);
  const min = p.wholesale_min_qty === null ? null : toCount(p.wholesale_min_qty, unit);
  return { ...pricedProduct(p), unit, wholesale_min_qty: min };
}

export function priceLines(sale: ResolvedSale): PricedSale {
  return priceSale({
    lines: sale.lines.map<PricingLine>((l) => {
      const p = sale.products.get(l.product_id)!;
      const product = pricedOf(p);
      if (!l.pack) return { product, qty: l.qty, ...(l.label && { label: l.label }) };
      const { id, units, selling_price } = l.pack.pack;
      const unit = p.unit ?? 'piece';
      const pack = { id, units: toCount(units, unit), selling_price: selling_price === null ? null : toCents(selling_price), unit };
      return { product, qty: l.pack.packs, pack };
    }),
    discount_bp: sale.discountBp,
    price_mode: sale.mode,
    vat_enabled: sale.shop.store.vat_enabled,
  });
}
