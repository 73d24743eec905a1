import { describe, expect, it } from 'vitest';
import { mergeSaleLines, priceSale } from '../pricing.js';
import { packBreakdown, packBreakdownText, packPrice, stockInPacks } from './packs.js';

const soda = { product_id: 'soda', name: 'Soda', selling_price: 100000, wholesale_price: 90000, wholesale_min_qty: 48, tax_rate: 0 };

describe('packBreakdown', () => {
  const carton = [{ name: 'Carton', units: 24 }];
  const tablets = [
    { name: 'Strip', units: 10 },
    { name: 'Box', units: 100 },
  ];
  it('shows a level in packs, largest first, then the loose rest', () => {
    expect(packBreakdownText(packBreakdown(77, carton))).toBe('3 × Carton + 5');
    expect(packBreakdownText(packBreakdown(124, tablets))).toBe('1 × Box + 2 × Strip + 4');
    expect(packBreakdown(48, carton)).toEqual([{ name: 'Carton', qty: 2 }]);
    expect(packBreakdown(20, carton)).toEqual([{ name: null, qty: 20 }]);
  });
  it('shows nothing, below zero and no packs as the loose level alone', () => {
    expect(packBreakdown(0, carton)).toEqual([{ name: null, qty: 0 }]);
    expect(packBreakdown(-30, carton)).toEqual([{ name: null, qty: -30 }]);
    expect(packBreakdown(30, [])).toEqual([{ name: null, qty: 30 }]);
  });
  it('shows a measured rest in its unit', () => {
    expect(packBreakdownText(packBreakdown(51_500, [{ name: 'Sack', units: 25_000 }], 'kg'), 'kg')).toBe('2 × Sack + 1.5 kg');
  });
});

describe('stockInPacks: a product’s stock as the shop counts it', () => {
  const safari = { unit: 'piece' as const, packs: [{ name: 'Crate of 24', units: 24 }] };
  const rice = { unit: 'kg' as const, packs: [{ name: 'Sack 25 kg', units: 25 }] };
  const tablets = {
    unit: 'piece' as const,
    packs: [
      { name: 'Strip', units: 10 },
      { name: 'Box', units: 100 },
    ],
  };
  it('says every pack that fits, largest first, by the shop’s name, then the loose rest', () => {
    expect(stockInPacks({ ...safari, stock: 77 })).toBe('3 × Crate of 24 + 5');
    expect(stockInPacks({ ...safari, stock: 53 })).toBe('2 × Crate of 24 + 5');
    expect(stockInPacks({ ...safari, stock: 48 })).toBe('2 × Crate of 24');
    expect(stockInPacks({ ...tablets, stock: 115 })).toBe('1 × Box + 1 × Strip + 5');
    expect(stockInPacks({ ...tablets, stock: 1000 })).toBe('10 × Box');
  });
  it('says a level under one pack, nothing or below zero plainly', () => {
    expect(stockInPacks({ ...safari, stock: 20 })).toBe('20');
    expect(stockInPacks({ ...safari, stock: 0 })).toBe('0');
    expect(stockInPacks({ ...safari, stock: -30 })).toBe('-30');
    expect(stockInPacks({ ...rice, stock: 0 })).toBe('0 kg');
    expect(stockInPacks({ ...rice, stock: -2.5 })).toBe('-2.5 kg');
  });
  it('says a measured product’s packs and its rest in its unit, to the gram', () => {
    expect(stockInPacks({ ...rice, stock: 60.5 })).toBe('2 × Sack 25 kg + 10.5 kg');
    expect(stockInPacks({ ...rice, stock: 50.001 })).toBe('2 × Sack 25 kg + 0.001 kg');
    expect(stockInPacks({ ...rice, stock: 24.999 })).toBe('24.999 kg');
    expect(stockInPacks({ unit: 'l', packs: [{ name: 'Jerrycan', units: 20 }], stock: 1_000_000 })).toBe('50000 × Jerrycan');
  });
  it('is null for a product without packs, and for a service', () => {
    expect(stockInPacks({ unit: 'piece', packs: [], stock: 77 })).toBeNull();
    expect(stockInPacks({ unit: 'piece', stock: 77 })).toBeNull();
    expect(stockInPacks({ ...safari, stock: 0, is_service: true })).toBeNull();
  });
});

describe('pack pricing', () => {
  it('is the pack’s own price, or its units × the unit price (to the shilling when measured)', () => {
    expect(packPrice({ id: 'c', units: 24, selling_price: 2200000 }, 100000, 'piece')).toBe(2200000);
    expect(packPrice({ id: 'h', units: 12, selling_price: null }, 100000, 'piece')).toBe(1200000);
    // 25 kg at 1,550.55 a kg = 38,763.75 → 38,764.
    expect(packPrice({ id: 's', units: 25_000, selling_price: null }, 155055, 'kg')).toBe(3876400);
  });
  it('prices a pack line in priceSale: qty packs, the line’s qty in counts, its unit price one pack’s', () => {
    const sale = priceSale({
      lines: [
        { product: soda, qty: 2, pack: { id: 'c', units: 24, selling_price: 2200000, unit: 'piece' } },
        { product: soda, qty: 1, pack: { id: 'h', units: 12, selling_price: null, unit: 'piece' } },
        { product: soda, qty: 3 },
      ],
      vat_enabled: false,
    });
    expect(sale.lines.map((l) => [l.qty, l.unit_price, l.line_total, l.pack])).toEqual([
      [48, 2200000, 4400000, { id: 'c', qty: 2 }],
      [12, 1200000, 1200000, { id: 'h', qty: 1 }],
      [3, 100000, 300000, undefined],
    ]);
    expect(sale.total).toBe(5900000);
  });
  it('gives a pack without a price the wholesale tier its units reach', () => {
    const sale = priceSale({
      lines: [{ product: soda, qty: 4, pack: { id: 'h', units: 12, selling_price: null, unit: 'piece' } }],
      price_mode: 'wholesale',
      vat_enabled: false,
    });
    expect(sale.lines.map((l) => [l.unit_price, l.line_total, l.price_tier])).toEqual([[1080000, 4320000, 'wholesale']]);
  });
});

describe('mergeSaleLines with packs', () => {
  it('merges lines of one pack, and keeps a pack and loose pieces of one product apart', () => {
    expect(
      mergeSaleLines([
        { product_id: 'soda', qty: 1, pack_id: 'c' },
        { product_id: 'soda', qty: 3 },
        { product_id: 'soda', qty: 1, pack_id: 'c' },
        { product_id: 'soda', qty: 2 },
      ]),
    ).toEqual([
      { product_id: 'soda', qty: 2, index: 0, pack_id: 'c' },
      { product_id: 'soda', qty: 5, index: 1 },
    ]);
  });
});
