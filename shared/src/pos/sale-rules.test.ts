import { describe, expect, it } from 'vitest';
import { checkCreditLimit, checkSale, type SaleCheckInput } from './sale-rules.js';

const sale = (over: Partial<SaleCheckInput> = {}): SaleCheckInput => ({
  lines: [{ index: 0, product_id: 'p1', product: { name: 'Soda', active: true } }],
  business_type: 'retail',
  price_mode: 'retail',
  discount_bp: 0,
  may_discount: false,
  payment_method: 'Cash',
  customer: 'none',
  ...over,
});

describe('checkSale', () => {
  it('finds nothing wrong with a plain cash sale', () => {
    expect(checkSale(sale())).toEqual([]);
  });

  it('refuses a product the shop does not have, even offline (no conflict), on its first line', () => {
    const lines = [
      { index: 0, product_id: 'p1', product: { name: 'Soda', active: true } },
      { index: 2, product_id: 'p9' },
    ];
    expect(checkSale(sale({ lines }))).toEqual([{ code: 'NOT_FOUND', field: 'lines.2.product_id', message: 'product not found' }]);
  });

  it('books a product taken off sale as an inactive_product conflict', () => {
    const lines = [{ index: 1, product_id: 'p2', product: { name: 'Old soap', active: false } }];
    expect(checkSale(sale({ lines }))).toEqual([
      {
        code: 'BUSINESS_RULE',
        field: 'lines.1.product_id',
        message: 'Old soap is no longer sold',
        conflict: { kind: 'inactive_product', product_id: 'p2', message: 'Old soap is no longer sold' },
      },
    ]);
  });

  it('allows wholesale prices only in wholesale and retail_wholesale shops', () => {
    expect(checkSale(sale({ price_mode: 'wholesale', business_type: 'wholesale' }))).toEqual([]);
    expect(checkSale(sale({ price_mode: 'wholesale', business_type: 'retail_wholesale' }))).toEqual([]);
    expect(checkSale(sale({ price_mode: 'wholesale', business_type: 'pharmacy' }))).toEqual([
      { code: 'BUSINESS_RULE', field: 'price_mode', message: 'wholesale prices are only for wholesale shops' },
    ]);
  });

  it('needs the discount permission for any discount, booked offline as a permission conflict', () => {
    expect(checkSale(sale({ discount_bp: 1000, may_discount: true }))).toEqual([]);
    expect(checkSale(sale({ discount_bp: 0, may_discount: false }))).toEqual([]);
    expect(checkSale(sale({ discount_bp: 1, may_discount: false }))).toEqual([
      {
        code: 'FORBIDDEN',
        field: 'discount_pct',
        message: 'you are not allowed to give discounts',
        conflict: { kind: 'permission', message: 'discount given without the discount permission' },
      },
    ]);
  });

  it('refuses an unknown customer, and a credit sale with no customer', () => {
    expect(checkSale(sale({ customer: 'not_found' }))).toEqual([
      { code: 'NOT_FOUND', field: 'customer_id', message: 'customer not found' },
    ]);
    expect(checkSale(sale({ customer: 'not_found', payment_method: 'Credit' }))).toEqual([
      { code: 'NOT_FOUND', field: 'customer_id', message: 'customer not found' },
    ]);
    expect(checkSale(sale({ payment_method: 'Credit' }))).toEqual([
      { code: 'BUSINESS_RULE', field: 'customer_id', message: 'a credit sale needs a customer' },
    ]);
    expect(checkSale(sale({ payment_method: 'Credit', customer: 'found' }))).toEqual([]);
  });

  it('lists every breach in the order a cashier hears of them', () => {
    const lines = [
      { index: 0, product_id: 'p2', product: { name: 'Old soap', active: false } },
      { index: 1, product_id: 'p9' },
    ];
    const found = checkSale(sale({ lines, price_mode: 'wholesale', discount_bp: 500, payment_method: 'Credit' }));
    expect(found.map((b) => [b.code, b.field, b.conflict?.kind ?? null])).toEqual([
      ['BUSINESS_RULE', 'lines.0.product_id', 'inactive_product'],
      ['NOT_FOUND', 'lines.1.product_id', null],
      ['BUSINESS_RULE', 'price_mode', null],
      ['FORBIDDEN', 'discount_pct', 'permission'],
      ['BUSINESS_RULE', 'customer_id', null],
    ]);
  });
});

describe('checkCreditLimit', () => {
  it('lets a credit sale reach the limit exactly, and ignores a limit of 0', () => {
    expect(checkCreditLimit({ customer_name: 'Amina', limit: 1_000_000, owed: 600_000, total: 400_000 })).toBeUndefined();
    expect(checkCreditLimit({ customer_name: 'Amina', limit: 0, owed: 9_000_000, total: 100 })).toBeUndefined();
  });

  it('refuses one cent past the limit, booked offline as a credit_limit conflict with the figures in TZS', () => {
    const message = 'credit limit exceeded: Amina owes 6000 of a 10000 limit';
    expect(checkCreditLimit({ customer_name: 'Amina', limit: 1_000_000, owed: 600_000, total: 400_001 })).toEqual({
      code: 'CREDIT_LIMIT_EXCEEDED',
      field: 'customer_id',
      message,
      conflict: { kind: 'credit_limit', message, detail: { owed: 6000, limit: 10000, sale: 4000.01 } },
    });
  });
});
