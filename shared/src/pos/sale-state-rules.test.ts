import { describe, expect, it } from 'vitest';
import { checkReversal, returnedStockGoesTo } from './sale-state-rules.js';

describe('checkReversal', () => {
  it('refunds and voids paid and credit sales', () => {
    for (const move of ['refund', 'void'] as const) {
      for (const status of ['paid', 'credit'] as const) {
        expect(checkReversal({ move, may_refund: true, sale: { status, tab_paid: false } })).toBeUndefined();
      }
    }
  });

  it('needs the refund permission to refund, before anything else, but not to void', () => {
    expect(checkReversal({ move: 'refund', may_refund: false })).toEqual({ code: 'FORBIDDEN', message: 'you are not allowed to give refunds' });
    expect(checkReversal({ move: 'void', may_refund: false, sale: { status: 'paid', tab_paid: false } })).toBeUndefined();
  });

  it('says the sale is not there', () => {
    expect(checkReversal({ move: 'void', may_refund: true, sale: null })).toEqual({ code: 'NOT_FOUND', field: 'transaction_id', message: 'transaction not found' });
  });

  it('moves a sale once: a refunded or voided sale stays as it is', () => {
    const moved = (move: 'refund' | 'void', status: 'refunded' | 'void') => checkReversal({ move, may_refund: true, sale: { status, tab_paid: false } });
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
