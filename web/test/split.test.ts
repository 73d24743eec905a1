/** A sale paid several ways at the browser till (web/src/split.ts) and its receipt's parts (receipt-model.ts). */
import { describe, expect, it } from 'vitest';
import { receiptModel } from '../src/print/receipt-model.js';
import { addPart, partChoices, removePart, setPart, splitState, startSplit } from '../src/split.js';
import { textOf } from './print/golden.js';
import { OFFLINE_CASH_SALE, SHOP, STORE } from './print/receipt-fixtures.js';

const TOTAL = 1_250_000; // TZS 12,500 in cents

describe('split tender at the browser till', () => {
  it('shows what is left to pay until the parts cover the total, then hands the till its payments', () => {
    let parts = setPart(startSplit(), 0, { amount: '5,000' });
    expect(splitState(parts, TOTAL)).toEqual({
      left: 750_000,
      change: null,
      fault: { key: 'split.left', amount: 750_000 },
      payments: null,
    });
    parts = setPart(parts, 1, { amount: '7500' });
    expect(splitState(parts, TOTAL).fault).toEqual({ key: 'split.reference_missing' });
    parts = setPart(parts, 1, { reference: ' QK7SPLIT75 ' });
    expect(splitState(parts, TOTAL)).toEqual({
      left: 0,
      change: 0,
      fault: null,
      payments: [
        { method: 'Cash', amount: 5000 },
        { method: 'M-Pesa', amount: 7500, reference: 'QK7SPLIT75' },
      ],
    });
  });

  it('gives change only from cash; a non-cash part over the total is the shared rule’s refusal', () => {
    const cash = setPart(setPart(startSplit(), 0, { amount: '6000' }), 1, { amount: '7500', reference: 'R1' });
    expect(splitState(cash, TOTAL)).toMatchObject({ left: -100_000, change: 100_000, fault: null });
    const over = [
      { method: 'M-Pesa' as const, amount: '13000', reference: 'R1' },
      { method: 'Bank' as const, amount: '1', reference: 'B1' },
    ];
    expect(splitState(over, TOTAL)).toMatchObject({
      payments: null,
      fault: {
        message: "the parts other than cash come to TZS 13,001, more than the sale's total of TZS 12,500 (only cash may exceed it)",
      },
    });
  });

  it('offers each method once and one wallet, at most four parts', () => {
    const parts = startSplit();
    expect(partChoices(parts, 0)).toEqual(['Cash', 'Bank', 'Credit']);
    expect(partChoices(parts, 1)).toEqual(['M-Pesa', 'Tigo Pesa', 'Airtel Money', 'Bank', 'Credit']);
    const four = addPart(addPart(parts));
    expect(four.map((p) => p.method)).toEqual(['Cash', 'M-Pesa', 'Bank', 'Credit']);
    expect(addPart(four)).toHaveLength(4);
    expect(removePart(four, 1).map((p) => p.method)).toEqual(['Cash', 'Bank', 'Credit']);
  });

  it('lists each part on the receipt of a split sale, and checks its mobile-money part', () => {
    const sale = {
      ...OFFLINE_CASH_SALE,
      payment_method: 'Mixed' as const,
      payments: [
        { method: 'Cash' as const, amount: 5000, reference: null, phone: null, verification: null },
        { method: 'M-Pesa' as const, amount: 7500, reference: 'QK7SPLIT75', phone: null, verification: null },
      ],
    };
    const m = receiptModel(sale, { shop: SHOP, store: STORE, cashier: null, zone: 'Africa/Dar_es_Salaam' });
    expect(m.parts).toEqual([
      { method: 'Cash', amount: 500_000, reference: null },
      { method: 'M-Pesa', amount: 750_000, reference: 'QK7SPLIT75' },
    ]);
    expect(m.payment).toMatchObject({ method: 'Mixed', check: 'pending' });
    expect(receiptModel(OFFLINE_CASH_SALE, { shop: SHOP, store: STORE, cashier: null, zone: 'UTC' }).parts).toEqual([]);
  });

  it('prints each part under the method on 58 mm paper, then the cash handed over and the change', () => {
    const sale = {
      ...OFFLINE_CASH_SALE,
      payment_method: 'Mixed' as const,
      payments: [
        { method: 'Cash' as const, amount: 4530, reference: null, phone: null, verification: null },
        { method: 'M-Pesa' as const, amount: 12000, reference: 'QK7SPLIT75', phone: null, verification: null },
      ],
      cash_tendered: 5000,
      change_given: 470,
    };
    const text = textOf({ name: 'split', sale, options: { width: 58 } });
    expect(text).toContain(
      `Paid by Split\n  Cash${' '.repeat(17)}TZS 4,530\n  M-Pesa${' '.repeat(14)}TZS 12,000\n    QK7SPLIT75\nPayment unconfirmed\n`,
    );
    expect(text).toContain(`Cash tendered${' '.repeat(10)}TZS 5,000\nChange${' '.repeat(19)}TZS 470\n`);
  });
});
