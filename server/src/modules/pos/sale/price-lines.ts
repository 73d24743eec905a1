/**
 * Stage `priceLines`: each line's price (retail, or the wholesale tier its quantity reaches), the
 * discount and the tax, by the shared `priceSale` the till prices with too. A pushed sale is priced
 * at what the till charged (`unitPrices`, reconciled by the push); a held mobile-money sale at its quote.
 */
import { type PricedSale, type PricingLine, priceSale } from '@duka/shared';
import type { ProductRow } from '../../../db/tables/inventory.table.js';
import type { ResolvedSale } from './resolve-lines.js';
import type { SaleDraft } from './sale-plan.js';

/** A catalogue row as the shared pricing reads it: the push's tender check prices with it too. */
export const pricingOf = (p: ProductRow) => ({
  product_id: p.id,
  name: p.name,
  selling_price: p.selling_price,
  wholesale_price: p.wholesale_price,
  wholesale_min_qty: p.wholesale_min_qty,
  tax_rate: p.tax_rate,
});

export function priceLines(sale: SaleDraft, resolved: ResolvedSale): PricedSale {
  const { set, request } = sale;
  return priceSale({
    lines: resolved.lines.map<PricingLine>((l) => {
      const p = set.products.get(l.product_id)!;
      return { product: pricingOf(p), qty: l.qty, unit_price: request.opts.unitPrices?.get(p.id) };
    }),
    discount_bp: resolved.discountBp,
    price_mode: resolved.priceMode,
    vat_enabled: set.store.vat_enabled === 1,
  });
}
