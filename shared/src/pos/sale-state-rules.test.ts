import { describe, expect, it } from 'vitest';
import { checkReversal, returnedStockGoesTo, VOID_REFUSAL, VOID_WINDOW_MS } from './sale-state-rules.js';

describe('checkReversal', () => {
  it('refunds and voids paid and credit sales', () => {
    for (const move of ['refund', 'void'] as const) {
      for (const status of ['paid', 'credit'] as const) {
        expect(checkReversal({ move, may_refund: true, sale: { status, tab_paid: false } })).toBeUndefined();
      }
    }
  });

  it('needs the refund permission to refund, before anything else', () => {
    expect(checkReversal({ move: 'refund', may_refund: false })).toEqual({
      code: 'FORBIDDEN',
      message: 'you are not allowed to give refunds',
    });
  });

  it('lets a cashier without the refund permission void only their own sale, within 10 minutes; managers and owners any', () => {
    const paid = { status: 'paid' as const, tab_paid: false };
    const voidBy = (who: Partial<Parameters<typeof checkReversal>[0]>) =>
      checkReversal({ move: 'void', may_refund: false, role: 'staff', sale: paid, ...who });
    const refused = { code: 'FORBIDDEN', message: VOID_REFUSAL };
    expect(voidBy({ own_sale: true, age_ms: 9 * 60_000 })).toBeUndefined();
    expect(voidBy({ own_sale: true, age_ms: VOID_WINDOW_MS })).toBeUndefined();
    expect(voidBy({ own_sale: true, age_ms: VOID_WINDOW_MS + 1 })).toEqual(refused);
    expect(voidBy({ own_sale: false, age_ms: 60_000 })).toEqual(refused);
    expect(voidBy({})).toEqual(refused);
    expect(voidBy({ may_refund: true, own_sale: false, age_ms: 86_400_000 })).toBeUndefined();
    expect(voidBy({ role: 'manager', own_sale: false, age_ms: 86_400_000 })).toBeUndefined();
    expect(voidBy({ role: 'owner' })).toBeUndefined();
  });

  it('says the sale is not there', () => {
    expect(checkReversal({ move: 'void', may_refund: true, sale: null })).toEqual({
      code: 'NOT_FOUND',
      field: 'transaction_id',
      message: 'transaction not found',
    });
  });

  it('moves a sale once: a refunded or voided sale stays as it is', () => {
    const moved = (move: 'refund' | 'void', status: 'refunded' | 'void') =>
      checkReversal({ move, may_refund: true, sale: { status, tab_paid: false } });
    expect(moved('refund', 'refunded')).toEqual({ code: 'INVALID_STATE', message: 'a refunded sale cannot be refunded' });
    expect(moved('void', 'refunded')).toEqual({ code: 'INVALID_STATE', message: 'a refunded sale cannot be voided' });
    expect(moved('refund', 'void')).toEqual({ code: 'INVALID_STATE', message: 'a voided sale cannot be refunded' });
    expect(moved('void', 'void')).toEqual({ code: 'INVALID_STATE', message: 'a voided sale cannot be voided' });
  });

  it('refunds but never voids a credit sale whose tab took a payment', () => {
    expect(checkReversal({ move: 'void', may_refund: true, sale: { status: 'credit', tab_paid: true } })).toEqual({
      code: 'INVALID_STATE',
      message: 'this credit sale has payments; refund it instead of voiding it',
    });
    expect(checkReversal({ move: 'refund', may_refund: true, sale: { status: 'credit', tab_paid: true } })).toBeUndefined();
  });
});

describe('returnedStockGoesTo', () => {
  it('quarantines a pharmacy refund only', () => {
    expect(returnedStockGoesTo('refund', 'pharmacy')).toBe('quarantine');
    expect(returnedStockGoesTo('void', 'pharmacy')).toBe('shelf');
    expect(returnedStockGoesTo('refund', 'retail')).toBe('shelf');
    expect(returnedStockGoesTo('refund', 'wholesale')).toBe('shelf');
    expect(returnedStockGoesTo('refund', 'retail', 'addo')).toBe('quarantine');
    expect(returnedStockGoesTo('refund', 'retail', 'pharmacy')).toBe('quarantine');
    expect(returnedStockGoesTo('void', 'retail', 'addo')).toBe('shelf');
    expect(returnedStockGoesTo('refund', 'retail', null)).toBe('shelf');
  });
});
