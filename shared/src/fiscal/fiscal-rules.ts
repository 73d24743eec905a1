/**
 * The fiscal rules both sides apply: which TRA tax code a product's lines carry, and how a sale's
 * payment method is reported to TRA. Pure functions; the server builds receipts with them and the
 * till can show the code on a product.
 */
import type { PaymentMethod } from '../payment-methods.js';
import type { TaxCode, TraPaymentType } from './fiscal.schemas.js';

/**
 * A product's own `tax_code` when set; otherwise standard VAT (`A`) when the store charges VAT and
 * the product's price contains some, and zero-rated (`C`, TRA's code for non-taxable lines of a
 * non-VAT taxpayer) when it does not. A store that charges no VAT puts none in its lines, so its
 * `A` products are reported as `C`: the receipt says what the sale charged.
 */
export function taxCodeOf(product: { tax_code: TaxCode | null; tax_rate_bp: number }, storeVat: boolean): TaxCode {
  if (product.tax_code === 'A' && !storeVat) return 'C';
  if (product.tax_code) return product.tax_code;
  return storeVat && product.tax_rate_bp > 0 ? 'A' : 'C';
}

/** TRA's rate for each code, in basis points: only `A` carries VAT. */
export const TAX_CODE_RATE_BP: Record<TaxCode, number> = { A: 1800, B: 0, C: 0, D: 0, E: 0 };

/**
 * A product's tax code must agree with the VAT its price contains: `A` means 18 % and every other
 * code 0 %. Returns the problem, or undefined.
 */
export function checkTaxCode(taxCode: TaxCode | null, taxRateBp: number): string | undefined {
  if (taxCode === null) return undefined;
  const rate = TAX_CODE_RATE_BP[taxCode];
  if (rate === taxRateBp) return undefined;
  return `tax_code ${taxCode} needs tax_rate ${rate / 100} (the product has ${taxRateBp / 100})`;
}

/** Mobile money is EMONEY, a bank payment CCARD, a sale on the customer's tab INVOICE. */
export const TRA_PAYMENT_TYPE: Record<PaymentMethod, TraPaymentType> = {
  Cash: 'CASH',
  'M-Pesa': 'EMONEY',
  'Tigo Pesa': 'EMONEY',
  'Airtel Money': 'EMONEY',
  Bank: 'CCARD',
  Credit: 'INVOICE',
};

/** The wire's `TAXCODE`: A = 1 … E = 5. */
export const taxCodeNumber = (code: TaxCode): number => 'ABCDE'.indexOf(code) + 1;
