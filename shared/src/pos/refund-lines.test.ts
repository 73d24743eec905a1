import { describe, expect, it } from 'vitest';
import { refundLinesWanted, refundLots } from './refund-lines.js';

const SUGAR = '00000000-0000-4000-8000-000000000001';
const SOAP = '00000000-0000-4000-8000-000000000002';
const lines = [
  { product_id: SUGAR, pack_id: null, unit: 'kg' as const, name: 'Sukari', qty: 1250, refunded: 250 },
  { product_id: SOAP, pack_id: null, unit: 'piece' as const, name: 'Sabuni', qty: 3, refunded: 0 },
];
const left = (l: (typeof lines)[number]) => l.qty - l.refunded;

describe('refundLinesWanted: which lines a refund takes back, judged alike on the server and the till', () => {
  it('counts in the unit; nothing asked is everything left', () => {
    expect(refundLinesWanted(lines, left, [{ product_id: SUGAR, qty: 0.25 }])).toEqual({ wanted: [{ line: lines[0], count: 250 }] });
    expect(refundLinesWanted(lines, left)).toEqual({
      wanted: [
        { line: lines[0], count: 1000 },
        { line: lines[1], count: 3 },
      ],
    });
  });

  it('refuses half a piece, a line the sale lacks and more than is left, naming the field', () => {
    expect(refundLinesWanted(lines, left, [{ product_id: SOAP, qty: 0.5 }])).toEqual({
      fault: { code: 'VALIDATION_ERROR', field: 'lines.0.qty', message: 'a product sold by the piece takes whole numbers' },
    });
    expect(refundLinesWanted(lines, left, [{ product_id: SOAP, qty: 1, pack_id: SUGAR }])).toMatchObject({
      fault: { code: 'VALIDATION_ERROR', field: 'lines.0.product_id' },
    });
    expect(refundLinesWanted(lines, left, [{ product_id: SUGAR, qty: 1.25 }])).toEqual({
      fault: { code: 'INVALID_STATE', field: 'lines.0.qty', message: 'only 1 kg of Sukari is left to refund (1.25 kg sold)' },
    });
  });
});

describe('refundLots: units back to the lots they came from, first-taken first', () => {
  it('5 taken as 2 of B then 3 of A: 3 back are 2 to B and 1 to A; the last 2 to A', () => {
    const lots = [
      { product_id: SOAP, lot: 'B', qty: 2 },
      { product_id: SOAP, lot: 'A', qty: 3 },
    ];
    const back = (from: number, count: number) =>
      refundLots(lots, (l) => l.qty, new Map([[SOAP, { from, count }]])).map(([l, n]) => [l.lot, n]);
    expect(back(0, 3)).toEqual([
      ['B', 2],
      ['A', 1],
    ]);
    expect(back(3, 2)).toEqual([['A', 2]]);
  });
});
