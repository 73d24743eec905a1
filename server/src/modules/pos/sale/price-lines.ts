/**
 * Stage `priceLines`: each line's price (retail, or the wholesale tier its quantity reaches), the
 * discount and the tax, by the shared `priceSale` the till prices with too. A pushed sale is priced
 * at what the till charged (`unitPrices`, reconciled by the push); a held mobile-money sale at its quote.
 * The push also judges a cash sale's tender with this stage, on the lines as the till sent them.
 */
import { type PricedSale, type PricingLine, type PriceMode, priceSale } from '@duka/shared';
import type { ProductPackRow, ProductRow } from '../../../db/tables/inventory.table.js';
import type { SaleOptions, SaleSet } from './sale-set.js';

/** A catalogue row as the shared pricing reads it: quantities (the lines', the wholesale minimum) in counts of its unit. */
const pricingOf = (p: ProductRow) => ({
  product_id: p.id,
  name: p.name,
  selling_price: p.selling_price,
  wholesale_price: p.wholesale_price,
  wholesale_min_qty: p.wholesale_min_qty,
  tax_rate: p.tax_rate,
  unit: p.unit,
});

/**
 * What pricing reads of a sale (a `SaleDraft` and its `ResolvedSale` in the pipeline), narrow so the
 * push's tender check prices the till's lines with this same stage (sync/push/services/sale-mutations.ts).
 */
export interface PricingSale {
  set: { products: Map<string, ProductRow>; store: Pick<SaleSet['store'], 'vat_enabled'> };
  request: { opts: Pick<SaleOptions, 'unitPrices' | 'packPrices'> };
}
export interface PricingLines {
  /**
   * `qty` in counts of the product's unit. A line's own `unit_price` (cents; the tender check's lines
   * as the till sent them) comes before `unitPrices`. A line sold by the pack is priced by the pack
   * (`packPrice`), `qty` then its counts; a line's price-label part is charged the labels' amount.
   */
  lines: Array<{
    product_id: string;
    qty: number;
    unit_price?: number;
    pack?: { row: Pick<ProductPackRow, 'id' | 'units' | 'selling_price'>; packs: number };
    label?: PricingLine['label'];
  }>;
  discountBp: number;
  priceMode: PriceMode;
}

export function priceLines(sale: PricingSale, resolved: PricingLines): PricedSale {
  const { set, request } = sale;
  return priceSale({
    lines: resolved.lines.map<PricingLine>((l) => {
      const p = set.products.get(l.product_id)!;
      // A till's or a quote's price per product is the loose unit's, never a pack's; a pushed pack line names its own.
      if (l.pack) {
        const { id, units, selling_price } = l.pack.row;
        const packPrice = l.unit_price ?? request.opts.packPrices?.get(id);
        return { product: pricingOf(p), qty: l.pack.packs, pack: { id, units, selling_price, unit: p.unit }, unit_price: packPrice };
      }
      const unitPrice = l.unit_price ?? request.opts.unitPrices?.get(p.id);
      return { product: pricingOf(p), qty: l.qty, unit_price: unitPrice, ...(l.label ? { label: l.label } : {}) };
    }),
    discount_bp: resolved.discountBp,
    price_mode: resolved.priceMode,
    vat_enabled: set.store.vat_enabled === 1,
  });
}
