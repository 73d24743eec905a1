import { describe, expect, it } from 'vitest';
import { type PricedProduct, priceSale } from './pricing.js';

const product = (over: Partial<PricedProduct> = {}): PricedProduct => ({
  product_id: over.product_id ?? 'p',
  name: 'Item',
  selling_price: 1000,
  wholesale_price: null,
  wholesale_min_qty: null,
  tax_rate: 1800,
  ...over,
});

describe('priceSale', () => {
  it('adds lines and leaves VAT at 0 when the store does not charge it', () => {
    const sale = priceSale({
      lines: [
        { product: product({ selling_price: 3200 }), qty: 3 },
        { product: product({ selling_price: 1550 }), qty: 1 },
      ],
      vat_enabled: false,
    });
    expect(sale).toMatchObject({ subtotal: 11150, discount: 0, tax: 0, total: 11150 });
    expect(sale.lines.map((l) => [l.unit_price, l.line_total, l.tax])).toEqual([
      [3200, 9600, 0],
      [1550, 1550, 0],
    ]);
  });

  it('computes the VAT contained in a VAT-inclusive price, half-up per line', () => {
    // 11800 cents at 18 %: 11800 × 18 / 118 = 1800 exactly; 1000 cents: 152.54… → 153.
    const sale = priceSale({
      lines: [
        { product: product({ selling_price: 11800 }), qty: 1 },
        { product: product({ selling_price: 1000 }), qty: 1 },
      ],
      vat_enabled: true,
    });
    expect(sale.lines.map((l) => l.tax)).toEqual([1800, 153]);
    expect(sale).toMatchObject({ subtotal: 12800, total: 12800, tax: 1953 });
  });

  it('rounds a discount half-up on odd cents and spreads it over lines exactly', () => {
    // 10 % of 1005 = 100.5 → 101; shares of 101 over 335 + 670: 33.67 / 67.33 → 34 / 67.
    const sale = priceSale({
      lines: [
        { product: product({ selling_price: 335 }), qty: 1 },
        { product: product({ selling_price: 670 }), qty: 1 },
      ],
      discount_bp: 1000,
      vat_enabled: false,
    });
    expect(sale).toMatchObject({ subtotal: 1005, discount: 101, total: 904 });
    expect(sale.lines.map((l) => l.discount)).toEqual([34, 67]);
  });

  it('takes VAT on each line’s net after its share of the discount', () => {
    // 20 % off 11800 (18 % VAT) and 10000 (0 %): total 17440; VAT = 11800 × 0.8 × 18/118 = 1440.
    const sale = priceSale({
      lines: [
        { product: product({ selling_price: 11800 }), qty: 1 },
        { product: product({ selling_price: 10000, tax_rate: 0 }), qty: 1 },
      ],
      discount_bp: 2000,
      vat_enabled: true,
    });
    expect(sale).toMatchObject({ subtotal: 21800, discount: 4360, total: 17440, tax: 1440 });
    expect(sale.lines.map((l) => l.tax)).toEqual([1440, 0]);
  });

  it('handles 0 % and 100 % discounts', () => {
    const none = priceSale({ lines: [{ product: product(), qty: 2 }], discount_bp: 0, vat_enabled: true });
    expect(none).toMatchObject({ subtotal: 2000, discount: 0, total: 2000, tax: 305 });
    const all = priceSale({ lines: [{ product: product(), qty: 2 }], discount_bp: 10_000, vat_enabled: true });
    expect(all).toMatchObject({ subtotal: 2000, discount: 2000, total: 0, tax: 0 });
  });

  it('mixes tax rates line by line (18 %, 16.5 %, exempt)', () => {
    const sale = priceSale({
      lines: [
        { product: product({ selling_price: 2500, tax_rate: 1800 }), qty: 2 },
        { product: product({ selling_price: 999, tax_rate: 1650 }), qty: 3 },
        { product: product({ selling_price: 4000, tax_rate: 0 }), qty: 1 },
      ],
      vat_enabled: true,
    });
    // 5000 × 18/118 = 762.71 → 763; 2997 × 16.5/116.5 = 424.47 → 424.
    expect(sale.lines.map((l) => l.tax)).toEqual([763, 424, 0]);
    expect(sale).toMatchObject({ subtotal: 11997, total: 11997, tax: 1187 });
  });

  it('applies the wholesale price from the minimum quantity, only in wholesale mode', () => {
    const sugar = product({ selling_price: 3200, wholesale_price: 2900, wholesale_min_qty: 10 });
    const retail = priceSale({ lines: [{ product: sugar, qty: 12 }], vat_enabled: false });
    expect(retail.lines[0]).toMatchObject({ unit_price: 3200, price_tier: 'retail' });
    const below = priceSale({ lines: [{ product: sugar, qty: 9 }], price_mode: 'wholesale', vat_enabled: false });
    expect(below.lines[0]).toMatchObject({ unit_price: 3200, price_tier: 'retail', line_total: 28800 });
    const at = priceSale({ lines: [{ product: sugar, qty: 10 }], price_mode: 'wholesale', vat_enabled: false });
    expect(at.lines[0]).toMatchObject({ unit_price: 2900, price_tier: 'wholesale', line_total: 29000 });
    const noWholesale = priceSale({
      lines: [{ product: product({ selling_price: 500 }), qty: 50 }],
      price_mode: 'wholesale',
      vat_enabled: false,
    });
    expect(noWholesale.lines[0]!.unit_price).toBe(500);
  });

  it('books a given unit price instead of the product’s (offline sales)', () => {
    const sale = priceSale({ lines: [{ product: product({ selling_price: 1200 }), qty: 2, unit_price: 1000 }], vat_enabled: false });
    expect(sale).toMatchObject({ subtotal: 2000, total: 2000 });
  });

  it('keeps the discount shares summing to the discount for many awkward lines', () => {
    const lines = [333, 333, 334, 1, 7, 999].map((p, i) => ({ product: product({ product_id: `p${i}`, selling_price: p }), qty: 1 }));
    const sale = priceSale({ lines, discount_bp: 1250, vat_enabled: true });
    expect(sale.lines.reduce((s, l) => s + l.discount, 0)).toBe(sale.discount);
    expect(sale.total).toBe(sale.subtotal - sale.discount);
  });

  it('refuses a quantity that is not a positive integer and a discount above 100 %', () => {
    expect(() => priceSale({ lines: [{ product: product(), qty: 0 }], vat_enabled: false })).toThrow(RangeError);
    expect(() => priceSale({ lines: [{ product: product(), qty: 1.5 }], vat_enabled: false })).toThrow(RangeError);
    expect(() => priceSale({ lines: [{ product: product(), qty: 1 }], discount_bp: 10_001, vat_enabled: false })).toThrow(RangeError);
  });
  it('prices a measured line in counts of its unit, rounded half up to the shilling once, with VAT and discount from that', () => {
    // 0.5 kg at 3,250/kg = 1,625; 0.333 kg at 1,550/kg = 516.15 → 516; 2 soaps at 1,000.50 = 2,001 exactly.
    const sugar = product({ product_id: 'sugar', selling_price: 325_000, unit: 'kg', tax_rate: 0 });
    const rice = product({ product_id: 'rice', selling_price: 155_000, unit: 'kg', tax_rate: 1800 });
    const soap = product({ product_id: 'soap', selling_price: 100_050, tax_rate: 0, unit: 'piece' });
    const sale = priceSale({
      lines: [
        { product: sugar, qty: 500 },
        { product: rice, qty: 333 },
        { product: soap, qty: 2 },
      ],
      discount_bp: 1000,
      vat_enabled: true,
    });
    expect(sale.lines.map((l) => [l.qty, l.unit, l.line_total])).toEqual([
      [500, 'kg', 162_500],
      [333, 'kg', 51_600],
      [2, 'piece', 200_100],
    ]);
    // 10 % of 4,142 = 414.20; the rice line's VAT on its net after its share: 516 × 0.9 × 18/118 = 70.84.
    expect(sale).toMatchObject({ subtotal: 414_200, discount: 41_420, total: 372_780 });
    expect(sale.lines[1]!.tax).toBe(7084);
    // A product naming no unit (a till pricing as before units) is priced by the piece and its line names none.
    expect(priceSale({ lines: [{ product: product(), qty: 2 }], vat_enabled: false }).lines[0]).not.toHaveProperty('unit');
    // The wholesale minimum is in counts too: 2.5 kg is 2,500 g.
    const bulk = product({ selling_price: 300_000, wholesale_price: 260_000, wholesale_min_qty: 2500, unit: 'kg' });
    const tier = (qty: number) => priceSale({ lines: [{ product: bulk, qty }], price_mode: 'wholesale', vat_enabled: false }).lines[0]!;
    expect([tier(2499).unit_price, tier(2500).unit_price, tier(2500).line_total]).toEqual([300_000, 260_000, 650_000]);
  });
});

describe('priceSale: shop-scale price labels (issue 51)', () => {
  it("charges the labelled part of a line the labels' printed amount and the rest at its price", () => {
    const sugar = product({ selling_price: 320_000, tax_rate: 0 });
    const sale = priceSale({ lines: [{ product: sugar, qty: 3, label: { qty: 1, amount: 170_200 } }], vat_enabled: false });
    expect(sale.lines[0]).toMatchObject({ qty: 3, unit_price: 320_000, line_total: 170_200 + 2 * 320_000 });
    expect(sale.total).toBe(810_200);
    const discounted = priceSale({
      lines: [{ product: sugar, qty: 1, label: { qty: 1, amount: 170_200 } }],
      discount_bp: 1000,
      vat_enabled: false,
    });
    expect(discounted).toMatchObject({ subtotal: 170_200, discount: 17_020, total: 153_180 });
  });
});
