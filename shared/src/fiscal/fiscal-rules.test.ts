import { describe, expect, it } from 'vitest';
import { checkTaxCode, TRA_PAYMENT_TYPE, taxCodeNumber, taxCodeOf } from './fiscal-rules.js';
import { PaymentMethod } from '../payment-methods.js';

describe('fiscal rules', () => {
  it("picks a product's TRA tax code: its own, else A with VAT and C without; never A in a store that charges none", () => {
    expect(taxCodeOf({ tax_code: null, tax_rate_bp: 1800 }, true)).toBe('A');
    expect(taxCodeOf({ tax_code: null, tax_rate_bp: 0 }, true)).toBe('C');
    expect(taxCodeOf({ tax_code: null, tax_rate_bp: 1800 }, false)).toBe('C');
    expect(taxCodeOf({ tax_code: 'E', tax_rate_bp: 0 }, true)).toBe('E');
    expect(taxCodeOf({ tax_code: 'D', tax_rate_bp: 0 }, false)).toBe('D');
    expect(taxCodeOf({ tax_code: 'A', tax_rate_bp: 1800 }, false)).toBe('C');
  });

  it('holds a tax code to the VAT the price contains', () => {
    expect(checkTaxCode('A', 1800)).toBeUndefined();
    expect(checkTaxCode('A', 0)).toBe('tax_code A needs tax_rate 18 (the product has 0)');
    expect(checkTaxCode('E', 1800)).toBe('tax_code E needs tax_rate 0 (the product has 18)');
    expect(checkTaxCode(null, 1000)).toBeUndefined();
  });

  it('maps every payment method to a TRA payment type, and codes to their wire numbers', () => {
    expect(PaymentMethod.options.map((m) => TRA_PAYMENT_TYPE[m])).toEqual(['CASH', 'EMONEY', 'EMONEY', 'EMONEY', 'CCARD', 'INVOICE']);
    expect((['A', 'B', 'C', 'D', 'E'] as const).map(taxCodeNumber)).toEqual([1, 2, 3, 4, 5]);
  });
});
