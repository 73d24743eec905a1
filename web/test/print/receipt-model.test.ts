/** The receipt model (web/src/print/receipt-model.ts): what the paper says, from the till's sale and shop. */
import { describe, expect, it } from 'vitest';
import { cashierName, paymentCheck, receiptModel, shopDate } from '../../src/print/receipt-model.js';
import { FISCAL_SALE, OFFLINE_CASH_SALE, OFFLINE_MOBILE_SALE, SHOP, STORE } from './receipt-fixtures.js';

const ctx = { shop: SHOP, store: STORE, cashier: 'Amina Juma', zone: 'Africa/Dar_es_Salaam' };

describe('the receipt model', () => {
  it('carries an offline sale’s temporary number, its lines and totals in cents, and the cash tendered and change', () => {
    const m = receiptModel(OFFLINE_CASH_SALE, ctx);
    expect(m).toMatchObject({
      number: 'MAD-T1-5',
      provisional: true,
      tillNumber: null,
      date: '27/11/2026 14:05',
      cashier: 'Amina Juma',
      subtotal: 1_740_000,
      discount: 87_000,
      discountPct: 5,
      tax: 252_153,
      total: 1_653_000,
      payment: { method: 'Cash', reference: null, phone: null, check: null },
      tendered: 2_000_000,
      change: 347_000,
      customer: null,
      fiscal: null,
    });
    expect(m.lines[1]).toEqual({ name: 'Mafuta ya Kupikia Korie Alizeti 1 Lita', qty: 1, unitPrice: 650_000, total: 650_000 });
  });

  it('takes the server’s number once the sale has synced and keeps the till’s beside it; TRA’s block in EAT', () => {
    const m = receiptModel(FISCAL_SALE, ctx);
    expect([m.number, m.provisional, m.tillNumber]).toEqual(['MAD-000006', false, 'MAD-T1-6']);
    expect(m.fiscal).toEqual({
      rctvnum: '8AD1E316',
      date: '2026-11-27',
      time: '14:07:09',
      znum: '20261127',
      dc: 2,
      gc: 6,
      verifyUrl: 'https://virtual.tra.go.tz/efdmsRctVerify/8AD1E316_140709',
      pending: false,
    });
    expect(m.customer).toEqual({ name: 'Juma Ali', tin: '123456789' });
    expect(receiptModel({ ...FISCAL_SALE, fiscal: { ...FISCAL_SALE.fiscal!, status: 'pending' } }, ctx).fiscal?.pending).toBe(true);
  });

  it('prints no tendered or change when the sale has none (a sale from before the SDK kept them)', () => {
    const { cash_tendered: _t, change_given: _c, ...older } = OFFLINE_CASH_SALE;
    const m = receiptModel(older, ctx);
    expect([m.tendered, m.change]).toEqual([null, null]);
    expect(receiptModel({ ...OFFLINE_CASH_SALE, change_given: 0 }, ctx).change).toBe(0);
  });

  it('heads the receipt with the store’s own address and phone when it has them, the organisation’s TIN, and the branch', () => {
    const store = { ...STORE, name: 'Kariakoo', address: 'Uhuru St 3', phone: '+255711000111' };
    expect(receiptModel(OFFLINE_CASH_SALE, { ...ctx, store }).shop).toEqual({
      name: 'Duka la Mama Amina',
      branch: 'Kariakoo',
      address: 'Uhuru St 3',
      phone: '+255711000111',
      tin: '100200300',
    });
    expect(receiptModel(OFFLINE_CASH_SALE, { ...ctx, shop: null, store: null }).shop).toEqual({
      name: '',
      branch: null,
      address: null,
      phone: null,
      tin: null,
    });
  });

  it('says where a mobile-money payment stands: pending before it is sent, then what the server found, or unchecked where it checks nothing', () => {
    const sent = { ...OFFLINE_MOBILE_SALE, receipt_number: 'MAD-000007' };
    expect(receiptModel(OFFLINE_MOBILE_SALE, ctx).payment).toEqual({
      method: 'M-Pesa',
      reference: 'QK72ZZ4M1B',
      phone: '+255754123456',
      check: 'pending',
    });
    expect(paymentCheck({ ...sent, payment_verification: 'unverified' })).toBe('unverified');
    expect(paymentCheck({ ...sent, payment_verification: 'verified' })).toBe('verified');
    expect(paymentCheck({ ...sent, payment_verification: 'unmatched' })).toBe('unmatched');
    // Sent, and the server set nothing: the shop has no collection account, and nobody checks it.
    expect(paymentCheck({ ...sent, payment_verification: null })).toBe('unchecked');
    expect(paymentCheck(OFFLINE_CASH_SALE)).toBeNull();
    expect(paymentCheck({ ...OFFLINE_CASH_SALE, payment_method: 'Bank', receipt_number: 'MAD-000005' })).toBeNull();
  });

  it('names the cashier only for the signed-in user’s own sales', () => {
    const user = { id: OFFLINE_CASH_SALE.cashier_id!, first_name: 'Amina', last_name: 'Juma', role: 'staff' };
    expect(cashierName(OFFLINE_CASH_SALE, user)).toBe('Amina Juma');
    expect(cashierName(OFFLINE_CASH_SALE, { ...user, last_name: undefined })).toBe('Amina');
    expect(cashierName(OFFLINE_CASH_SALE, { ...user, id: '00000000-0000-4000-8000-000000000000' })).toBeNull();
    expect(cashierName(OFFLINE_CASH_SALE, null)).toBeNull();
  });

  it('dates the receipt on the shop’s clock, and says UTC for a zone the runtime does not know', () => {
    expect(shopDate('2026-11-27T21:30:00.000Z', 'Africa/Dar_es_Salaam')).toBe('28/11/2026 00:30');
    expect(shopDate('2026-11-27T21:30:00.000Z', 'Europe/London')).toBe('27/11/2026 21:30');
    expect(shopDate('2026-11-27T21:30:00.000Z', 'Mars/Olympus')).toBe('27/11/2026 21:30 UTC');
  });
});
