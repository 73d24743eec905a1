/** An exchange at the browser till (web/src/exchange.ts): the difference by the shared rules, and what `till.exchange` is handed. */
import type { Receipt } from '@duka/client-sdk';
import type { Product } from '@duka/shared';
import { describe, expect, it } from 'vitest';
import { addProduct, emptyCart } from '../src/cart.js';
import { exchangeState, giveBackChoices, startPay } from '../src/exchange.js';

const SHIRT = '00000000-0000-4000-8000-000000000001';
const SUGAR = '00000000-0000-4000-8000-000000000002';
const line = (o: Record<string, unknown>) => ({ discount: 0, tax: 0, batches: [], pack: null, unit_price: 0, ...o });
// A shirt of 20,000 and 1.25 kg of sugar at 3,250/kg (4,063), paid in cash.
const SALE = {
  id: 'sale',
  payment_method: 'Cash',
  customer_id: null,
  lines: [
    line({ product_id: SHIRT, product_name: 'Shati', qty: 1, unit: 'piece', line_total: 20000 }),
    line({ product_id: SUGAR, product_name: 'Sukari', qty: 1.25, unit: 'kg', line_total: 4063 }),
  ],
} as unknown as Receipt;
const product = (id: string, selling_price: number, over: Partial<Product> = {}): Product =>
  ({ id, name: `P ${id}`, selling_price, wholesale_price: null, wholesale_min_qty: null, tax_rate: 18, unit: 'piece', ...over }) as Product;
const DEAR = product('00000000-0000-4000-8000-000000000003', 25000);
const CHEAP = product('00000000-0000-4000-8000-000000000004', 12500);
const RICE = product('00000000-0000-4000-8000-000000000005', 3200, { unit: 'kg' });

describe('an exchange at the browser till', () => {
  it('a dearer shirt: 5,000 to pay, by M-Pesa only with its reference', () => {
    const out = addProduct(emptyCart(), DEAR);
    const back = new Map([[0, '1']]);
    const mpesa = { ...startPay(), method: 'M-Pesa' as const };
    const held = exchangeState(SALE, back, out, mpesa);
    expect([held.back.amount, held.outTotal, held.difference, held.fault, held.input]).toEqual([
      2_000_000,
      2_500_000,
      500_000,
      'reference',
      null,
    ]);
    expect(exchangeState(SALE, back, out, { ...mpesa, reference: ' QK7EXCH50 ' }).input).toEqual({
      back: [{ product_id: SHIRT, qty: 1 }],
      out: [{ product_id: DEAR.id, qty: 1 }],
      payment_method: 'M-Pesa',
      payment_reference: 'QK7EXCH50',
    });
    expect(exchangeState(SALE, back, out, startPay()).input).toMatchObject({ payment_method: 'Cash' });
  });

  it('split: the parts must pay the difference, not the whole of the items out', () => {
    const out = addProduct(emptyCart(), DEAR);
    const parts = [
      { method: 'Cash' as const, amount: '2,000', reference: '' },
      { method: 'M-Pesa' as const, amount: '3000', reference: 'QK7' },
    ];
    const pay = { ...startPay(), method: 'split' as const, parts };
    expect(exchangeState(SALE, new Map([[0, '1']]), out, pay).input?.payments).toEqual([
      { method: 'Cash', amount: 2000 },
      { method: 'M-Pesa', amount: 3000, reference: 'QK7' },
    ]);
    const short = { ...pay, parts: [{ ...parts[0]!, amount: '1000' }, parts[1]!] };
    expect(exchangeState(SALE, new Map([[0, '1']]), out, short).fault).toBe('split');
  });

  it('a cheaper shirt: 7,500 given back by the method chosen; weighed sugar back with decimals by the shared refundShare', () => {
    const cheap = exchangeState(SALE, new Map([[0, '1']]), addProduct(emptyCart(), CHEAP), startPay());
    expect([cheap.difference, cheap.input]).toEqual([
      -750_000,
      { back: [{ product_id: SHIRT, qty: 1 }], out: [{ product_id: CHEAP.id, qty: 1 }], give_back: 'Cash' },
    ]);
    // 0.25 kg of the 1.25 kg line is 813 back (4,063 × 0.25 / 1.25, to the shilling); 0.3 kg of rice out is 960.
    const sugar = exchangeState(SALE, new Map([[1, '0,25']]), addProduct(emptyCart(), RICE, 0.3), startPay());
    expect([sugar.back.amount, sugar.outTotal, sugar.difference]).toEqual([81_300, 96_000, 14_700]);
  });

  it('waits for what comes back, within what is left, and for what goes out', () => {
    const out = addProduct(emptyCart(), DEAR);
    expect(exchangeState(SALE, new Map(), out, startPay()).fault).toBe('back');
    expect(exchangeState(SALE, new Map([[0, '2']]), out, startPay()).fault).toBe('back');
    expect(exchangeState(SALE, new Map([[0, '1']]), emptyCart(), startPay()).fault).toBe('out');
  });

  it('gives back by the methods the sale was paid by, cash always, and off the tab of a customer’s sale', () => {
    expect(giveBackChoices(SALE)).toEqual(['Cash']);
    const split = { ...SALE, payment_method: 'Mixed', payments: [{ method: 'M-Pesa' }, { method: 'Credit' }] } as unknown as Receipt;
    expect(giveBackChoices(split)).toEqual(['Cash', 'M-Pesa']);
    // A customer's sale: the difference may pay off what they owe.
    expect(giveBackChoices({ ...SALE, customer_id: '0f3c2b1a-9e8d-4c7b-a6f5-e4d3c2b1a090' } as Receipt)).toEqual(['Cash', 'tab']);
  });
});
