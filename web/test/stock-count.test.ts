/** Counting a stock-take at the browser till (web/src/stock-count.ts): typed counts and the rows shown. */
import type { Product } from '@duka/shared';
import { describe, expect, it } from 'vitest';
import { countedHere, countQty, countRows } from '../src/stock-count.js';

const product = (id: string, name: string, unit: Product['unit'] = 'piece', sku: string | null = null) =>
  ({ id, name, unit, sku }) as Product;
const SODA = product('p-soda', 'Soda 500ml', 'piece', 'SODA-500');
const RICE = product('p-rice', 'Mchele', 'kg', 'MCHELE-KG');
const UNGA = product('p-unga', 'Unga 2kg');
const OTHER = product('p-other', 'Sabuni');
const TAKE = { product_ids: [SODA.id, RICE.id, UNGA.id] };

describe('counting a stock-take at the browser till', () => {
  it('takes a typed count in the product’s unit: whole pieces, kilos to the gram, 0 for an empty shelf', () => {
    expect(countQty('7', 'piece')).toBe(7);
    expect(countQty(' 0 ', 'piece')).toBe(0);
    expect(countQty('2.375', 'kg')).toBe(2.375);
    expect(countQty('2,375', 'kg')).toBe(2.375);
    expect(countQty('1000000', 'kg')).toBe(1_000_000);
    for (const [typed, unit] of [
      ['1.5', 'piece'],
      ['2.3755', 'kg'],
      ['-1', 'piece'],
      ['', 'kg'],
      ['abc', 'piece'],
      ['1e3', 'piece'],
      ['1000000.001', 'kg'],
      ['0x10', 'piece'],
    ] as const)
      expect([typed, countQty(typed, unit)]).toEqual([typed, null]);
  });

  it('lists the stock-take’s products matching the search, those counted here first, with what this till counted', () => {
    const totals = { [RICE.id]: 2.375 };
    const products = [OTHER, SODA, null, RICE, UNGA];
    expect(countRows(TAKE, products, totals, '')).toEqual([
      { id: RICE.id, name: 'Mchele', unit: 'kg', decimals: true, here: 2.375 },
      { id: SODA.id, name: 'Soda 500ml', unit: 'piece', decimals: false, here: null },
      { id: UNGA.id, name: 'Unga 2kg', unit: 'piece', decimals: false, here: null },
    ]);
    // By name or SKU, any case; a product outside the stock-take never shows.
    expect(countRows(TAKE, products, totals, 'soda-').map((r) => r.id)).toEqual([SODA.id]);
    expect(countRows(TAKE, products, totals, 'SAB')).toEqual([]);
    expect(countRows(TAKE, products, { [SODA.id]: 0 }, 'a', 1)).toEqual([
      { id: SODA.id, name: 'Soda 500ml', unit: 'piece', decimals: false, here: 0 },
    ]);
  });

  it('says how many of the stock-take’s products this till counted (an empty shelf counts)', () => {
    expect(countedHere(TAKE, {})).toBe(0);
    expect(countedHere(TAKE, { [SODA.id]: 0, [RICE.id]: 1.5, [OTHER.id]: 3 })).toBe(2);
  });
});
