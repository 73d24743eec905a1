/**
 * A sale's totals (design brief §3), the one implementation the server and every till use, so the
 * two can only disagree when their prices differ. All amounts are integer cents, percentages
 * integer basis points (1800 = 18 %).
 *
 * line_total = qty × unit_price (`lineAmount`: exact for a piece line; a measured line, whose qty is
 * counted in thousandths of its unit, rounded half up to the whole shilling once); subtotal = Σ line_total;
 * discount = round(subtotal × discount_pct / 100); total = subtotal − discount;
 * prices are VAT-inclusive, so tax is the VAT contained in total: per line, its net after its pro
 * rata share of the discount × rate / (100 + rate), rounded half-up to the cent; 0 when the store
 * does not charge VAT. Rounding uses exact rational arithmetic (BigInt), never floating point.
 */

import type { Product } from './inventory/inventory.schemas.js';
import { type PricedPack, packPrice } from './inventory/packs.js';
import { lineAmount, type Unit } from './inventory/units.js';
import { toBasisPoints, toCents } from './money.js';
import type { PriceMode } from './pos/pos.schemas.js';

export interface PricedProduct {
  product_id: string;
  name: string;
  /** Retail shelf price, cents. */
  selling_price: number;
  /** Price from `wholesale_min_qty` in wholesale mode, cents. */
  wholesale_price: number | null;
  /** In counts, as the line's `qty`. */
  wholesale_min_qty: number | null;
  /** What one of the product is (issue 51); absent: `piece`. */
  unit?: Unit;
  /** VAT rate in basis points. */
  tax_rate: number;
}

export interface PricingLine {
  product: PricedProduct;
  /** A positive integer count: a piece product's pieces, a measured one's thousandths (`toCount`). */
  qty: number;
  /** Overrides the price the product would get (a till's offline price). Cents. */
  unit_price?: number;
  /**
   * Sold by the pack (issue 51): `qty` counts packs, the line's qty is packs × `units` counts, and
   * `unit_price` is one pack's (`packPrice`: its own, or units × the unit price of `unit`).
   */
  pack?: PricedPack & { unit: Unit };
  /**
   * The part of `qty` sold by shop-scale price labels (issue 51, inventory/scale-barcode.ts): charged
   * the labels' printed `amount` (cents), not its unit price; the rest of the line as usual.
   */
  label?: { qty: number; amount: number };
}

export interface PricedLine {
  product_id: string;
  product_name: string;
  /** In counts, as priced. */
  qty: number;
  /** The product's, when its `PricedProduct` named one (a till pricing whole units as before names none). */
  unit?: Unit;
  unit_price: number;
  line_total: number;
  /** This line's share of the sale discount; the shares add up to the discount exactly. */
  discount: number;
  tax_rate: number;
  tax: number;
  price_tier: PriceMode;
  /** A pack line: which pack and how many; `qty` is then its counts and `unit_price` one pack's price. */
  pack?: { id: string; qty: number };
}

export interface PricedSale {
  lines: PricedLine[];
  subtotal: number;
  discount: number;
  tax: number;
  total: number;
}

export interface PriceSaleInput {
  lines: PricingLine[];
  /** Discount in basis points of the subtotal (0-10000). */
  discount_bp?: number;
  price_mode?: PriceMode;
  vat_enabled: boolean;
}

/**
 * A product as the API answers it (TZS, percent) in the pricing function's units (cents, basis
 * points). It carries no `unit`, so the quantities priced with it are the API's own (a till that
 * sells whole units prices as it always has); a till pricing a measured product sets `unit` and
 * passes counts (`toCount`), as the server does.
 */
export const pricedProduct = (
  p: Pick<Product, 'id' | 'name' | 'selling_price' | 'wholesale_price' | 'wholesale_min_qty' | 'tax_rate'>,
): PricedProduct => ({
  product_id: p.id,
  name: p.name,
  selling_price: toCents(p.selling_price),
  wholesale_price: p.wholesale_price === null ? null : toCents(p.wholesale_price),
  wholesale_min_qty: p.wholesale_min_qty,
  tax_rate: toBasisPoints(p.tax_rate),
});

/** num / den rounded half-up (both non-negative). */
function roundHalfUp(num: bigint, den: bigint): number {
  return Number((2n * num + den) / (2n * den));
}

/** The unit price a line gets: wholesale price from its minimum quantity in wholesale mode. */
export function unitPriceFor(product: PricedProduct, qty: number, mode: PriceMode): { price: number; tier: PriceMode } {
  const wholesale = mode === 'wholesale' && product.wholesale_price != null && qty >= (product.wholesale_min_qty ?? 1);
  return wholesale ? { price: product.wholesale_price!, tier: 'wholesale' } : { price: product.selling_price, tier: 'retail' };
}

/**
 * One pack's price on a line of `line.qty` packs: the till's (`unit_price`), else the pack's own,
 * else its units at the unit price the line's units reach (the wholesale tier counts them all).
 */
function packPriceFor(line: PricingLine, pack: NonNullable<PricingLine['pack']>, mode: PriceMode): { price: number; tier: PriceMode } {
  if (line.unit_price !== undefined) return { price: line.unit_price, tier: 'retail' };
  if (pack.selling_price !== null) return { price: pack.selling_price, tier: 'retail' };
  const { price, tier } = unitPriceFor(line.product, line.qty * pack.units, mode);
  return { price: packPrice(pack, price, pack.unit), tier };
}

/**
 * A line's amount, cents: a pack is whole and priced as a pack; a price label's part is the printed
 * amount; the rest of a measured product's line is rounded once, half up to the shilling (units.ts).
 */
function lineTotalOf(l: PricingLine, price: number): number {
  if (l.pack) return price * l.qty;
  const unit = l.product.unit ?? 'piece';
  return l.label ? l.label.amount + lineAmount(price, l.qty - l.label.qty, unit) : lineAmount(price, l.qty, unit);
}

export function priceSale(input: PriceSaleInput): PricedSale {
  const mode = input.price_mode ?? 'retail';
  const bp = BigInt(input.discount_bp ?? 0);
  if (bp < 0n || bp > 10_000n) throw new RangeError('discount must be between 0 and 100 %');
  const base = input.lines.map((l) => {
    if (!Number.isInteger(l.qty) || l.qty <= 0) throw new RangeError('qty must be a positive integer');
    const { price, tier } = l.pack
      ? packPriceFor(l, l.pack, mode)
      : l.unit_price === undefined
        ? unitPriceFor(l.product, l.qty, mode)
        : { price: l.unit_price, tier: 'retail' as PriceMode };
    return { l, price, tier, lineTotal: lineTotalOf(l, price) };
  });
  const subtotal = base.reduce((s, b) => s + b.lineTotal, 0);
  const discount = roundHalfUp(BigInt(subtotal) * bp, 10_000n);
  const total = subtotal - discount;

  // Discount shares by largest remainder, so that they add up to the discount to the cent.
  const S = BigInt(subtotal || 1);
  const exact = base.map((b) => BigInt(b.lineTotal) * BigInt(discount));
  const shares = exact.map((e) => Number(e / S));
  let left = discount - shares.reduce((s, x) => s + x, 0);
  const order = exact.map((e, i) => ({ i, rem: e % S })).sort((a, b) => (b.rem > a.rem ? 1 : b.rem < a.rem ? -1 : a.i - b.i));
  for (const { i } of order) {
    if (left <= 0) break;
    shares[i]!++;
    left--;
  }

  const lines: PricedLine[] = base.map((b, i) => {
    const rate = BigInt(b.l.product.tax_rate);
    // VAT in the line's unrounded net: lineTotal × (S − D) / S × rate / (10000 + rate).
    const tax =
      input.vat_enabled && rate > 0n && subtotal > 0
        ? roundHalfUp(BigInt(b.lineTotal) * BigInt(total) * rate, BigInt(subtotal) * (10_000n + rate))
        : 0;
    return {
      product_id: b.l.product.product_id,
      product_name: b.l.product.name,
      qty: b.l.pack ? b.l.qty * b.l.pack.units : b.l.qty,
      ...(b.l.product.unit === undefined ? {} : { unit: b.l.product.unit }),
      unit_price: b.price,
      line_total: b.lineTotal,
      discount: shares[i]!,
      tax_rate: b.l.product.tax_rate,
      tax,
      price_tier: b.tier,
      ...(b.l.pack && { pack: { id: b.l.pack.id, qty: b.l.qty } }),
    };
  });
  return { lines, subtotal, discount, tax: lines.reduce((s, l) => s + l.tax, 0), total };
}

/**
 * Lines of one product become one line with the summed quantity, keeping the first line's position
 * (`index`, to name it in errors). The server and every till merge the same way; the server sums
 * counts (integers), never decimal quantities. A line sold by the
 * pack merges only with lines of the same pack (packs add up, each priced as the pack): a carton and
 * three loose pieces of a soda stay two lines, each priced its own way, and take stock together.
 */
export function mergeSaleLines<L extends { product_id: string; qty: number; pack_id?: string }>(
  lines: L[],
): Array<{ product_id: string; qty: number; index: number; pack_id?: string }> {
  const merged = new Map<string, { product_id: string; qty: number; index: number; pack_id?: string }>();
  lines.forEach((l, index) => {
    const key = l.pack_id ? `${l.product_id}/${l.pack_id}` : l.product_id;
    const seen = merged.get(key);
    if (seen) seen.qty += l.qty;
    else merged.set(key, { product_id: l.product_id, qty: l.qty, index, ...(l.pack_id && { pack_id: l.pack_id }) });
  });
  return [...merged.values()];
}
