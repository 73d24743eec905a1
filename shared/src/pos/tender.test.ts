import { describe, expect, it } from 'vitest';
import { PaymentMethod } from '../payment-methods.js';
import { changeFor, checkTender, quickTenders } from './tender.js';

describe('checkTender', () => {
  it('takes no tender, or one that covers the total, on a cash sale', () => {
    expect(checkTender({ payment_method: 'Cash', total: 1_230_000 })).toBeUndefined();
    expect(checkTender({ payment_method: 'Cash', total: 1_230_000, cash_tendered: 1_230_000 })).toBeUndefined();
    expect(checkTender({ payment_method: 'Cash', total: 1_230_000, cash_tendered: 2_000_000 })).toBeUndefined();
  });

  it('refuses a tender short of the total by one cent, naming the field', () => {
    expect(checkTender({ payment_method: 'Cash', total: 155_050, cash_tendered: 155_049 })).toEqual({
      code: 'VALIDATION_ERROR',
      field: 'cash_tendered',
      message: "TZS 1,550.49 is less than the sale's total of TZS 1,550.50",
    });
  });

  it('refuses a tender on anything but cash', () => {
    for (const payment_method of PaymentMethod.exclude(['Cash']).options) {
      expect(checkTender({ payment_method, total: 100_000, cash_tendered: 200_000 })).toEqual({
        code: 'VALIDATION_ERROR',
        field: 'cash_tendered',
        message: 'is only for a cash sale',
      });
    }
  });
});

describe('changeFor', () => {
  it('is the tender less the total, in cents', () => {
    expect(changeFor(1_230_000, 2_000_000)).toBe(770_000);
    expect(changeFor(155_050, 200_000)).toBe(44_950);
    expect(changeFor(500_000, 500_000)).toBe(0);
  });

  it('throws on a short tender or on fractions of a cent', () => {
    expect(() => changeFor(500_000, 499_999)).toThrow(RangeError);
    expect(() => changeFor(100.5, 200)).toThrow(RangeError);
  });
});

describe('quickTenders', () => {
  it('offers the exact total and the total rounded up to each note, smallest first, without repeats', () => {
    expect(quickTenders(1_230_000)).toEqual([1_230_000, 1_300_000, 1_400_000, 1_500_000, 2_000_000]);
    expect(quickTenders(320_000)).toEqual([320_000, 400_000, 500_000, 1_000_000]);
    expect(quickTenders(500_000)).toEqual([500_000, 600_000, 1_000_000]);
    expect(quickTenders(155_050)).toEqual([155_050, 200_000, 500_000, 1_000_000]);
    expect(quickTenders(100_000)).toEqual([100_000, 200_000, 500_000, 1_000_000]);
  });

  it('offers the notes themselves for a sale of nothing, and refuses fractions of a cent', () => {
    expect(quickTenders(0)).toEqual([0, 100_000, 200_000, 500_000, 1_000_000]);
    expect(() => quickTenders(10.5)).toThrow(RangeError);
  });
});
